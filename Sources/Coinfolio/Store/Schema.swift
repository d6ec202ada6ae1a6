/// The store's schema, versioned by `PRAGMA user_version`. A new version appends a `Step` to
/// `steps`; an existing step never changes.
enum Schema {
    /// One migration: the SQL that takes a database from `version - 1` to `version`.
    struct Step: Sendable {
        /// The version the database has after this step (1, 2, … with no gaps).
        let version: Int
        /// What the step adds, for people.
        let summary: String
        /// Statements run inside the migration's transaction.
        let sql: String
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
            summary: """
                one snapshot per vs_currency in a compact form that opens without re-decoding \
                (SnapshotCodec), its sparklines one row per coin (packed doubles or the JSON text of the price \
                array; read only when a query shows them), the data's own time (as_of) apart from the fetch time, and coin details saved \
                with their fetch time; a schema-1 snapshot keeps its CoinGecko body (format 0) until an \
                engine next opens it and rewrites it compactly
                """,
            sql: """
                CREATE TABLE snapshot (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    vs_currency TEXT NOT NULL UNIQUE,
                    as_of REAL NOT NULL,
                    fetched_at REAL NOT NULL,
                    refresh_failed INTEGER NOT NULL DEFAULT 0,
                    format INTEGER NOT NULL,
                    coins BLOB NOT NULL,
                    global BLOB
                );
                CREATE TABLE snapshot_sparkline (
                    snapshot_id INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    points BLOB NOT NULL,
                    PRIMARY KEY (snapshot_id, position)
                );
                CREATE TABLE coin_detail (
                    coin_id TEXT PRIMARY KEY NOT NULL,
                    fetched_at REAL NOT NULL,
                    detail BLOB NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO snapshot (vs_currency, as_of, fetched_at, refresh_failed, format, coins, global)
                    SELECT vs_currency, as_of, as_of, refresh_failed, 0, markets, global FROM market_snapshot;
                DROP TABLE market_snapshot;
                """),
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
