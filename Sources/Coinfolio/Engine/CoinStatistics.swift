/// One coin's statistics from the saved snapshot alone (no request): the detail screen without
/// the description.
public struct CoinStatistics: Sendable {
    /// The snapshot's market row.
    public var coin: Coin
    /// "Current Price", "Market Capitalization", "Rank", "Volume".
    public var overview: [Statistic]
    /// "24h High", "24h Low", "24h Price Change", "24h Market Cap Change", "Block Time",
    /// "Hashing Algorithm" (the last two from a saved detail when there is one, else "n/a").
    public var additional: [Statistic]

    /// The keys of the answer.
    enum JSONKey: String, WireKeys {
        case coin
        case overview
        case additional
    }

    /// `{"coin":{…},"overview":[…],"additional":[…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: 4096)
        w.beginObject()
        w.key(JSONKey.coin)
        w.beginObject(); coin.writeJSON(to: &w); w.key(CoinListing.CoinKey.priceAvailable); w.bool(coin.isPriceAvailable); w.endObject()
        w.key(JSONKey.overview); overview.writeJSON(to: &w)
        w.key(JSONKey.additional); additional.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}
