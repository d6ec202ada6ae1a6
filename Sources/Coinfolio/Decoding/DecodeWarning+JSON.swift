/// `DecodeWarning` lists in the JSON shape the ABI writes.
extension Array where Element == DecodeWarning {
    /// `[{"index":i,"id":"…","field":"…","reason":"…"}…]`
    func writeJSON(to w: inout JSONWriter) {
        w.beginArray()
        for warning in self {
            w.beginObject()
            w.key("index"); w.number(warning.index)
            w.key("id"); w.string(warning.id)
            w.key("field"); w.string(warning.field)
            w.key("reason"); w.string(warning.reason)
            w.endObject()
        }
        w.endArray()
    }
}
