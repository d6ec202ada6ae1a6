import Foundation

/// The user's holdings and ledger in a SQLite file: portfolios, their transactions, and the
/// engine's saved market snapshot.
///
/// Every write that returns is committed and durable (WAL journal, `synchronous=FULL`). Several
/// threads may share one store (calls are serialized), and several processes may write one file
/// at once: lock waits are absorbed by SQLite's busy timeout and retries. Reads never re-read
/// more than they return.
///
///     let store = try PortfolioStore(path: "portfolio.sqlite")
///     try store.setHolding(coinID: "bitcoin", amount: 0.5)
///     try store.holdings()   // [Holding(coinID: "bitcoin", amount: 0.5)]
public final class PortfolioStore: @unchecked Sendable {
    /// The path the store was opened with (`":memory:"` for a private in-memory store).
    public let path: String
    private let lock = NSLock()
    private let connection: SQLiteConnection
    /// The ledger (portfolios and transactions) in the same file, on the same connection and lock.
    let ledger: LedgerStore

    /// Opens the store, creating the file and its schema on first use and migrating older ones.
    /// - Parameter path: a file path, or `":memory:"`.
    /// - Throws: `.invalidArgument` for an empty path; `.store` when the file cannot be opened, is
    ///   not a database, or has a newer schema.
    public init(path: String) throws {
        guard !path.isEmpty else { throw CoinfolioError.invalid("database path is empty") }
        guard !path.utf8.contains(0) else { throw CoinfolioError.invalid("database path contains a NUL character") }
        self.path = path
        connection = try SQLiteConnection(path: path)
        do {
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = FULL")
            try Schema.migrate(connection)
        } catch {
            connection.close()
            throw error
        }
        ledger = LedgerStore(connection: connection, lock: lock)
    }

    /// Closes the file. Later calls throw `.store`. Safe to call twice.
    public func close() {
        lock.lock(); defer { lock.unlock() }
        connection.close()
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

    static func validate(coinID: String, amount: Double) throws {
        try CoinID.validate(coinID)
        guard amount.isFinite else { throw CoinfolioError.invalid("amount must be a finite number, not \(amount)") }
    }

    // MARK: - The engine's market snapshot, kept in the same file

    struct SavedSnapshot {
        var vsCurrency: String
        var asOf: Double
        var refreshFailed: Bool
        var markets: Data
        var global: Data?
    }

    func saveSnapshot(_ snapshot: SavedSnapshot) throws {
        try locked {
            let statement = try connection.statement(
                """
                INSERT INTO market_snapshot (id, vs_currency, as_of, refresh_failed, markets, global)
                VALUES (1, ?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (id) DO UPDATE SET vs_currency = excluded.vs_currency, as_of = excluded.as_of,
                    refresh_failed = excluded.refresh_failed, markets = excluded.markets, global = excluded.global
                """)
            statement.bind(1, snapshot.vsCurrency)
            statement.bind(2, snapshot.asOf)
            statement.bind(3, snapshot.refreshFailed ? 1 : 0)
            // The bodies can be tens of megabytes: SQLite reads them in place, no copy.
            try snapshot.markets.withUnsafeBytes { (markets: UnsafeRawBufferPointer) in
                try (snapshot.global ?? Data()).withUnsafeBytes { (global: UnsafeRawBufferPointer) in
                    statement.bind(4, borrowing: markets)
                    statement.bind(5, borrowing: snapshot.global == nil ? nil : global)
                    try statement.run("cannot save the market snapshot")
                }
            }
        }
    }

    func markRefreshFailed(vsCurrency: String) throws {
        try locked {
            let statement = try connection.statement("UPDATE market_snapshot SET refresh_failed = 1 WHERE id = 1 AND vs_currency = ?1")
            statement.bind(1, vsCurrency)
            try statement.run("cannot mark the snapshot stale")
        }
    }

    func loadSnapshot() throws -> SavedSnapshot? {
        try locked {
            let statement = try connection.statement(
                "SELECT vs_currency, as_of, refresh_failed, markets, global FROM market_snapshot WHERE id = 1")
            defer { statement.reset() }
            guard try statement.next() else { return nil }
            return SavedSnapshot(
                vsCurrency: statement.text(0) ?? "", asOf: statement.double(1),
                refreshFailed: statement.int(2) != 0, markets: statement.blob(3) ?? Data(),
                global: statement.blob(4))
        }
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }
}
