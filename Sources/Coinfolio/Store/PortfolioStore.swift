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
    private let connection: SQLiteConnection
    /// The holdings as last read or written, and SQLite's `data_version` when they were read:
    /// another connection's commit changes it, and only then is the table read again.
    private var cache: [Holding]?
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
    ///   - coinID: a CoinGecko coin id (`CoinID.validateHolding`: no upper case, no surrounding
    ///     spaces); stored exactly as given.
    ///   - amount: units of the coin. > 0 inserts or updates; ≤ 0 deletes the row and never inserts.
    /// - Throws: `.invalidArgument` for a bad id or a NaN/±Inf amount (nothing written); an id
    ///   with upper case or surrounding spaces carries the corrected id in
    ///   `details["suggestion"]` ("Bitcoin" → "bitcoin"). `.store` with SQLite's message
    ///   (nothing written). A row such an id left behind by an older version can still be
    ///   deleted (amount ≤ 0).
    public func setHolding(coinID: String, amount: Double) throws {
        do {
            try Self.validate(coinID: coinID, amount: amount)
        } catch let error as CoinfolioError where error.details["suggestion"] != nil && amount <= 0 {
            guard try holdings().contains(where: { $0.coinID.utf8.elementsEqual(coinID.utf8) }) else { throw error }
        }
        try locked {
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
            updateCache(coinID: coinID, amount: amount)
        }
    }

    /// Applies our own committed write to the cache (bytewise order, as SQLite's BINARY collation).
    private func updateCache(coinID: String, amount: Double) {
        guard var holdings = cache else { return }
        let key = Array(coinID.utf8)
        var low = 0, high = holdings.count
        while low < high {
            let mid = (low + high) / 2
            if holdings[mid].coinID.utf8.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        // Bytewise, as SQLite compares: Swift's == would call NFC and NFD spellings equal.
        let found = low < holdings.count && holdings[low].coinID.utf8.elementsEqual(key)
        switch (found, amount > 0) {
        case (true, true): holdings[low].amount = amount
        case (true, false): holdings.remove(at: low)
        case (false, true): holdings.insert(Holding(coinID: coinID, amount: amount), at: low)
        case (false, false): break
        }
        cache = holdings
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
            if let cache, version == cacheDataVersion { return cache }
            let statement = try connection.statement("SELECT coin_id, amount FROM holding ORDER BY coin_id")
            var result: [Holding] = []
            while try statement.next() {
                result.append(Holding(coinID: statement.text(0) ?? "", amount: statement.double(1)))
            }
            cache = result
            cacheDataVersion = version
            return result
        }
    }

    static func validate(coinID: String, amount: Double) throws {
        try CoinID.validate(coinID)
        guard amount.isFinite else { throw CoinfolioError.invalid("amount must be a finite number, not \(amount)") }
        try CoinID.validateHolding(coinID)
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
