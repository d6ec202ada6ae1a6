import Foundation

/// What `PortfolioEngine.refresh()` and `load(…)` report.
public struct RefreshSummary: Hashable, Sendable {
    /// Coins in the new snapshot.
    public var coins: Int
    /// The data's own time: the newest `last_updated` among the coins, or `/global`'s
    /// `updated_at` when newer (the fetch time when neither is known).
    public var asOf: Date
    /// When the data was fetched (refresh) or loaded (load).
    public var fetchedAt: Date
    /// Judged from `asOf`: false after a refresh of live data, true at once for a loaded old body.
    public var isStale: Bool

    /// `{"coins":n,"as_of":"…","fetched_at":"…","stale":b}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("coins"); w.number(coins)
        w.key("as_of"); w.string(isoTimestamp(asOf))
        w.key("fetched_at"); w.string(isoTimestamp(fetchedAt))
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
    /// The data's own time (newest `last_updated`, or `/global` `updated_at` when newer).
    public var asOf: Date
    /// When the snapshot was fetched or loaded; nil when unknown.
    public var fetchedAt: Date?
    /// The data (`asOf`) is older than `stale_after_s`, or the last refresh failed.
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

    /// `{"coins":[coin + "price_available"…],"total":n,"as_of":"…","fetched_at":"…"|null,"stale":b}`
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
        w.key("fetched_at"); w.string(fetchedAt.map(isoTimestamp))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.bytes
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

    /// `{"coins":[coin + "price_available","current_holdings","current_holdings_value"…],
    /// "total_value":x|null,"unpriced_holdings":n,"as_of":"…"|null,"fetched_at":"…"|null,"stale":b}`;
    /// a coin with no market row has its id and null for every market key.
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: entries.count * (includesSparkline ? 4500 : 1500) + 96)
        w.beginObject()
        w.key("coins"); w.beginArray()
        for entry in entries {
            w.beginObject()
            if let row = entry.row {
                w.members(row.snapshot.encodedCoin(row.position, sparkline: includesSparkline))
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
        w.key("unpriced_holdings"); w.number(unpricedHoldings)
        w.key("as_of"); w.string(asOf.map(isoTimestamp))
        w.key("fetched_at"); w.string(fetchedAt.map(isoTimestamp))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.bytes
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
    /// When the detail was fetched from CoinGecko (it is saved in the database with this time).
    public var asOf: Date?
    /// The detail is older than `detail_ttl_s`: a refresh of it failed (or was not tried,
    /// offline) and the saved one is shown.
    public var isStale: Bool = false

    /// `{"coin":coin|null,"detail":{…},"overview":[…],"additional":[…],"as_of":"…","stale":b}`
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
        w.key("as_of"); w.string(asOf.map(isoTimestamp))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.bytes
    }
}

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

    /// `{"coin":{…},"overview":[…],"additional":[…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: 4096)
        w.beginObject()
        w.key("coin")
        w.beginObject(); coin.writeJSON(to: &w); w.key("price_available"); w.bool(coin.isPriceAvailable); w.endObject()
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
