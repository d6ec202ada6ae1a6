import Foundation

/// The async counterparts of the engine's ledger calls (SPEC §21): the same names, answers and
/// errors as the blocking calls, run on a Coinfolio worker thread (`BlockingCall`) so that a
/// write waiting for the database (up to `database_timeout`) never holds a cooperative thread.
/// A call whose task is cancelled before its work begins throws `CancellationError` having
/// written nothing; an import cancelled while it runs rolls back whole and throws it too. Other
/// writes are one short transaction each: once begun they finish.
extension PortfolioEngine {
    /// The async counterpart of `setHolding(coinID:amount:portfolio:)`.
    public func setHolding(coinID: String, amount: Double, portfolio: String = Transaction.defaultPortfolio) async throws {
        try await BlockingCall.run { try self.setHolding(coinID: coinID, amount: amount, portfolio: portfolio) }
    }

    /// The async counterpart of `setHoldings(_:)` (all or nothing).
    public func setHoldings(_ holdings: [Holding]) async throws {
        try await BlockingCall.run { try self.setHoldings(holdings) }
    }

    /// The async counterpart of `addTransaction(_:)`.
    @discardableResult
    public func addTransaction(_ transaction: Transaction) async throws -> Transaction {
        try await BlockingCall.run { try self.addTransaction(transaction) }
    }

    /// The async counterpart of `addTransaction(json:)`.
    @discardableResult
    public func addTransaction(json: String) async throws -> Transaction {
        try await BlockingCall.run { try self.addTransaction(json: json) }
    }

    /// The async counterpart of `deleteTransaction(id:)`.
    public func deleteTransaction(id: String) async throws {
        try await BlockingCall.run { try self.deleteTransaction(id: id) }
    }

    /// The async counterpart of `transactions(_:)`.
    public func transactions(_ query: TransactionQuery = TransactionQuery()) async throws -> TransactionPage {
        try await BlockingCall.run { try self.transactions(query) }
    }

    /// The async counterpart of `pnl(_:)`.
    public func pnl(_ options: PnLOptions = PnLOptions()) async throws -> PnLReport {
        try await BlockingCall.run { try self.pnl(options) }
    }

    /// The async counterpart of `portfolios()`.
    public func portfolios() async throws -> [PortfolioInfo] {
        try await BlockingCall.run { try self.portfolios() }
    }

    /// The async counterpart of `createPortfolio(name:vsCurrency:)`.
    public func createPortfolio(name: String, vsCurrency: String? = nil) async throws {
        try await BlockingCall.run { try self.createPortfolio(name: name, vsCurrency: vsCurrency) }
    }

    /// The async counterpart of `createPortfolio(json:)`.
    public func createPortfolio(json: String) async throws {
        try await BlockingCall.run { try self.createPortfolio(json: json) }
    }

    /// The async counterpart of `renamePortfolio(_:to:)`.
    public func renamePortfolio(_ name: String, to newName: String) async throws {
        try await BlockingCall.run { try self.renamePortfolio(name, to: newName) }
    }

    /// The async counterpart of `deletePortfolio(_:force:)`.
    public func deletePortfolio(_ name: String, force: Bool = false) async throws {
        try await BlockingCall.run { try self.deletePortfolio(name, force: force) }
    }

    /// The async counterpart of `importCSV(_:)`, over the file's bytes (UTF-8); cancelling the
    /// task stops the import within 1,000 rows and throws `CancellationError` (nothing written).
    public func importCSV(_ bytes: Data) async throws -> ImportSummary {
        try await BlockingCall.run { try bytes.withUnsafeBytes { try self.importCSV($0) } }
    }

    /// The async counterpart of `importCSV(contentsOf:)` (streamed 64 KiB at a time);
    /// cancelling the task stops the import within 1,000 rows and throws `CancellationError`
    /// (nothing written).
    public func importCSV(contentsOf url: URL) async throws -> ImportSummary {
        try await BlockingCall.run { try self.importCSV(contentsOf: url) }
    }

    /// The async counterpart of `exportCSV(portfolio:)`.
    public func exportCSV(portfolio: String? = Transaction.defaultPortfolio) async throws -> [UInt8] {
        try await BlockingCall.run { try self.exportCSV(portfolio: portfolio) }
    }

    /// The async counterpart of `exportCSV(portfolio:to:)`: the writes to `handle` (a file or a
    /// pipe, which may block) happen on the worker thread.
    public func exportCSV(portfolio: String? = Transaction.defaultPortfolio, to handle: FileHandle) async throws {
        try await BlockingCall.run { try self.exportCSV(portfolio: portfolio, to: handle) }
    }

    /// The async counterpart of `addTrade(_:)` (one group, all or nothing).
    @discardableResult
    public func addTrade(_ trade: Trade) async throws -> TransactionGroup {
        try await BlockingCall.run { try self.addTrade(trade) }
    }

    /// The async counterpart of `addTrade(json:)`.
    @discardableResult
    public func addTrade(json: String) async throws -> TransactionGroup {
        try await BlockingCall.run { try self.addTrade(json: json) }
    }

    /// The async counterpart of `move(_:)` (one group, all or nothing).
    @discardableResult
    public func move(_ move: Move) async throws -> TransactionGroup {
        try await BlockingCall.run { try self.move(move) }
    }

    /// The async counterpart of `move(json:)`.
    @discardableResult
    public func move(json: String) async throws -> TransactionGroup {
        try await BlockingCall.run { try self.move(json: json) }
    }
}
