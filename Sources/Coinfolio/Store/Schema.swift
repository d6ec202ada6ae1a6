/// The store's schema, versioned by `PRAGMA user_version`. A new version appends a `Step` to
/// `steps`; an existing step never changes.
enum Schema {
    /// One migration: the SQL that takes a database from `version - 1` to `version`, and the
    /// data moves that SQL cannot express.
    struct Step: Sendable {
        /// The version the database has after this step (1, 2, … with no gaps).
        let version: Int
        /// What the step adds, for people.
        let summary: String
        /// Statements run inside the migration's transaction.
        let sql: String
        /// Run after `sql`, in the same transaction (nil: none).
        var code: (@Sendable (SQLiteConnection) throws -> Void)? = nil
    }

    /// Every step, in version order: `steps[n - 1].version == n`.
    static let steps: [Step] = [
        Step(
            version: 1, summary: "holdings (the seed's PortfolioEntity: coinId, amount) and the engine's snapshot",
            sql: """
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
                """),
        Step(
            version: 2,
            summary: "the ledger: portfolios and transactions; each holding becomes a transfer_in of unknown cost",
            sql: LedgerStore.schemaSQL, code: LedgerStore.moveSchemaOneHoldings),
    ]

    static var currentVersion: Int { steps.last?.version ?? 0 }

    /// Brings the database to `currentVersion` inside one write transaction, so that several
    /// processes opening a new file at once create it exactly once. A database already at the
    /// current version is only read (no write lock, and a read-only file still opens).
    /// - Throws: `.store` when SQLite fails or the file was written by a newer Coinfolio.
    static func migrate(_ connection: SQLiteConnection) throws {
        if try checkedVersion(connection) == currentVersion { return }
        try connection.transaction {
            let version = try checkedVersion(connection)
            for step in steps where step.version > version {
                try connection.execute(step.sql)
                try step.code?(connection)
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
