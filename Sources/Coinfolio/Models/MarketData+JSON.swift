/// `MarketData` in the JSON shape the ABI writes (CoinGecko's `/global` data keys).
extension MarketData {
    /// The keys of `/global`'s data, CoinGecko's: what the decoder reads and the writer writes.
    enum JSONKey: String, CodingKey, WireKeys {
        case totalMarketCap = "total_market_cap"
        case totalVolume = "total_volume"
        case marketCapPercentage = "market_cap_percentage"
        case marketCapChangePercentage24hUSD = "market_cap_change_percentage_24h_usd"
        case activeCryptocurrencies = "active_cryptocurrencies"
        case markets
        case updatedAt = "updated_at"
    }
    /// The keys of a decoded `/global` body.
    enum AnswerKey: String, WireKeys {
        case marketData = "market_data"
        case warnings
    }

    func writeJSON(to w: inout JSONWriter) {
        func map(_ values: [String: Double]?) {
            guard let values else { w.null(); return }
            w.beginObject()
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { w.key(named: key); w.number(value) }
            w.endObject()
        }
        w.key(JSONKey.totalMarketCap); map(totalMarketCap)
        w.key(JSONKey.totalVolume); map(totalVolume)
        w.key(JSONKey.marketCapPercentage); map(marketCapPercentage)
        w.key(JSONKey.marketCapChangePercentage24hUSD); w.number(marketCapChangePercentage24hUSD)
        w.key(JSONKey.activeCryptocurrencies); w.number(activeCryptocurrencies)
        w.key(JSONKey.markets); w.number(markets)
        w.key(JSONKey.updatedAt); w.number(updatedAt)
    }

    /// `{"market_data":{…},"warnings":[{"index":null,"id":null,"field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key(AnswerKey.marketData); w.beginObject(); writeJSON(to: &w); w.endObject()
        w.key(AnswerKey.warnings); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}
