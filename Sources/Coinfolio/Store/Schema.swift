/// The store's schema, versioned by `PRAGMA user_version`. A later version appends a migration;
/// an existing one never changes.
enum Schema {
    /// Migration `n` (1-based) takes a database from version n-1 to n.
    static let migrations: [(SQLiteConnection) throws -> Void] = [
        { try $0.execute(version1) },
        // 2: the ledger (portfolios and transactions); holdings become transfers in.
        LedgerStore.migrateToLedger,
    ]

    private static let version1 =
        // 1: holdings (the seed's PortfolioEntity: coinId, amount) and the engine's snapshot.
        """
        CREATE TABLE holding (
            coin_id TEXT PRIMARY KEY NOT NULL,
            amount REAL NOT NULL CHECK (amount > 0)
        ) WITHOUT ROWID;
        CREATE TABLE market_snapshot (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            vs_currency TEXT NOT NULL,
            as_of REAL NOT NULL,
            refresh_failed INTEGER NOT NULL DEFAULT 0,
            markets BLOB NOT NULL,
            global BLOB
        );
        """

    static var currentVersion: Int { migrations.count }

    /// Brings the database to `currentVersion` inside one write transaction, so that several
    /// processes opening a new file at once create it exactly once. A database already at the
    /// current version is only read (no write lock, and a read-only file still opens).
    /// - Throws: `.store` when SQLite fails or the file was written by a newer Coinfolio.
    static func migrate(_ connection: SQLiteConnection) throws {
        if try checkedVersion(connection) == currentVersion { return }
        try connection.transaction {
            let version = try checkedVersion(connection)
            for index in version..<currentVersion {
                try migrations[index](connection)
            }
            if version < currentVersion {
                try connection.execute("PRAGMA user_version = \(currentVersion)")
            }
        }
    }

    private static func checkedVersion(_ connection: SQLiteConnection) throws -> Int {
        let version = try connection.statement("PRAGMA user_version").scalarInt() ?? 0
        guard version <= currentVersion else {
            throw CoinfolioError(.store, "the database has schema version \(version); this Coinfolio knows up to \(currentVersion)")
        }
        return version
    }
}
