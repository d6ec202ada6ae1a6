/// The async counterparts of the engine's returns and taxes (SPEC §19), SPEC §21: the same names,
/// answers and errors as the blocking calls, run on a Coinfolio worker thread (`BlockingCall`), as
/// both read the whole ledger and the stored price points from the database (neither sends a
/// request). A call whose task is cancelled before its work begins throws `CancellationError`
/// having read nothing; once running, `performance` stops between coins and `realized` between
/// portfolios and throws it too (neither writes anything).
extension PortfolioEngine {
    /// The async counterpart of `performance(_:)`; cancelling the task stops the report before
    /// its next coin's price points are read and throws `CancellationError`.
    public func performance(_ options: PerformanceOptions = PerformanceOptions()) async throws -> PerformanceReport {
        try await BlockingCall.run { try self.performance(options) }
    }

    /// The async counterpart of `realized(_:)`; cancelling the task stops the report before its
    /// next portfolio's ledger is read and throws `CancellationError`.
    public func realized(_ options: RealizedOptions = RealizedOptions()) async throws -> RealizedReport {
        try await BlockingCall.run { try self.realized(options) }
    }
}
