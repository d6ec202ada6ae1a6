import Foundation

/// The coin detail screen.
public struct CoinDetailScreen: Sendable {
    /// The snapshot's market row, nil when the coin is not in the snapshot.
    public var coin: Coin?
    /// From `GET /coins/{id}`.
    public var detail: CoinDetail
    /// "Current Price", "Market Capitalization", "Rank", "Volume".
    public var overview: [Statistic]
    /// "24h High", "24h Low", "24h Price Change", "24h Market Cap Change", "Block Time",
    /// "Hashing Algorithm".
    public var additional: [Statistic]
    /// When the detail was fetched from CoinGecko (it is saved in the database with this time).
    public var asOf: Date?
    /// The detail is older than `detail_ttl_s`: a refresh of it failed (or was not tried,
    /// offline) and the saved one is shown.
    public var isStale: Bool = false

    /// The keys of the answer before its `Freshness` members (`as_of`, `stale`).
    enum JSONKey: String, WireKeys {
        case coin
        case detail
        case overview
        case additional
    }

    /// `{"coin":coin|null,"detail":{…},"overview":[…],"additional":[…],"as_of":"…","stale":b}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: 8192)
        w.beginObject()
        w.key(JSONKey.coin)
        if let coin {
            w.beginObject(); coin.writeJSON(to: &w); w.key(CoinListing.CoinKey.priceAvailable); w.bool(coin.isPriceAvailable); w.endObject()
        } else {
            w.null()
        }
        w.key(JSONKey.detail); w.beginObject(); detail.writeJSON(to: &w); w.endObject()
        w.key(JSONKey.overview); overview.writeJSON(to: &w)
        w.key(JSONKey.additional); additional.writeJSON(to: &w)
        Freshness(asOf: asOf, isStale: isStale).write(to: &w, withFetchedAt: false)
        w.endObject()
        return w.bytes
    }
}
