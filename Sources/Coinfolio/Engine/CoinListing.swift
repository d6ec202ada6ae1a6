import Foundation

/// A page of the home list.
public struct CoinListing: Sendable {
    /// The coins of the page, in the query's order.
    public var coins: [Coin]
    /// How many coins matched the search, before limit and offset.
    public var total: Int
    /// The data's own time (newest `last_updated`, or `/global` `updated_at` when newer).
    public var asOf: Date
    /// When the snapshot was fetched or loaded; nil when unknown.
    public var fetchedAt: Date?
    /// The data (`asOf`) is older than `stale_after_s`, or the last refresh failed.
    public var isStale: Bool
    /// Whether `json` includes sparklines.
    public var includesSparkline: Bool

    /// A listing of `coins` out of `total` matches.
    public init(coins: [Coin], total: Int, asOf: Date, isStale: Bool, includesSparkline: Bool) {
        self.coins = coins
        self.total = total
        self.asOf = asOf
        self.isStale = isStale
        self.includesSparkline = includesSparkline
    }

    /// The keys of the answer before its `Freshness` members.
    enum JSONKey: String, WireKeys {
        case coins
        case total
    }

    /// The key a listed coin adds to its market row's (`Coin.JSONKey`), also in the detail screens.
    enum CoinKey: String, WireKeys {
        case priceAvailable = "price_available"
    }

    /// `{"coins":[coin + "price_available"…],"total":n,"as_of":"…","fetched_at":"…"|null,"stale":b}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        Self.answer(
            count: coins.count, reserving: coins.count * 4096 + coins.count * 32 + 96, total: total, asOf: asOf,
            fetchedAt: fetchedAt, isStale: isStale
        ) { index, w in
            coins[index].writeJSON(to: &w, sparkline: includesSparkline)
            return coins[index].isPriceAvailable
        }.bytes
    }

    /// Writes `json` for `count` coins; `coin(i, &w)` writes the members of the i-th coin and
    /// says whether it has a price. The engine's SPI passes the snapshot's cached members.
    static func answer(
        count: Int, reserving: Int, total: Int, asOf: Date, fetchedAt: Date?, isStale: Bool,
        coin: (Int, inout JSONWriter) -> Bool
    ) -> JSONAnswer {
        var w = JSONWriter(reserving: reserving)
        w.beginObject()
        w.key(JSONKey.coins); w.beginArray()
        for index in 0..<count {
            w.beginObject()
            let priceAvailable = coin(index, &w)
            w.key(CoinKey.priceAvailable); w.bool(priceAvailable)
            w.endObject()
        }
        w.endArray()
        w.key(JSONKey.total); w.number(total)
        Freshness(asOf: asOf, fetchedAt: fetchedAt, isStale: isStale).write(to: &w)
        w.endObject()
        return w.answer
    }
}
