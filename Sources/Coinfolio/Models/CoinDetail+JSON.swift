/// `CoinDetail` in the JSON shape the ABI writes.
extension CoinDetail {
    func writeJSON(to w: inout JSONWriter) {
        w.key("id"); w.string(id)
        w.key("symbol"); w.string(symbol)
        w.key("name"); w.string(name)
        w.key("block_time_in_minutes"); w.number(blockTimeInMinutes)
        w.key("hashing_algorithm"); w.string(hashingAlgorithm)
        w.key("description"); w.string(description)
        w.key("homepage"); w.string(homepage)
        w.key("subreddit_url"); w.string(subredditURL)
        w.key("genesis_date"); w.string(genesisDate)
        w.key("categories"); w.beginArray()
        for category in categories { w.string(category) }
        w.endArray()
    }

    /// `{"detail":{…},"warnings":[{"index":null,"id":"…","field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("detail"); w.beginObject(); writeJSON(to: &w); w.endObject()
        w.key("warnings"); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}
