import Foundation
import Synchronization

/// The market as last downloaded or loaded, indexed for queries. Immutable: a refresh builds a
/// new one and swaps it in, so queries never wait for the network.
final class MarketSnapshot: Sendable {
    let coins: [Coin]
    let marketData: MarketData?
    /// When the data was downloaded or loaded.
    let asOf: Date
    /// The last refresh after this snapshot failed.
    let refreshFailed: Bool

    let indexByID: [String: Int]
    /// `name \0 symbol \0 id` of each coin in `SearchText.fold` form, as UTF-8, for substring
    /// search; made on the first search, not at every load.
    private let haystacks = Mutex<[[UInt8]]?>(nil)
    /// Coin positions by order, computed once per order.
    private let orders = Mutex<[CoinSort: [Int]]>([:])
    /// Each coin's JSON members (without braces), with and without sparkline, written once on
    /// first use: the snapshot never changes, so neither does its JSON.
    private let encoded: Mutex<[[UInt8]?]>
    /// Each coin's `current_price` as an exact decimal (its shortest text), converted once on
    /// first use for the ledger's P&L.
    private let exactPrices = Mutex<[ExactDecimal?]?>(nil)

    init(coins: [Coin], marketData: MarketData?, asOf: Date, refreshFailed: Bool = false) {
        self.coins = coins
        self.marketData = marketData
        self.asOf = asOf
        self.refreshFailed = refreshFailed
        var index: [String: Int] = [:]
        index.reserveCapacity(coins.count)
        for (position, coin) in coins.enumerated() { index[coin.id] = position }
        indexByID = index
        encoded = Mutex(Array(repeating: nil, count: coins.count * 2))
    }

    /// The lower-cased search text of every coin, made on the first search (not at every load).
    private func searchTexts() -> [[UInt8]] {
        if let texts = haystacks.withLock({ $0 }) { return texts }
        let texts = coins.map { SearchText.fold("\($0.name)\u{0}\($0.symbol)\u{0}\($0.id)") }
        haystacks.withLock { $0 = texts }
        return texts
    }

    /// Decoded sparklines of the coins asked for (`portfolio_history`), by position: a coin's
    /// sparkline stays undecoded JSON in the snapshot until someone needs its points, then is
    /// parsed once for this snapshot.
    private let decodedSparklines = Mutex<[Int: [Double]]>([:])

    /// The points of the coin at `position`'s sparkline (nil when it has none), parsed once.
    func sparklinePrices(_ position: Int) -> [Double]? {
        guard let sparkline = coins[position].sparkline else { return nil }
        guard sparkline.isUndecoded else { return sparkline.prices }
        if let cached = decodedSparklines.withLock({ $0[position] }) { return cached }
        let prices = sparkline.prices
        decodedSparklines.withLock { $0[position] = prices }
        return prices
    }

    /// The JSON members of the coin at `position` (see `Coin.writeJSON`), cached.
    func encodedCoin(_ position: Int, sparkline: Bool) -> [UInt8] {
        let slot = position * 2 + (sparkline ? 1 : 0)
        if let cached = encoded.withLock({ $0[slot] }) { return cached }
        var w = JSONWriter(reserving: sparkline ? 4096 : 900)
        w.beginObject()
        coins[position].writeJSON(to: &w, sparkline: sparkline)
        w.endObject()
        let members = Array(w.bytes.dropFirst().dropLast())
        encoded.withLock { $0[slot] = members }
        return members
    }

    /// The `current_price` of the coin with `id` as an exact decimal; nil when unknown.
    func exactPrice(id: String) -> ExactDecimal? {
        guard let position = indexByID[id] else { return nil }
        return exactPrices.withLock { prices in
            if prices == nil { prices = coins.map { $0.currentPrice.flatMap(ExactDecimal.init) } }
            return prices?[position] ?? nil
        }
    }

    /// The same data, marked as left behind by a failed refresh.
    func markedFailed() -> MarketSnapshot {
        let copy = MarketSnapshot(coins: coins, marketData: marketData, asOf: asOf, refreshFailed: true)
        return copy
    }

    func isStale(now: Date, staleAfter: Double) -> Bool {
        refreshFailed || now.timeIntervalSince(asOf) > staleAfter
    }

    /// Coin positions in `sort` order (computed once per order, then reused).
    func order(_ sort: CoinSort) -> [Int] {
        if let cached = orders.withLock({ $0[sort] }) { return cached }
        let sorted = CoinSort.order(keys: coins.map(sort.listKey), ids: coins.map(\.id), ascending: sort.ascending)
        orders.withLock { $0[sort] = sorted }
        return sorted
    }

    /// Positions of the coins whose name, symbol or id contains `search` (compared in
    /// `SearchText.fold` form: NFKC, case-folded, diacritic-insensitive), in `sort` order.
    func matches(_ search: String, sort: CoinSort) -> [Int] {
        let ordered = order(sort)
        let needle = SearchText.fold(search)
        guard !needle.isEmpty else { return ordered }
        let texts = searchTexts()
        return ordered.filter { Self.contains(texts[$0], needle) }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        let count = needle.count
        guard count <= haystack.count else { return false }
        let first = needle[0]
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                var start = 0
                let last = h.count - count
                while start <= last {
                    if h[start] == first {
                        var matched = 1
                        while matched < count, h[start + matched] == n[matched] { matched += 1 }
                        if matched == count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
