import Foundation
import Synchronization

/// The view-model logic of a crypto tracker: the home list, the portfolio, the statistics and the
/// lazily loaded coin detail, over a `PortfolioStore`, a `CoinGeckoClient` and a market snapshot
/// saved in the store's file.
///
/// Queries answer from the snapshot in memory and never touch the network; `refresh()` and
/// `coinDetail(id:)` do. A snapshot saved by an earlier engine on the same file answers at once,
/// offline, with `asOf` (the data's own time), `fetchedAt` and `isStale` telling its age. The file
/// keeps one snapshot per `vs_currency`: an engine opened with another currency keeps the others.
/// Any thread may call any method.
///
///     let engine = try PortfolioEngine(configuration: EngineConfiguration(database: "portfolio.sqlite"))
///     try engine.setHolding(coinID: "bitcoin", amount: 0.5)
///     try engine.refresh()
///     try engine.statistics()   // Market Cap, 24h Volume, BTC Dominance, Portfolio Value
public final class PortfolioEngine: Sendable {
    /// The configuration the engine was opened with.
    public let configuration: EngineConfiguration
    /// The holdings store (the engine's database file).
    public let store: PortfolioStore
    /// The CoinGecko client.
    public let client: CoinGeckoClient

    /// The current snapshot; swapped whole, so queries never wait for a refresh.
    let snapshot: Mutex<MarketSnapshot?>
    /// One refresh at a time; queries do not wait for it.
    /// One refresh (or price update) at a time; queries do not wait for it.
    let refreshLock = Mutex(())
    let details: DetailLoader
    /// Market charts, cached per (id, days, interval); see `chart(coinID:_:)`.
    let charts: ChartLoader
    /// Where long work reports its progress (see `setProgressHandler(_:)`).
    let progress = ProgressReporter()
    /// One `fill_prices` at a time (see `fillPrices(_:)`).
    let fillGate = FillGate()
    /// When the version check last read the database (`followSharedChanges`).
    let versionCheck = Mutex<ContinuousClock.Instant?>(nil)
    /// The subscribers of `changes` (SPEC §21).
    let changeFeed = ChangeFeed()
    /// Holdings, cost-basis figures and snapshot positions kept per ledger change (`LedgerDerivations`).
    let derivations = LedgerDerivations()

    /// Opens the database (creating it), restores the saved snapshot of the configured
    /// vs_currency from its compact stored form (no JSON parse; sparklines stay in the file until
    /// a query shows them), and prepares the client. Makes no request.
    /// - Throws: `.invalidArgument` for a bad configuration, `.store` when the database fails.
    public init(configuration: EngineConfiguration = EngineConfiguration()) throws {
        self.configuration = configuration
        store = try PortfolioStore(
            path: configuration.database, owner: configuration.owner, databaseTimeout: configuration.databaseTimeout,
            readDatabase: configuration.readDatabase)
        client = CoinGeckoClient(configuration: configuration.api)
        details = DetailLoader(ttl: configuration.detailTTL, store: store)
        charts = ChartLoader(ttl: configuration.chartTTL)
        // A saved snapshot that no longer decodes is dropped, not fatal: the next refresh or
        // load replaces it.
        snapshot = Mutex(nil)
        snapshot.withLock { $0 = try? restoreSnapshot() }
        versionCheck.withLock { $0 = .now }
    }

    /// Closes the database. Later calls throw `.store`.
    public func close() { store.close() }

    /// Sets the function that long work calls with its progress; nil turns reporting off.
    ///
    /// `refresh()` reports `.markets` (pages: `done` 0 when it starts, then after each page),
    /// `.global` (0 then 1 of 1) and, when held coins were missing from the pages, `.ids` (coins);
    /// import and chart downloads report `.import` and `.chart`. The handler runs on the thread
    /// that called the engine, before the call returns. It may call queries; a `refresh()`,
    /// `load(…)` or `refreshPrices()` it starts during a refresh, or a `chart` of the chart being
    /// downloaded, would wait for the work that is calling it, and throws `.invalidArgument`
    /// (`details.reason` "reentrant") instead.
    /// - Parameter handler: called with each report, or nil.
    public func setProgressHandler(_ handler: (@Sendable (WorkProgress) -> Void)?) {
        progress.set(handler)
    }

    /// The snapshot queries answer from: the one this engine holds, or the one another engine
    /// saved since (the version check, at most once a second: `followSharedChanges`).
    func currentSnapshot() -> MarketSnapshot? {
        followSharedChanges()
        return snapshot.withLock { $0 }
    }

    func requireSnapshot() throws -> MarketSnapshot {
        guard let snapshot = currentSnapshot() else { throw noDataError() }
        return snapshot
    }

    /// `.noData` naming the engine's currency (and the ones that do have a snapshot).
    func noDataError() -> CoinfolioError {
        let vs = configuration.vsCurrency.code
        let others = ((try? store.snapshotCurrencies()) ?? []).filter { $0 != vs }
        var message = "no \(vs) market data yet: refresh, or load saved CoinGecko bodies, with vs_currency \(vs)"
        if !others.isEmpty { message += " (saved: \(others.joined(separator: ", ")))" }
        return CoinfolioError(.noData, message, details: [.vsCurrency: .string(vs)])
    }

    // MARK: - Queries

    /// The home list: search, sort and page the snapshot. Never touches the network.
    /// - Parameter query: search text, order, page (`limit`, `offset`) and whether coins carry
    ///   their sparkline.
    /// - Returns: the page of coins (prices in vs_currency), how many matched in all, and the
    ///   data's own time, fetch time and staleness; `json` gives
    ///   `{"coins","total","as_of","fetched_at","stale"}`.
    /// - Throws: `.noData` without a snapshot in the engine's vs_currency.
    public func coins(_ query: CoinQuery = CoinQuery()) throws -> CoinListing {
        let (snapshot, page, total, isStale) = try listingPage(query)
        var listing = CoinListing(
            coins: page.map { snapshot.coin(at: $0, sparkline: query.sparkline) }, total: total, asOf: snapshot.asOf,
            isStale: isStale, includesSparkline: query.sparkline)
        listing.fetchedAt = snapshot.fetchedAt
        return listing
    }

    /// The positions of the page `query` asks for, how many matched, and the staleness.
    func listingPage(_ query: CoinQuery) throws -> (snapshot: MarketSnapshot, page: ArraySlice<Int>, total: Int, isStale: Bool) {
        let snapshot = try requireSnapshot()
        var matches = snapshot.matches(query.search, sort: query.sort)
        if snapshot.listed != nil {
            let held = try heldIDsForListing(snapshot)
            matches = matches.filter { isListed($0, in: snapshot, held: held) }
        }
        let start = min(query.offset, matches.count)
        let end = query.limit.map { start + min($0, matches.count - start) } ?? matches.count
        return (
            snapshot, matches[start..<end], matches.count, snapshot.isStale(now: Date(), staleAfter: configuration.staleAfter)
        )
    }

    /// Every held coin joined with the unfiltered snapshot (a search never changes it).
    /// Works without a snapshot: every coin then has no price. Never touches the network.
    /// - Parameter query: the order (`holdings`: value, highest first) and sparkline choice.
    /// - Returns: one entry per holding (units, value in vs_currency or nil without a price), the
    ///   total of the priced ones (nil when holdings exist and none is priced — unknown, never
    ///   0), how many holdings the total leaves out (`unpricedHoldings`), the data's own time,
    ///   fetch time and staleness; `json` gives
    ///   `{"coins","total_value","unpriced_holdings","as_of","fetched_at","stale"}`.
    /// - Throws: `.store` when the holdings cannot be read.
    public func portfolio(_ query: PortfolioQuery = PortfolioQuery()) throws -> Portfolio {
        let (snapshot, held, total) = try sortedHoldings(query)
        var portfolio = Portfolio(
            entries: held.map { entry in
                PortfolioEntry(
                    coinID: entry.coinID, coin: entry.position.flatMap { snapshot?.coin(at: $0, sparkline: query.sparkline) },
                    amount: entry.amount, value: entry.value, manualPrice: entry.manualPrice)
            },
            totalValue: total, asOf: snapshot?.asOf,
            isStale: snapshot?.isStale(now: Date(), staleAfter: configuration.staleAfter) ?? true,
            includesSparkline: query.sparkline)
        portfolio.unpricedHoldings = held.reduce(0) { $0 + ($1.value == nil ? 1 : 0) }
        portfolio.fetchedAt = snapshot?.fetchedAt
        return portfolio
    }

    /// The holdings joined with the current snapshot, in `query`'s order, and their total value.
    func sortedHoldings(_ query: PortfolioQuery) throws -> (snapshot: MarketSnapshot?, held: [HeldCoin], total: Double?) {
        let (snapshot, view) = try ownerView(portfolio: query.portfolio)
        let (held, total) = joinedHoldings(snapshot, view, portfolio: query.portfolio)
        // Sort on small keys, then move each entry once.
        let keys = held.map { entry -> Double? in
            switch query.sort {
            case .holdings, .holdingsReversed: return entry.value
            default:
                guard let snapshot, let position = entry.position else { return nil }
                return snapshot.coins.listKey(query.sort, at: position)
            }
        }
        let order = CoinSort.order(keys: keys, ids: held.map(\.coinID), ascending: query.sort.portfolioAscending)
        return (snapshot, order.map { held[$0] }, total)
    }

    /// Every holding joined with `snapshot` (in coin id order), and Σ value of the priced ones:
    /// nil when there are holdings and none is priced (unknown, never 0).
    /// A value is amount × `current_price`; nil when the coin has no row or no price, or when the
    /// product is not finite (it then counts as unpriced rather than making the total infinite).
    /// A coin the snapshot does not have is valued with the owner's manual current price in the
    /// engine's vs_currency when there is one (SPEC §17; read only when such a coin is held).
    func joinedHoldings(_ snapshot: MarketSnapshot?, portfolio: String = Transaction.defaultPortfolio) throws -> (
        held: [HeldCoin], total: Double?
    ) {
        let vs = configuration.vsCurrency.code
        let view = try store.ownerView(portfolio: portfolio, manualPricesIn: vs, marketVersionOf: nil)
        return joinedHoldings(snapshot, view, portfolio: portfolio)
    }

    /// `joinedHoldings(_:portfolio:)` of `portfolio`, whose view `view` is (`ownerView`). The
    /// held coins and their positions in `snapshot` are kept per ledger change and snapshot
    /// (`LedgerDerivations`).
    func joinedHoldings(_ snapshot: MarketSnapshot?, _ view: OwnerView, portfolio: String) -> (held: [HeldCoin], total: Double?) {
        let holdings = derivations.holdings(view, portfolio: portfolio)
        let positions = snapshot.map { derivations.positions(view, portfolio: portfolio, in: $0) }
        var held: [HeldCoin] = []
        held.reserveCapacity(holdings.count)
        var absent: [Int] = []
        for (index, amount) in holdings {
            var position: Int?
            var value: Double?
            if let snapshot, let found = positions?[index] {
                position = found
                if let price = snapshot.coins.currentPrice(at: found) { value = Self.value(amount, price) }
            } else {
                absent.append(held.count)
            }
            held.append(HeldCoin(coinID: view.ledger[index].coinID, position: position, amount: amount, value: value))
        }
        if !absent.isEmpty {
            let manual = view.manualPrices[configuration.vsCurrency.code] ?? [:]
            for index in absent {
                guard let price = manual[held[index].coinID] else { continue }
                held[index].manualPrice = price
                held[index].value = Self.value(held[index].amount, price.double)
            }
        }
        let priced = held.filter { $0.value != nil }
        return (held, held.isEmpty || !priced.isEmpty ? priced.reduce(0) { $0 + ($1.value ?? 0) } : nil)
    }

    /// amount × price; nil when not finite (the coin then counts as unpriced).
    private static func value(_ amount: Double, _ price: Double) -> Double? {
        let product = amount * price
        return product.isFinite ? product : nil
    }

    /// Sets a holding (rules of `PortfolioStore.setHolding`): records a transfer_in or
    /// transfer_out of the difference in the portfolio's ledger; amount in units of the coin,
    /// ≤ 0 empties the holding.
    /// - Throws: `.invalidArgument` for a bad id, a non-finite amount or a decrease that would
    ///   leave a later sell short (nothing written); `.notFound` for an unknown portfolio other
    ///   than "main"; `.store` with SQLite's message.
    public func setHolding(coinID: String, amount: Double, portfolio: String = Transaction.defaultPortfolio) throws {
        try store.setHolding(portfolio: portfolio, coinID: coinID, amount: amount)
        ledgerChanged(portfolio)
    }

    /// Sets several holdings in one durable transaction, all or nothing (rules of
    /// `PortfolioStore.setHoldings`): amounts in units of each coin; > 0 inserts or updates,
    /// ≤ 0 deletes.
    /// - Throws: `.invalidArgument` for the first bad id, non-finite amount or repeated id, with
    ///   `details["index"]`; `.store` with SQLite's message. Nothing is written on any error.
    public func setHoldings(_ holdings: [Holding]) throws {
        try store.setHoldings(holdings)
        ledgerChanged(Transaction.defaultPortfolio)
    }

    /// Whether `id` is a CoinGecko coin id. True at once when the snapshot lists it; otherwise
    /// asks CoinGecko: one `GET /coins/markets?ids=<id>` request (vs_currency of the
    /// configuration, no sparkline), true when the answer has a row with exactly this id.
    /// - Throws: `.invalidArgument` for an id breaking the `CoinID` rule (no request made);
    ///   otherwise the client's `CoinfolioError` (network, HTTP, rate limit, key, decode).
    public func coinExists(id: String) throws -> Bool {
        if snapshot.withLock({ $0?.indexByID[id] }) != nil { return true }
        let found = try client.markets(MarketsRequest(vsCurrency: configuration.vsCurrency, ids: [id], sparkline: false))
        return found.coins.contains { $0.id == id }
    }

    /// Counters since the engine was opened.
    public func metrics() -> EngineMetrics {
        EngineMetrics(
            httpRequests: client.requestCounts, detailCacheHits: details.cacheHits, chartCacheHits: charts.cacheHits,
            suppressedRequests: client.suppressedRequests)
    }
}

extension PortfolioEngine {
    /// The current snapshot's data time (`as_of`); nil when there is none yet in the engine's
    /// vs_currency.
    public var currentSnapshotAsOf: Date? { currentSnapshot()?.asOf }
}
