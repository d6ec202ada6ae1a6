import Foundation

/// The async counterparts of the engine's market calls (SPEC §21): the same names, answers and
/// errors as the blocking calls, for async code (where Swift picks them and asks for `await`).
/// Each runs its blocking work on a Coinfolio worker thread (`BlockingCall`), never on a
/// cooperative thread, and honours Task cancellation: a call whose task is cancelled before its
/// work begins throws `CancellationError` having done nothing; a refresh, price update, detail or
/// chart cancelled while its requests run stops them and throws `CancellationError`, having
/// written nothing (the snapshot, in memory and in the database, stays as it was, not marked
/// stale). A query cancelled once it runs finishes: it takes microseconds.
extension PortfolioEngine {
    /// The async counterpart of `refresh()`: the same requests, answer and errors; cancelling
    /// the task stops the request in flight and throws `CancellationError` (nothing saved).
    @discardableResult
    public func refresh() async throws -> RefreshSummary {
        try await BlockingCall.run { try self.refresh() }
    }

    /// The async counterpart of `refreshPrices()`; cancelling the task stops the request and
    /// throws `CancellationError` (the snapshot unchanged).
    @discardableResult
    public func refreshPrices() async throws -> RefreshSummary {
        try await BlockingCall.run { try self.refreshPrices() }
    }

    /// The async counterpart of `load(marketsBody:globalBody:)` (no request; the save runs on a
    /// worker thread).
    @discardableResult
    public func load(marketsBody: Data, globalBody: Data?) async throws -> RefreshSummary {
        try await BlockingCall.run { try self.load(marketsBody: marketsBody, globalBody: globalBody) }
    }

    /// The async counterpart of `coins(_:)` (the home list; no request).
    public func coins(_ query: CoinQuery = CoinQuery()) async throws -> CoinListing {
        try await BlockingCall.run { try self.coins(query) }
    }

    /// The async counterpart of `portfolio(_:)` (the holdings joined with the snapshot; no request).
    public func portfolio(_ query: PortfolioQuery = PortfolioQuery()) async throws -> Portfolio {
        try await BlockingCall.run { try self.portfolio(query) }
    }

    /// The async counterpart of `statistics()` (no request).
    public func statistics() async throws -> [Statistic] {
        try await BlockingCall.run { try self.statistics() }
    }

    /// The async counterpart of `portfolioChange()` (no request).
    public func portfolioChange() async throws -> PortfolioChange {
        try await BlockingCall.run { try self.portfolioChange() }
    }

    /// The async counterpart of `coinDetail(id:)`; cancelling the task stops its request and
    /// throws `CancellationError` (nothing saved, no stale answer).
    public func coinDetail(id: String) async throws -> CoinDetailScreen {
        try await BlockingCall.run { try self.coinDetail(id: id) }
    }

    /// The async counterpart of `savedCoinDetail(id:)` (no request).
    public func savedCoinDetail(id: String) async throws -> CoinDetailScreen? {
        try await BlockingCall.run { try self.savedCoinDetail(id: id) }
    }

    /// The async counterpart of `coinStatistics(id:)` (no request).
    public func coinStatistics(id: String) async throws -> CoinStatistics {
        try await BlockingCall.run { try self.coinStatistics(id: id) }
    }

    /// The async counterpart of `chart(coinID:_:)`; cancelling the task stops its request and
    /// throws `CancellationError` (nothing cached).
    public func chart(coinID: String, _ options: ChartOptions = ChartOptions()) async throws -> PriceChart {
        try await BlockingCall.run { try self.chart(coinID: coinID, options) }
    }

    /// The async counterpart of `portfolioHistory(_:)` (no request).
    public func portfolioHistory(_ options: PortfolioHistoryOptions = PortfolioHistoryOptions()) async throws -> PortfolioHistory {
        try await BlockingCall.run { try self.portfolioHistory(options) }
    }

    /// The async counterpart of `coinExists(id:)`; cancelling the task stops its request and
    /// throws `CancellationError`.
    public func coinExists(id: String) async throws -> Bool {
        try await BlockingCall.run { try self.coinExists(id: id) }
    }
}
