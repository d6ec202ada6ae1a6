import Foundation

/// The portfolio screen.
public struct Portfolio: Sendable {
    /// Every held coin, in the query's order.
    public var entries: [PortfolioEntry]
    /// Σ `current_holdings_value` of the coins that have a price, in vs_currency; nil when there
    /// are holdings and none has a price (unknown, never 0); 0 with no holdings.
    public var totalValue: Double?
    /// How many holdings have no price (no market row, or no `current_price`), so that
    /// `totalValue` leaves them out.
    public var unpricedHoldings: Int = 0
    /// The data's own time (newest `last_updated`); nil without a snapshot.
    public var asOf: Date?
    /// When the snapshot was fetched or loaded; nil without one.
    public var fetchedAt: Date?
    /// The data is old or its last refresh failed (true without a snapshot).
    public var isStale: Bool
    /// Whether `json` includes sparklines.
    public var includesSparkline: Bool

    /// The keys of the answer before its `Freshness` members.
    enum JSONKey: String, WireKeys {
        case coins
        case totalValue = "total_value"
        case unpricedHoldings = "unpriced_holdings"
    }

    /// The keys a held coin adds to its market row's (`Coin.JSONKey`).
    enum CoinKey: String, WireKeys {
        case priceAvailable = "price_available"
        case currentHoldings = "current_holdings"
        case currentHoldingsValue = "current_holdings_value"
        case priceSource = "price_source"
    }

    /// `{"coins":[coin + "price_available","current_holdings","current_holdings_value",
    /// "price_source"…],"total_value":x|null,"unpriced_holdings":n,"as_of":"…"|null,
    /// "fetched_at":"…"|null,"stale":b}`; a coin with no market row has its id and null for every
    /// market key but `current_price`, which is the owner's manual current price when one valued
    /// it (`price_source` "manual"; "coingecko" for the snapshot's price, null without one).
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        Self.answer(
            count: entries.count, reserving: entries.count * (includesSparkline ? 4500 : 1500) + 96, totalValue: totalValue,
            unpricedHoldings: unpricedHoldings, asOf: asOf, fetchedAt: fetchedAt, isStale: isStale
        ) { index, w in
            let entry = entries[index]
            (entry.coin ?? PortfolioEntry.absentCoin(entry.coinID, manualPrice: entry.manualPrice)).writeJSON(
                to: &w, sparkline: includesSparkline, known: entry.coin != nil)
            return (entry.isPriceAvailable, entry.amount, entry.value, entry.priceSource)
        }.bytes
    }

    /// Writes `json` for `count` entries; `entry(i, &w)` writes the i-th coin's members and
    /// gives its price availability, amount, value and price source. The engine's SPI passes the
    /// snapshot's cached members.
    static func answer(
        count: Int, reserving: Int, totalValue: Double?, unpricedHoldings: Int, asOf: Date?, fetchedAt: Date?, isStale: Bool,
        entry: (Int, inout JSONWriter) -> (priceAvailable: Bool, amount: Double, value: Double?, priceSource: String?)
    ) -> JSONAnswer {
        var w = JSONWriter(reserving: reserving)
        w.beginObject()
        w.key(JSONKey.coins); w.beginArray()
        for index in 0..<count {
            w.beginObject()
            let (priceAvailable, amount, value, priceSource) = entry(index, &w)
            w.key(CoinKey.priceAvailable); w.bool(priceAvailable)
            w.key(CoinKey.currentHoldings); w.number(amount)
            w.key(CoinKey.currentHoldingsValue); w.number(value)
            w.key(CoinKey.priceSource); w.string(priceSource)
            w.endObject()
        }
        w.endArray()
        w.key(JSONKey.totalValue); w.number(totalValue)
        w.key(JSONKey.unpricedHoldings); w.number(unpricedHoldings)
        Freshness(asOf: asOf, fetchedAt: fetchedAt, isStale: isStale).write(to: &w)
        w.endObject()
        return w.answer
    }
}
