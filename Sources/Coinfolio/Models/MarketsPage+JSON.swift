/// `MarketsPage` in the JSON shape the ABI writes.
extension MarketsPage {
    /// The keys of a decoded markets page.
    enum JSONKey: String, WireKeys {
        case coins
        case skipped
        case warnings
    }
    /// The keys of a skipped element.
    enum SkippedKey: String, WireKeys {
        case index
        case reason
    }

    /// `{"coins":[…],"skipped":[{"index":i,"reason":"…"}],
    /// "warnings":[{"index":i,"id":"…","field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: coins.count * 1024 + 64)
        w.beginObject()
        w.key(JSONKey.coins); w.beginArray()
        for coin in coins {
            w.beginObject(); coin.writeJSON(to: &w); w.endObject()
        }
        w.endArray()
        w.key(JSONKey.skipped); w.beginArray()
        for entry in skipped {
            w.beginObject()
            w.key(SkippedKey.index); w.number(entry.index)
            w.key(SkippedKey.reason); w.string(entry.reason)
            w.endObject()
        }
        w.endArray()
        w.key(JSONKey.warnings); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}
