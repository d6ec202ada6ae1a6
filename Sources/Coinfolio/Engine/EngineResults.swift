import Foundation

/// What `PortfolioEngine.refresh()` and `load(…)` report.
public struct RefreshSummary: Hashable, Sendable {
    /// Coins in the new snapshot.
    public var coins: Int
    /// When the snapshot was taken.
    public var asOf: Date
    /// Always false right after a successful refresh.
    public var isStale: Bool

    /// `{"coins":n,"as_of":"…","stale":false}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("coins"); w.number(coins)
        w.key("as_of"); w.string(isoTimestamp(asOf))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.bytes
    }
}

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
    @_spi(ABI) public var jsonUTF8: [UInt8] { jsonAnswer.bytes }

    /// `json` sized once, the cached coins' JSON placed by reference (see `JSONAnswer`).
    @_spi(ABI) public var jsonAnswer: JSONAnswer {
        var w = JSONWriter(reserving: (encodedCoins == nil ? coins.count * 4096 : 0) + coins.count * 32 + 96)
        w.beginObject()
        w.key("coins"); w.beginArray()
        for (index, coin) in coins.enumerated() {
            w.beginObject()
            if let encodedCoins { w.members(deferred: encodedCoins[index]) } else { coin.writeJSON(to: &w, sparkline: includesSparkline) }
            w.key("price_available"); w.bool(coin.isPriceAvailable)
            w.endObject()
        }
        w.endArray()
        w.key("total"); w.number(total)
        w.key("as_of"); w.string(isoTimestamp(asOf))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.answer
    }
}

/// One held coin joined with its market row.
public struct PortfolioEntry: Sendable {
    /// The coin id held.
    public var coinID: String
    /// The snapshot's market row, nil when the coin is not in it (delisted, or no snapshot yet).
    public var coin: Coin? { row.map { $0.snapshot.coins[$0.position] } ?? ownCoin?.coin }
    /// `current_holdings`: units held.
    public var amount: Double
    /// `current_holdings_value` = amount × `current_price`, in vs_currency; nil without a price.
    public var value: Double?

    /// Where the engine found the coin: entries point into the snapshot rather than copying a
    /// `Coin` (30-odd fields), so building and sorting 1,000 of them stays cheap.
    var row: (snapshot: MarketSnapshot, position: Int)?
    private let ownCoin: CoinBox?

    private final class CoinBox: Sendable {
        let coin: Coin
        init(_ coin: Coin) { self.coin = coin }
    }

    /// An entry; `value` in vs_currency, nil without a price.
    public init(coinID: String, coin: Coin?, amount: Double, value: Double?) {
        self.coinID = coinID
        self.amount = amount
        self.value = value
        self.ownCoin = coin.map(CoinBox.init)
    }

    init(coinID: String, row: (snapshot: MarketSnapshot, position: Int)?, amount: Double, value: Double?) {
        self.coinID = coinID
        self.row = row
        self.amount = amount
        self.value = value
        self.ownCoin = nil
    }

    /// Whether the coin has a price, so that its value counts.
    public var isPriceAvailable: Bool { value != nil }

    /// The coin's `price_change_percentage_24h`, read in place (no `Coin` copy).
    var priceChangePercentage24h: Double? {
        if let row { return row.snapshot.coins[row.position].priceChangePercentage24h }
        return ownCoin?.coin.priceChangePercentage24h
    }
}

/// The portfolio screen.
public struct Portfolio: Sendable {
    /// Every held coin, in the query's order.
    public var entries: [PortfolioEntry]
    /// Σ `current_holdings_value` of the coins that have a price, in vs_currency.
    public var totalValue: Double
    /// When the snapshot was taken; nil without one.
    public var asOf: Date?
    /// The snapshot is old or its last refresh failed (true without a snapshot).
    public var isStale: Bool
    /// Whether `json` includes sparklines.
    public var includesSparkline: Bool

    /// `{"coins":[coin + "price_available","current_holdings","current_holdings_value"…],
    /// "total_value":x,"as_of":"…"|null,"stale":b}`; a coin with no market row has its id and
    /// null for every market key.
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] { jsonAnswer.bytes }

    /// `json` sized once, the cached coins' JSON placed by reference (see `JSONAnswer`).
    @_spi(ABI) public var jsonAnswer: JSONAnswer {
        var w = JSONWriter(reserving: entries.count * 96 + 96)
        w.beginObject()
        w.key("coins"); w.beginArray()
        for entry in entries {
            w.beginObject()
            if let row = entry.row {
                w.members(deferred: row.snapshot.encodedCoin(row.position, sparkline: includesSparkline))
            } else {
                let coin = entry.coin
                (coin ?? Coin(id: entry.coinID, symbol: "", name: "")).writeJSON(
                    to: &w, sparkline: includesSparkline, known: coin != nil)
            }
            w.key("price_available"); w.bool(entry.isPriceAvailable)
            w.key("current_holdings"); w.number(entry.amount)
            w.key("current_holdings_value"); w.number(entry.value)
            w.endObject()
        }
        w.endArray()
        w.key("total_value"); w.number(totalValue)
        w.key("as_of"); w.string(asOf.map(isoTimestamp))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.answer
    }
}

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

    /// `{"coin":coin|null,"detail":{…},"overview":[…],"additional":[…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: 8192)
        w.beginObject()
        w.key("coin")
        if let coin {
            w.beginObject(); coin.writeJSON(to: &w); w.key("price_available"); w.bool(coin.isPriceAvailable); w.endObject()
        } else {
            w.null()
        }
        w.key("detail"); w.beginObject(); detail.writeJSON(to: &w); w.endObject()
        w.key("overview"); overview.writeJSON(to: &w)
        w.key("additional"); additional.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}

extension Array where Element == Statistic {
    /// `{"statistics":[{"title","value","percentage_change"}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `[{"title","value","percentage_change"}…]`: the array alone, to place in a larger object.
    public var jsonArray: String {
        var w = JSONWriter()
        writeJSON(to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("statistics")
        writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}

/// Counters of one engine since it was opened.
public struct EngineMetrics: Hashable, Sendable {
    /// HTTP attempts by endpoint, retries included.
    public var httpRequests: [Endpoint: Int]
    /// Coin detail answers served without a request of their own (cached or shared).
    public var detailCacheHits: Int

    /// `{"http_requests":{"markets":n,"global":n,"detail":n},"detail_cache_hits":n}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("http_requests"); w.beginObject()
        for endpoint in Endpoint.allCases { w.key(endpoint.rawValue); w.number(httpRequests[endpoint] ?? 0) }
        w.endObject()
        w.key("detail_cache_hits"); w.number(detailCacheHits)
        w.endObject()
        return w.bytes
    }
}

/// ISO-8601 UTC with seconds: "2026-11-30T03:35:45Z".
func isoTimestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
}
