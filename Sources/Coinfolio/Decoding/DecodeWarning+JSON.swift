extension DecodeWarning {
    /// The keys of a warning.
    enum JSONKey: String, WireKeys {
        case index
        case id
        case field
        case reason
    }
}

/// `DecodeWarning` lists in the JSON shape the ABI writes.
extension Array where Element == DecodeWarning {
    /// `[{"index":i,"id":"…","field":"…","reason":"…"}…]`
    func writeJSON(to w: inout JSONWriter) {
        w.beginArray()
        for warning in self {
            w.beginObject()
            w.key(DecodeWarning.JSONKey.index); w.number(warning.index)
            w.key(DecodeWarning.JSONKey.id); w.string(warning.id)
            w.key(DecodeWarning.JSONKey.field); w.string(warning.field)
            w.key(DecodeWarning.JSONKey.reason); w.string(warning.reason)
            w.endObject()
        }
        w.endArray()
    }
}
