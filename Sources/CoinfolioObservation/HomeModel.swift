import Coinfolio
import Observation

/// The home screen of a tracker app as an observable model (SPEC §21): what the original SwiftUI
/// app's HomeViewModel published — all coins, the portfolio coins, the statistics, the search
/// text, the sort option, the loading state — over a `PortfolioEngine`, for SwiftUI (or any
/// Observation) views. Every read and write goes through the engine's async API, so neither the
/// main thread nor a cooperative thread waits on the network or the database.
///
///     @State var home = HomeModel(engine: engine)
///     List(home.allCoins, id: \.id) { CoinRow(coin: $0) }
///         .searchable(text: $home.searchText)
///         .task { await home.reload() }
///
/// - `allCoins`: the snapshot's coins matching `searchText`, in `sortOption`'s order (`holdings`
///   lists by rank, as the engine's coin lists do).
/// - `portfolioCoins`: one entry per holding of the "main" portfolio (the ledger's, not the coin
///   list's: a held coin outside the top list is there, without a price), narrowed by
///   `searchText` to the coins the search matches (a held coin missing from the snapshot only
///   while the search is empty: there is no name to match), in `sortOption`'s portfolio order
///   (`holdings`: value, highest first).
/// - `statistics`: the engine's six (`PortfolioEngine.statistics()`): Market Cap, 24h Volume,
///   BTC Dominance, Portfolio Value with its 24 h change, Unrealized and Realized P&L; empty
///   before the first snapshot.
@MainActor
@Observable
public final class HomeModel {
    /// The engine the model reads and writes.
    @ObservationIgnored public let engine: PortfolioEngine

    /// The home list (see the type's documentation).
    public private(set) var allCoins: [Coin] = []
    /// The holdings joined with the snapshot (see the type's documentation).
    public private(set) var portfolioCoins: [PortfolioEntry] = []
    /// The home screen's statistics, in the engine's order and wording.
    public private(set) var statistics: [Statistic] = []
    /// True while `reload()` refreshes.
    public private(set) var isLoading = false
    /// Why the last `reload()` could not refresh (the lists then show the saved snapshot, marked
    /// stale), or why the last update could not read; nil after a successful one.
    public private(set) var lastError: CoinfolioError?

    /// Narrows both lists as the engine's search does (name, symbol, id; case, accents and
    /// Unicode forms folded). Setting it updates the lists (no request).
    public var searchText = "" {
        didSet { if searchText != oldValue { scheduleUpdate() } }
    }

    /// The order of both lists. Setting it updates the lists (no request).
    public var sortOption: CoinSort = .rank {
        didSet { if sortOption != oldValue { scheduleUpdate() } }
    }

    /// The update started by the last change of `searchText` or `sortOption`.
    @ObservationIgnored private(set) var pendingUpdate: Task<Void, Never>?
    /// Counts updates, so that an older one finishing late never overwrites a newer one's lists.
    @ObservationIgnored private var generation = 0
    /// The update whose lists are shown.
    @ObservationIgnored private var shownGeneration = 0

    /// A model over `engine`; the lists stay empty until `reload()` or `update()`. Makes no request.
    public init(engine: PortfolioEngine) {
        self.engine = engine
    }

    /// The original app's `reloadData()`: refreshes the snapshot (`PortfolioEngine.refresh()`,
    /// `isLoading` true meanwhile), then updates the lists and statistics. A failed refresh keeps
    /// the saved snapshot (the lists show it, marked stale) and sets `lastError`; a cancelled one
    /// changes nothing and leaves `lastError` as it was.
    public func reload() async {
        isLoading = true
        defer { isLoading = false }
        do {
            try await engine.refresh()
            lastError = nil
        } catch let error as CoinfolioError {
            lastError = error
        } catch {
            return  // cancelled: nothing changed
        }
        await update()
    }

    /// The original app's `updatePortfolio(coin:amount:)`: holds `amount` units of `coin` in the
    /// "main" portfolio (`PortfolioEngine.setHolding`: ≤ 0 removes the holding), then updates
    /// the portfolio list and statistics.
    /// - Throws: what `setHolding` throws (`.invalidArgument` for a non-finite amount or a
    ///   decrease that would leave a later sell short; `.store`); nothing is written then.
    public func updatePortfolio(coin: Coin, amount: Double) async throws {
        try await engine.setHolding(coinID: coin.id, amount: amount)
        await update()
    }

    /// Reads the lists and statistics again from the engine (no request): after another part of
    /// the app changed the ledger, or to show a saved snapshot at launch. `searchText` and
    /// `sortOption` call it on their own; awaiting it after setting them returns with lists that
    /// follow them. An update never replaces the lists of one that started after it.
    public func update() async {
        generation += 1
        let mine = generation
        let search = searchText
        let sort = sortOption
        do {
            let coins = try await engine.coins(CoinQuery(search: search, sort: sort))
            let held = try await engine.portfolio(PortfolioQuery(sort: sort))
            let statistics = try await engine.statistics()
            guard isCurrent(mine, search: search, sort: sort) else { return }
            allCoins = coins.coins
            portfolioCoins = Self.matching(held.entries, search: search, matched: coins.coins)
            self.statistics = statistics
        } catch let error as CoinfolioError {
            guard isCurrent(mine, search: search, sort: sort) else { return }
            if error.code == .noData {
                // No snapshot yet: no coins and no statistics, but the holdings are known.
                allCoins = []
                statistics = []
                portfolioCoins = (try? await engine.portfolio(PortfolioQuery(sort: sort)).entries) ?? []
            } else {
                lastError = error
            }
        } catch {
            return  // cancelled
        }
    }

    /// Keeps the lists and statistics current until the calling task is cancelled: each change
    /// the engine reports (`PortfolioEngine.changes`: its own refreshes and ledger writes, and
    /// those of another engine or process on the same database) updates them. For a view's
    /// `.task { await home.followChanges() }`.
    public func followChanges() async {
        for await _ in engine.changes {
            await update()
        }
    }

    /// `entries` narrowed to the coins the engine's search matched (all of them without a search).
    private static func matching(_ entries: [PortfolioEntry], search: String, matched: [Coin]) -> [PortfolioEntry] {
        guard !search.isEmpty else { return entries }
        let ids = Set(matched.map(\.id))
        return entries.filter { ids.contains($0.coinID) }
    }

    /// Whether update `number`, read for `search` and `sort`, may show its lists (and then
    /// counts them as shown): the search and sort are still the model's, and no update that
    /// started after it has shown its own.
    private func isCurrent(_ number: Int, search: String, sort: CoinSort) -> Bool {
        guard number > shownGeneration, search == searchText, sort == sortOption else { return false }
        shownGeneration = number
        return true
    }

    private func scheduleUpdate() {
        pendingUpdate = Task { await self.update() }
    }
}
