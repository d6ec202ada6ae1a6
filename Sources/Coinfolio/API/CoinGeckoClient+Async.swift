/// The async counterparts of the client's endpoints (SPEC §21): the same names, answers and
/// errors, each run on a Coinfolio worker thread (`BlockingCall`) so that no cooperative thread
/// waits on the network. Cancelling the task stops the request in flight (and any retry's wait)
/// and throws `CancellationError`.
extension CoinGeckoClient {
    /// The async counterpart of `markets(_:)`.
    public func markets(_ request: MarketsRequest) async throws -> MarketsPage {
        try await BlockingCall.run { try self.markets(request) }
    }

    /// The async counterpart of `global()`.
    public func global() async throws -> MarketData {
        try await BlockingCall.run { try self.global() }
    }

    /// The async counterpart of `coinDetail(id:)`.
    public func coinDetail(id: String) async throws -> CoinDetail {
        try await BlockingCall.run { try self.coinDetail(id: id) }
    }

    /// The async counterpart of `marketChart(id:_:)`.
    public func marketChart(id: String, _ request: MarketChartRequest = MarketChartRequest()) async throws -> MarketChart {
        try await BlockingCall.run { try self.marketChart(id: id, request) }
    }

    /// The async counterpart of `marketChartRange(id:_:)`.
    public func marketChartRange(id: String, _ request: MarketChartRangeRequest) async throws -> MarketChart {
        try await BlockingCall.run { try self.marketChartRange(id: id, request) }
    }

    /// The async counterpart of `simplePrice(_:)`.
    public func simplePrice(_ request: SimplePriceRequest) async throws -> SimplePrices {
        try await BlockingCall.run { try self.simplePrice(request) }
    }
}
