/// `CoinDetail` in the JSON shape the ABI writes.
extension CoinDetail {
    /// The keys of a coin's detail as Coinfolio writes it.
    enum JSONKey: String, WireKeys {
        case id
        case symbol
        case name
        case blockTimeInMinutes = "block_time_in_minutes"
        case hashingAlgorithm = "hashing_algorithm"
        case description
        case homepage
        case subredditURL = "subreddit_url"
        case genesisDate = "genesis_date"
        case categories
    }
    /// The keys of a decoded `/coins/{id}` body.
    enum AnswerKey: String, WireKeys {
        case detail
        case warnings
    }

    func writeJSON(to w: inout JSONWriter) {
        w.key(JSONKey.id); w.string(id)
        w.key(JSONKey.symbol); w.string(symbol)
        w.key(JSONKey.name); w.string(name)
        w.key(JSONKey.blockTimeInMinutes); w.number(blockTimeInMinutes)
        w.key(JSONKey.hashingAlgorithm); w.string(hashingAlgorithm)
        w.key(JSONKey.description); w.string(description)
        w.key(JSONKey.homepage); w.string(homepage)
        w.key(JSONKey.subredditURL); w.string(subredditURL)
        w.key(JSONKey.genesisDate); w.string(genesisDate)
        w.key(JSONKey.categories); w.beginArray()
        for category in categories { w.string(category) }
        w.endArray()
    }

    /// `{"detail":{…},"warnings":[{"index":null,"id":"…","field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key(AnswerKey.detail); w.beginObject(); writeJSON(to: &w); w.endObject()
        w.key(AnswerKey.warnings); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}
