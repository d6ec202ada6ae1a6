/// `Statistic` and lists of them in the JSON shape the ABI writes.
extension Statistic {
    /// The keys of a statistic (`coverage` only on "Portfolio Value").
    enum JSONKey: String, WireKeys {
        case title
        case value
        case percentageChange = "percentage_change"
        case coverage
    }

    /// The keys of the statistics answer.
    enum AnswerKey: String, WireKeys {
        case statistics
    }

    func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key(JSONKey.title); w.string(title)
        w.key(JSONKey.value); w.string(value)
        w.key(JSONKey.percentageChange); w.number(percentageChange)
        if let coverage { w.key(JSONKey.coverage); w.number(coverage) }
        w.endObject()
    }
}

extension Array where Element == Statistic {
    func writeJSON(to w: inout JSONWriter) {
        w.beginArray()
        for statistic in self { statistic.writeJSON(to: &w) }
        w.endArray()
    }
}

extension Array where Element == Statistic {
    /// `{"statistics":[{"title","value","percentage_change"}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `[{"title","value","percentage_change"}…]`: the array alone, to place in a larger object.
    public var jsonArray: String {
        var w = JSONWriter()
        writeJSON(to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(Statistic.AnswerKey.statistics)
        writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}
