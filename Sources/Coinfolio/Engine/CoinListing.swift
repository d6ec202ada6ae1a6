import Foundation

/// A page of the home list.
public struct CoinListing: Sendable {
    /// The coins of the page, in the query's order.
    public var coins: [Coin] {
        didSet { encodedCoins = nil }  // the cached JSON is of the coins as the engine listed them
    }
    /// How many coins matched the search, before limit and offset.
    public var total: Int
    /// When the snapshot was taken.
    public var asOf: Date
    /// The snapshot is older than `stale_after_s` or its last refresh failed.
    public var isStale: Bool
    /// Whether `json` includes sparklines.
    public var includesSparkline: Bool
    /// The coins' JSON members from the snapshot's cache, when the engine made this listing.
    var encodedCoins: [[UInt8]]?

    /// A listing of `coins` out of `total` matches.
    public init(coins: [Coin], total: Int, asOf: Date, isStale: Bool, includesSparkline: Bool) {
        self.coins = coins
        self.total = total
        self.asOf = asOf
        self.isStale = isStale
        self.includesSparkline = includesSparkline
    }

    /// `{"coins":[coin + "price_available"…],"total":n,"as_of":"…","stale":b}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: (encodedCoins?.reduce(0) { $0 + $1.count } ?? coins.count * 4096) + coins.count * 32 + 96)
        w.beginObject()
        w.key("coins"); w.beginArray()
        for (index, coin) in coins.enumerated() {
            w.beginObject()
            if let encodedCoins { w.members(encodedCoins[index]) } else { coin.writeJSON(to: &w, sparkline: includesSparkline) }
            w.key("price_available"); w.bool(coin.isPriceAvailable)
            w.endObject()
        }
        w.endArray()
        w.key("total"); w.number(total)
        w.key("as_of"); w.string(isoTimestamp(asOf))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.bytes
    }
}
