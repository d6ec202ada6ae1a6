/// `MarketData` in the JSON shape the ABI writes (CoinGecko's `/global` data keys).
extension MarketData {
    func writeJSON(to w: inout JSONWriter) {
        func map(_ values: [String: Double]?) {
            guard let values else { w.null(); return }
            w.beginObject()
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { w.key(key); w.number(value) }
            w.endObject()
        }
        w.key("total_market_cap"); map(totalMarketCap)
        w.key("total_volume"); map(totalVolume)
        w.key("market_cap_percentage"); map(marketCapPercentage)
        w.key("market_cap_change_percentage_24h_usd"); w.number(marketCapChangePercentage24hUSD)
        w.key("active_cryptocurrencies"); w.number(activeCryptocurrencies)
        w.key("markets"); w.number(markets)
        w.key("updated_at"); w.number(updatedAt)
    }

    /// `{"market_data":{…},"warnings":[{"index":null,"id":null,"field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("market_data"); w.beginObject(); writeJSON(to: &w); w.endObject()
        w.key("warnings"); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}
