import Foundation
import Synchronization

/// The market as last downloaded or loaded, indexed for queries. Immutable: a refresh builds a
/// new one and swaps it in, so queries never wait for the network.
final class MarketSnapshot: Sendable {
    /// The coins. A snapshot restored from the database decodes each on first use, leaves
    /// `sparklineIn7d` nil here and reads each sparkline from the file when asked
    /// (`sparklinePrices(_:)`, `coin(at:sparkline:)`).
    let coins: SnapshotCoins
    let marketData: MarketData?
    /// The data's own time: the newest `last_updated` among the coins, or `/global`'s
    /// `updated_at` when newer; the fetch time when neither is known.
    let asOf: Date
    /// When the data was downloaded or loaded.
    let fetchedAt: Date
    /// The last refresh after this snapshot failed.
    let refreshFailed: Bool

    let indexByID: [String: Int]
    let storedSparklines: StoredSparklines?
    /// The saved snapshot these coins are, and which change of it (nil when none was saved: a
    /// private `:memory:` database): for a price update to change in place, and for the version
    /// check to see another engine's change (`PortfolioEngine.followSharedChanges`).
    let saved: SnapshotStore.Stamp?
    /// How many coins are the top list; those after them were added for coins owners hold, and
    /// only an owner who holds one sees it listed (`PortfolioEngine.isListed`). nil: all are.
    let listed: Int?
    /// The id of the saved snapshot these coins are.
    var savedID: Int? { saved?.id }
    /// The search over `name \0 symbol \0 id` of each coin in `SearchText.fold` form; made on
    /// the first search (opening an engine should not pay for it).
    private let searchIndex: Mutex<SearchIndex?>
    /// Coin positions by order, computed once per order.
    private let orders: Mutex<[CoinSort: [Int]]>
    /// Each coin's place in an order (the inverse of `orders`), computed on the first search in it.
    private let ranks: Mutex<[CoinSort: [Int32]]>
    /// Each coin's JSON members (without braces), with and without sparkline, written once on
    /// first use: the snapshot never changes, so neither does its JSON.
    private let encoded: Mutex<[[UInt8]?]>
    /// Each coin's `current_price` as a decimal (the double's shortest text, every digit kept:
    /// 2.6e-13 stays 2.6e-13), converted once per coin on first use for the ledger's P&L (only
    /// the held coins are ever asked for).
    private let exactPrices: Mutex<[Int: PreciseDecimal?]>

    /// Sparklines left in the database: the saved snapshot's id and which coins have one.
    struct StoredSparklines: Sendable {
        let store: PortfolioStore
        let snapshotID: Int
        let hasSparkline: [Bool]
    }

    init(
        coins: SnapshotCoins, marketData: MarketData?, asOf: Date, fetchedAt: Date, refreshFailed: Bool = false,
        storedSparklines: StoredSparklines? = nil, saved: SnapshotStore.Stamp? = nil, listed: Int? = nil,
        positionByID: [String: Int]? = nil
    ) {
        self.coins = coins
        self.marketData = marketData
        self.asOf = asOf
        self.fetchedAt = fetchedAt
        self.refreshFailed = refreshFailed
        self.storedSparklines = storedSparklines
        self.saved = saved
        self.listed = listed.flatMap { $0 < coins.count ? $0 : nil }
        if let positionByID, positionByID.count == coins.count {
            // The merge's index of these coins (`MarketRows`): 100,000 ids are not hashed twice.
            indexByID = positionByID
        } else {
            var index: [String: Int] = [:]
            index.reserveCapacity(coins.count)
            // By position, not `enumerated()`: that copies each whole `Coin` to read its id.
            for position in coins.indices { index[coins.id(at: position)] = position }
            indexByID = index
        }
        searchIndex = Mutex(nil)
        orders = Mutex([:])
        ranks = Mutex([:])
        encoded = Mutex(Array(repeating: nil, count: coins.count * 2))
        exactPrices = Mutex([:])
        decodedSparklines = Mutex([:])
    }

    /// `previous` after a price update (`PortfolioEngine.refreshPrices`): `coins` are its coins
    /// with those at the positions of `changed` replaced (same ids, names, ranks and
    /// sparklines). What does not depend on prices is kept rather than made again: the index,
    /// the search texts, the rank orders, sparklines read, and every other coin's JSON and
    /// exact price.
    init(
        updating previous: MarketSnapshot, coins: SnapshotCoins, changed: some Collection<Int>, asOf: Date, fetchedAt: Date,
        saved: SnapshotStore.Stamp?
    ) {
        self.coins = coins
        marketData = previous.marketData
        self.asOf = asOf
        self.fetchedAt = fetchedAt
        refreshFailed = false
        storedSparklines = previous.storedSparklines
        self.saved = saved
        listed = previous.listed
        indexByID = previous.indexByID
        searchIndex = Mutex(previous.searchIndex.withLock { $0 })
        orders = Mutex(previous.orders.withLock { $0.filter { !$0.key.dependsOnPrice } })
        ranks = Mutex(previous.ranks.withLock { $0.filter { !$0.key.dependsOnPrice } })
        var json = previous.encoded.withLock { $0 }
        var prices = previous.exactPrices.withLock { $0 }
        for position in changed {
            json[position * 2] = nil
            json[position * 2 + 1] = nil
            prices[position] = nil
        }
        encoded = Mutex(json)
        exactPrices = Mutex(prices)
        decodedSparklines = Mutex(previous.decodedSparklines.withLock { $0 })
    }

    /// The data's own time (SPEC §10 "Offline truth"): the newest `last_updated` among `coins`,
    /// or `/global`'s `updated_at` when newer; nil when neither is known.
    static func dataTime(coins: [Coin], marketData: MarketData?) -> Date? {
        var newest: Double?
        // Each coin's date read in place: `for coin in coins` copied every whole `Coin` (a
        // retain and release of each of its strings), a twentieth of loading 100,000 coins; a
        // decoded coin's date is read as its held bytes, with no `String` made.
        coins.withUnsafeBufferPointer { coins in
            for position in coins.indices {
                let seconds = coins[position].texts.withUTF8(.lastUpdated) { $0.flatMap(ISOTime.seconds(utf8:)) }
                guard let time = seconds else { continue }
                if newest.map({ time > $0 }) ?? true { newest = time }
            }
        }
        if let updated = marketData?.updatedAt.map(Double.init), newest.map({ updated > $0 }) ?? true { newest = updated }
        return newest.map { Date(timeIntervalSince1970: $0) }
    }

    /// The search over every coin's folded text, made on the first search (not at every load).
    private func textSearch() -> SearchIndex {
        if let index = searchIndex.withLock({ $0 }) { return index }
        let index = SearchIndex(texts: coins.map { SearchText.fold("\($0.name)\u{0}\($0.symbol)\u{0}\($0.id)") })
        searchIndex.withLock { $0 = index }
        return index
    }

    /// Decoded sparklines of the coins asked for (`portfolio_history`, answers with sparklines),
    /// by position: a coin's sparkline stays undecoded JSON in the snapshot — or, for a snapshot
    /// restored from the database, in the file — until someone needs its points, then is parsed
    /// (or read) once for this snapshot.
    private let decodedSparklines: Mutex<[Int: [Double]]>

    /// The points of the coin at `position`'s sparkline (nil when it has none, or when the saved
    /// snapshot it would be read from was replaced since), parsed or read once.
    func sparklinePrices(_ position: Int) -> [Double]? {
        let kept = coins.read(position) { $0.sparkline }
        if let sparkline = kept, !sparkline.isUndecoded { return sparkline.prices }
        if let cached = decodedSparklines.withLock({ $0[position] }) { return cached }
        let prices: [Double]?
        if let sparkline = kept {
            prices = sparkline.prices
        } else if let stored = storedSparklines, stored.hasSparkline[position] {
            prices = try? stored.store.sparkline(snapshotID: stored.snapshotID, position: position)
        } else {
            return nil
        }
        if let prices { decodedSparklines.withLock { $0[position] = prices } }
        return prices
    }

    /// The coin at `position`; with `sparkline`, one left in the database is read into it.
    func coin(at position: Int, sparkline: Bool) -> Coin {
        var coin = coins[position]
        if sparkline, coin.sparkline == nil, storedSparklines != nil { coin.sparklineIn7d = sparklinePrices(position) }
        return coin
    }

    /// The JSON members of the coin at `position` (see `Coin.writeJSON`), cached.
    func encodedCoin(_ position: Int, sparkline: Bool) -> [UInt8] {
        let slot = position * 2 + (sparkline ? 1 : 0)
        if let cached = encoded.withLock({ $0[slot] }) { return cached }
        var w = JSONWriter(reserving: sparkline ? 4096 : 900)
        w.beginObject()
        coin(at: position, sparkline: sparkline).writeJSON(to: &w, sparkline: sparkline)
        w.endObject()
        let members = Array(w.bytes.dropFirst().dropLast())
        encoded.withLock { $0[slot] = members }
        return members
    }

    /// The `current_price` of the coin at `position` as a decimal; nil when unknown.
    func exactPrice(at position: Int) -> PreciseDecimal? {
        if let cached = exactPrices.withLock({ $0[position] }) { return cached }
        let price = coins.currentPrice(at: position).flatMap { $0.isFinite ? PreciseDecimal($0.description) : nil }
        exactPrices.withLock { $0[position] = price }
        return price
    }

    /// The same data, marked as left behind by a failed refresh (`saved`: the stamp the mark
    /// gave the saved snapshot, when it was saved).
    func markedFailed(saved: SnapshotStore.Stamp?) -> MarketSnapshot {
        MarketSnapshot(
            coins: coins, marketData: marketData, asOf: asOf, fetchedAt: fetchedAt, refreshFailed: true,
            storedSparklines: storedSparklines, saved: saved ?? self.saved, listed: listed)
    }

    /// Judged from the data's own time, not the fetch time: a loaded old body is stale at once.
    func isStale(now: Date, staleAfter: Double) -> Bool {
        refreshFailed || now.timeIntervalSince(asOf) > staleAfter
    }

    /// Coin positions in `sort` order (computed once per order, then reused).
    func order(_ sort: CoinSort) -> [Int] {
        if let cached = orders.withLock({ $0[sort] }) { return cached }
        let sorted = CoinSort.order(
            keys: coins.indices.map { coins.listKey(sort, at: $0) }, ids: coins.indices.map { coins.id(at: $0) },
            ascending: sort.ascending)
        orders.withLock { $0[sort] = sorted }
        return sorted
    }

    /// Each coin's place in `sort` order (`rank[order(sort)[i]] == i`), computed once per order.
    private func rank(_ sort: CoinSort, order: [Int]) -> [Int32] {
        if let cached = ranks.withLock({ $0[sort] }) { return cached }
        var rank = [Int32](repeating: 0, count: order.count)
        for (place, position) in order.enumerated() { rank[position] = Int32(truncatingIfNeeded: place) }
        ranks.withLock { $0[sort] = rank }
        return rank
    }

    /// Positions of the coins whose name, symbol or id contains `search` (compared in
    /// `SearchText.fold` form: NFKC, case-folded, diacritic-insensitive), in `sort` order.
    func matches(_ search: String, sort: CoinSort) -> [Int] {
        let ordered = order(sort)
        let needle = SearchText.fold(search)
        guard !needle.isEmpty else { return ordered }
        return textSearch().matches(needle, order: ordered, rank: rank(sort, order: ordered))
    }
}
