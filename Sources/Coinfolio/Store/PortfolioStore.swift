import Foundation

/// The user's holdings in a SQLite file: one row per CoinGecko coin id.
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
    let connection: SQLiteConnection
    /// The holdings as last read or written, and SQLite's `data_version` when they were read:
    /// another connection's commit changes it, and only then is the table read again.
    private var cache: HoldingsCache?
    private var cacheDataVersion = 0

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
    }

    /// Closes the file. Later calls throw `.store`. Safe to call twice.
    public func close() {
        lock.lock(); defer { lock.unlock() }
        connection.close()
    }

    /// Sets how much of a coin is held.
    ///
    /// - Parameters:
    ///   - coinID: a CoinGecko coin id (the `CoinID` rule); stored exactly as given.
    ///   - amount: units of the coin. > 0 inserts or updates; ≤ 0 deletes the row and never inserts.
    /// - Throws: `.invalidArgument` for a bad id or a NaN/±Inf amount (nothing written);
    ///   `.store` with SQLite's message (nothing written).
    public func setHolding(coinID: String, amount: Double) throws {
        try Self.validate(coinID: coinID, amount: amount)
        try locked {
            try write(coinID: coinID, amount: amount)
            cache?.set(coinID: coinID, amount: amount)
        }
    }

    /// Sets several holdings in one durable transaction: all are written or none.
    ///
    /// - Parameter holdings: (coin id, units) pairs with `setHolding`'s rules: > 0 inserts or
    ///   updates, ≤ 0 deletes. An id may appear once.
    /// - Throws: `.invalidArgument` for the first bad id, non-finite amount or repeated id, with
    ///   `details["index"]` (its position) and `details["coin_id"]`; nothing is written.
    ///   `.store` with SQLite's message; nothing is written.
    public func setHoldings(_ holdings: [Holding]) throws {
        var seen = Set<HoldingsCache.Key>()
        seen.reserveCapacity(holdings.count)
        for (index, holding) in holdings.enumerated() {
            do {
                try Self.validate(coinID: holding.coinID, amount: holding.amount)
                guard seen.insert(HoldingsCache.Key(holding.coinID)).inserted else {
                    throw CoinfolioError.invalid("coin id \"\(holding.coinID)\" appears twice")
                }
            } catch var error as CoinfolioError {
                error.message = "holdings[\(index)]: \(error.message)"
                error.details["index"] = .number(Double(index))
                error.details["coin_id"] = .string(holding.coinID)
                throw error
            }
        }
        guard !holdings.isEmpty else { return }
        try locked {
            try connection.transaction {
                for holding in holdings { try write(coinID: holding.coinID, amount: holding.amount) }
            }
            for holding in holdings { cache?.set(coinID: holding.coinID, amount: holding.amount) }
        }
    }

    /// One upsert or delete (the caller holds the lock).
    private func write(coinID: String, amount: Double) throws {
        if amount > 0 {
            let statement = try connection.statement(
                "INSERT INTO holding (coin_id, amount) VALUES (?1, ?2) ON CONFLICT (coin_id) DO UPDATE SET amount = excluded.amount")
            statement.bind(1, coinID)
            statement.bind(2, amount)
            try statement.run("cannot save holding")
        } else {
            let statement = try connection.statement("DELETE FROM holding WHERE coin_id = ?1")
            statement.bind(1, coinID)
            try statement.run("cannot delete holding")
        }
    }

    private func dataVersion() throws -> Int {
        try connection.statement("PRAGMA data_version").scalarInt() ?? 0
    }

    /// Every holding, sorted by coin id (bytewise).
    /// - Throws: `.store` with SQLite's message.
    ///
    /// The rows are read from the file only when another connection (thread or process) has
    /// committed since the last read; this store's own writes update them in place.
    public func holdings() throws -> [Holding] {
        try locked {
            let version = try dataVersion()
            if var cached = cache, version == cacheDataVersion {
                cache = nil  // keep the cache uniquely referenced while it sorts, so nothing is copied
                let sorted = cached.sorted()
                cache = cached
                return sorted
            }
            let statement = try connection.statement("SELECT coin_id, amount FROM holding ORDER BY coin_id")
            var result: [Holding] = []
            while try statement.next() {
                result.append(Holding(coinID: statement.text(0) ?? "", amount: statement.double(1)))
            }
            cache = HoldingsCache(sorted: result)
            cacheDataVersion = version
            return result
        }
    }

    static func validate(coinID: String, amount: Double) throws {
        try CoinID.validate(coinID)
        guard amount.isFinite else { throw CoinfolioError.invalid("amount must be a finite number, not \(amount)") }
    }

    func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }
}
