import Foundation

/// A snapshot's coins by position: values already decoded (a refresh or load), or a saved
/// snapshot's compact records decoded on first use (`CompactCoins`). The id, rank and price of
/// a position are read without decoding the coin.
struct SnapshotCoins: RandomAccessCollection, Sendable {
    // Two stored properties rather than an enum: reading a price through an enum's payload
    // retained and released the whole array on every call (a fifth of a portfolio answer).
    /// The coins, when they are values (empty for a compact snapshot).
    private let values: [Coin]
    /// The saved records, for a compact snapshot.
    private let compact: CompactCoins?

    init(_ coins: [Coin]) {
        values = coins
        compact = nil
    }

    init(_ compact: CompactCoins) {
        values = []
        self.compact = compact
    }

    /// These coins with the ones at `changed`'s positions replaced (a price update): decoded
    /// coins are copied, a saved snapshot's other records copied as bytes; nothing else is
    /// decoded or encoded.
    func replacing(_ changed: [Int: Coin]) -> SnapshotCoins {
        if let compact { return SnapshotCoins(compact.replacing(changed)) }
        var coins = values
        for (position, coin) in changed where coins.indices.contains(position) { coins[position] = coin }
        return SnapshotCoins(coins)
    }

    /// The saved coins' blob (`SnapshotCodec`'s form) when these are a saved snapshot's.
    var savedBlob: Data? { compact?.blob }

    var startIndex: Int { 0 }

    var endIndex: Int { compact?.count ?? values.count }

    /// The coin at `position` (a copy; `read(_:_:)` reads fields without one).
    subscript(position: Int) -> Coin {
        if let compact { return compact.coin(at: position) }
        return values[position]
    }

    /// `body` of the coin at `position`, read in place for decoded coins (no copy of the whole
    /// `Coin`, whose dozen references would each be retained and released).
    func read<T>(_ position: Int, _ body: (Coin) -> T) -> T {
        if let compact { return body(compact.coin(at: position)) }
        return values.withUnsafeBufferPointer { body($0[position]) }
    }

    /// The price and 24 h changes of the coin at `position` (`PortfolioChange`'s inputs), read
    /// in place or from one decoded record.
    func priceAndChange(at position: Int) -> (price: Double?, change: Double?, percent: Double?) {
        if let compact {
            let coin = compact.coin(at: position)
            return (coin.currentPrice, coin.priceChange24h, coin.priceChangePercentage24h)
        }
        return (values[position].currentPrice, values[position].priceChange24h, values[position].priceChangePercentage24h)
    }

    /// `ISOTime.seconds` of the coin's `last_updated`, read in place (a decoded coin's held
    /// bytes: no `String`, no copy of the `Coin`).
    func lastUpdatedSeconds(at position: Int) -> Double? {
        if let compact { return compact.coin(at: position).lastUpdated.flatMap(ISOTime.seconds) }
        return values.withUnsafeBufferPointer { coins in
            coins[position].texts.withUTF8(.lastUpdated) { $0.flatMap(ISOTime.seconds(utf8:)) }
        }
    }

    func id(at position: Int) -> String {
        if let compact { return compact.skimmed.ids[position] }
        return values[position].id
    }

    func currentPrice(at position: Int) -> Double? {
        if let compact { return compact.skimmed.prices[position] }
        return values[position].currentPrice
    }

    func marketCapRank(at position: Int) -> Int? {
        if let compact { return compact.skimmed.ranks[position] }
        return values[position].marketCapRank
    }

    /// `sort.listKey` of the coin at `position`, without decoding it.
    func listKey(_ sort: CoinSort, at position: Int) -> Double? {
        switch sort {
        case .rank, .rankReversed, .holdings, .holdingsReversed: return marketCapRank(at: position).map(Double.init)
        case .price, .priceReversed: return currentPrice(at: position)
        }
    }
}
