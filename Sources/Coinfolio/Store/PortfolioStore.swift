import Foundation

/// The user's holdings and ledger in a SQLite file: portfolios, their transactions (SPEC §12),
/// and the engine's saved market snapshot.
///
/// Every write that returns is committed and durable (WAL journal, `synchronous=FULL`). Several
/// threads may share one store (calls are serialized), and several processes may write one file
/// at once: lock waits are absorbed by SQLite's busy timeout and retries. Reads never re-read
/// more than they return.
///
///     let store = try PortfolioStore(path: "portfolio.sqlite")
///     try store.setHolding(coinID: "bitcoin", amount: 0.5)
///     try store.holdings()   // [Holding(coinID: "bitcoin", amount: 0.5)]
public final class PortfolioStore: Sendable {
    /// The path the store was opened with (`":memory:"` for a private in-memory store).
    public let path: String
    private let file: StoreConnection
    /// The engine's market snapshot, in the same file.
    let snapshots: SnapshotStore
    /// The ledger (portfolios and transactions), in the same file.
    let ledger: LedgerStore

    /// Opens the store, creating the file and its schema on first use and migrating older ones
    /// (a schema-1 file's holdings become transfers in of unknown cost).
    /// - Parameter path: a file path, or `":memory:"`.
    /// - Throws: `.invalidArgument` for an empty path; `.store` when the file cannot be opened, is
    ///   not a database, or has a newer schema.
    public init(path: String) throws {
        file = try StoreConnection(path: path)
        self.path = path
        snapshots = SnapshotStore(connection: file)
        ledger = LedgerStore(connection: file)
    }

    /// Closes the file. Later calls throw `.store`. Safe to call twice.
    public func close() {
        file.close()
    }

    /// Sets how much of a coin the default portfolio ("main") holds, by recording a transfer_in
    /// or transfer_out of the difference in the ledger (SPEC §12).
    ///
    /// - Parameters:
    ///   - coinID: a CoinGecko coin id (the `CoinID` rule); stored exactly as given.
    ///   - amount: units of the coin. > 0 sets the holding; ≤ 0 empties it and never inserts.
    /// - Throws: `.invalidArgument` for a bad id, a NaN/±Inf amount, an amount the ledger cannot
    ///   hold exactly (below 1e-18 or above 8.5e19 units), or a decrease that would leave a later
    ///   sell short (nothing written); `.store` with SQLite's message (nothing written).
    public func setHolding(coinID: String, amount: Double) throws {
        try ledger.setHolding(portfolio: Transaction.defaultPortfolio, coinID: coinID, amount: amount)
    }

    /// Every holding of the default portfolio ("main"): the coins whose transactions sum above
    /// zero, sorted by coin id (bytewise).
    /// - Throws: `.store` with SQLite's message.
    ///
    /// The ledger is read from the file only when another connection (thread or process) has
    /// committed since the last read, or after this store wrote.
    public func holdings() throws -> [Holding] {
        try ledger.holdings(portfolio: Transaction.defaultPortfolio)
    }
}
