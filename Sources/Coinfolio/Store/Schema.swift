/// The store's schema, versioned: SQLite keeps the version in `PRAGMA user_version`, PostgreSQL
/// in the one-row table `coinfolio_schema`. A new version appends a `Step` to `steps`; an
/// existing step never changes. Both servers have the same tables, columns and keys; only the
/// DDL differs (types: `REAL`/`DOUBLE PRECISION`, `BLOB`/`BYTEA`, bytewise `COLLATE "C"` text;
/// PostgreSQL's storage settings: blobs kept uncompressed).
///
/// Every row belongs to an owner (column `owner`, the configuration's `owner`, default
/// `"default"`), first in every primary key; every statement of the stores names it.
enum Schema {
    /// One migration: what takes a database from `version - 1` to `version`.
    struct Step: Sendable {
        /// The version the database has after this step (1, 2, … with no gaps).
        let version: Int
        /// What the step adds, for people.
        let summary: String
        /// Statements run inside the migration's transaction on SQLite.
        let sqlite: String
        /// Statements run inside the migration's transaction on PostgreSQL ("" when the step
        /// has nothing to do there).
        let postgres: String
        /// Data moves the SQL cannot express, run after it in the same transaction (nil: none).
        var code: (@Sendable (any Database) throws -> Void)? = nil

        func sql(for kind: DatabaseKind) -> String { kind == .sqlite ? sqlite : postgres }
    }

    /// Every step, in version order: `steps[n - 1].version == n`.
    static let steps: [Step] = [
        Step(
            version: 1, summary: "holdings (the seed's PortfolioEntity: coinId, amount) and the engine's snapshot",
            sqlite: """
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
                """,
            // PostgreSQL support began with owners: its first step already has them (step 2's shape).
            postgres: """
                CREATE TABLE holding (
                    owner TEXT COLLATE "C" NOT NULL,
                    coin_id TEXT COLLATE "C" NOT NULL,
                    amount DOUBLE PRECISION NOT NULL CHECK (amount > 0),
                    PRIMARY KEY (owner, coin_id)
                );
                CREATE TABLE market_snapshot (
                    owner TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    vs_currency TEXT COLLATE "C" NOT NULL,
                    as_of DOUBLE PRECISION NOT NULL,
                    refresh_failed INTEGER NOT NULL DEFAULT 0,
                    markets BYTEA NOT NULL,
                    global BYTEA
                );
                -- Bodies are megabytes of JSON saved on every refresh: stored out of line without
                -- compression (pglz would cost several times the write itself).
                ALTER TABLE market_snapshot ALTER COLUMN markets SET STORAGE EXTERNAL,
                    ALTER COLUMN global SET STORAGE EXTERNAL;
                """),
        Step(
            version: 2, summary: "owners: every row belongs to one (existing rows to \"default\")",
            sqlite: """
                CREATE TABLE holding_owned (
                    owner TEXT NOT NULL,
                    coin_id TEXT NOT NULL,
                    amount REAL NOT NULL CHECK (amount > 0),
                    PRIMARY KEY (owner, coin_id)
                ) WITHOUT ROWID;
                INSERT INTO holding_owned (owner, coin_id, amount) SELECT 'default', coin_id, amount FROM holding;
                DROP TABLE holding;
                ALTER TABLE holding_owned RENAME TO holding;
                CREATE TABLE market_snapshot_owned (
                    owner TEXT PRIMARY KEY NOT NULL,
                    vs_currency TEXT NOT NULL,
                    as_of REAL NOT NULL,
                    refresh_failed INTEGER NOT NULL DEFAULT 0,
                    markets BLOB NOT NULL,
                    global BLOB
                );
                INSERT INTO market_snapshot_owned (owner, vs_currency, as_of, refresh_failed, markets, global)
                    SELECT 'default', vs_currency, as_of, refresh_failed, markets, global FROM market_snapshot;
                DROP TABLE market_snapshot;
                ALTER TABLE market_snapshot_owned RENAME TO market_snapshot;
                """,
            postgres: ""),
        Step(
            version: 3,
            summary: "the ledger: portfolios and transactions; each holding becomes a transfer_in of unknown cost",
            sqlite: LedgerStore.schemaSQLite, postgres: LedgerStore.schemaPostgres, code: LedgerStore.moveHoldingsIntoLedger),
        Step(
            version: 4,
            summary: """
                one snapshot per owner and vs_currency in a compact form that opens without re-decoding \
                (SnapshotCodec), its sparklines one row per coin (packed doubles or the JSON text of the price \
                array; read only when a query shows them), the data's own time (as_of) apart from the fetch \
                time, and coin details saved with their fetch time; a snapshot saved before keeps its \
                CoinGecko body (format 0) until an engine next opens it and rewrites it compactly
                """,
            sqlite: """
                CREATE TABLE snapshot (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner TEXT NOT NULL,
                    vs_currency TEXT NOT NULL,
                    as_of REAL NOT NULL,
                    fetched_at REAL NOT NULL,
                    refresh_failed INTEGER NOT NULL DEFAULT 0,
                    format INTEGER NOT NULL,
                    coins BLOB NOT NULL,
                    global BLOB,
                    UNIQUE (owner, vs_currency)
                );
                CREATE TABLE snapshot_sparkline (
                    owner TEXT NOT NULL,
                    snapshot_id INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    points BLOB NOT NULL,
                    PRIMARY KEY (owner, snapshot_id, position)
                );
                CREATE TABLE coin_detail (
                    owner TEXT NOT NULL,
                    coin_id TEXT NOT NULL,
                    fetched_at REAL NOT NULL,
                    detail BLOB NOT NULL,
                    PRIMARY KEY (owner, coin_id)
                ) WITHOUT ROWID;
                INSERT INTO snapshot (owner, vs_currency, as_of, fetched_at, refresh_failed, format, coins, global)
                    SELECT owner, vs_currency, as_of, as_of, refresh_failed, 0, markets, global FROM market_snapshot;
                DROP TABLE market_snapshot;
                """,
            postgres: """
                CREATE TABLE snapshot (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    owner TEXT COLLATE "C" NOT NULL,
                    vs_currency TEXT COLLATE "C" NOT NULL,
                    as_of DOUBLE PRECISION NOT NULL,
                    fetched_at DOUBLE PRECISION NOT NULL,
                    refresh_failed INTEGER NOT NULL DEFAULT 0,
                    format INTEGER NOT NULL,
                    coins BYTEA NOT NULL,
                    global BYTEA,
                    UNIQUE (owner, vs_currency)
                );
                ALTER TABLE snapshot ALTER COLUMN coins SET STORAGE EXTERNAL, ALTER COLUMN global SET STORAGE EXTERNAL;
                CREATE TABLE snapshot_sparkline (
                    owner TEXT COLLATE "C" NOT NULL,
                    snapshot_id BIGINT NOT NULL,
                    position INTEGER NOT NULL,
                    points BYTEA NOT NULL,
                    PRIMARY KEY (owner, snapshot_id, position)
                );
                CREATE TABLE coin_detail (
                    owner TEXT COLLATE "C" NOT NULL,
                    coin_id TEXT COLLATE "C" NOT NULL,
                    fetched_at DOUBLE PRECISION NOT NULL,
                    detail BYTEA NOT NULL,
                    PRIMARY KEY (owner, coin_id)
                );
                INSERT INTO snapshot (owner, vs_currency, as_of, fetched_at, refresh_failed, format, coins, global)
                    SELECT owner, vs_currency, as_of, as_of, refresh_failed, 0, markets, global FROM market_snapshot;
                DROP TABLE market_snapshot;
                """),
        Step(
            version: 5,
            summary: """
                the ledger's coin-first index replaced by a time-ordered one whose new entries append (a batch's \
                writes cluster), and a change counter per owner that every ledger write counts itself in: positions \
                (each coin's sum) are kept in memory by the connection that wrote last and summed again from the \
                ledger when another connection has written since, so a write reads its coin's position and only \
                the entries after its own time
                """,
            sqlite: LedgerStore.positionsSQLite, postgres: LedgerStore.positionsPostgres),
        Step(
            version: 6,
            summary: """
                PostgreSQL saves every sparkline packed (SnapshotCodec.packedSparkline: 1.3 KB for 168 points) and \
                keeps the column uncompressed, in the row when it fits (STORAGE EXTERNAL, toast_tuple_target 8160): \
                pglz compressing the JSON text of 250 sparklines on every save cost five times SQLite's whole save. \
                Rows saved before keep their form and read as before; SQLite has nothing to change (its rows stay \
                the JSON text CoinGecko sent, never parsed)
                """,
            sqlite: "",
            postgres: """
                ALTER TABLE snapshot_sparkline ALTER COLUMN points SET STORAGE EXTERNAL;
                ALTER TABLE snapshot_sparkline SET (toast_tuple_target = 8160);
                """),
        Step(
            version: 7, summary: LedgerStore.nullableNoteSummary, sqlite: LedgerStore.nullableNoteSQLite,
            postgres: LedgerStore.nullableNotePostgres),
    ]

    static var currentVersion: Int { steps.last?.version ?? 0 }

    /// The key of the PostgreSQL advisory lock that serializes migrations of one database
    /// ("cfschema" in ASCII).
    static let postgresLockKey: Int64 = 0x6366_7363_6865_6D61

    /// Brings the database to `currentVersion` inside one transaction, so that several processes
    /// opening a new database at once create it exactly once (SQLite: a write transaction;
    /// PostgreSQL: a transaction-scoped advisory lock). A database already at the current
    /// version is only read.
    /// - Throws: `.store` when the server fails or the database was written by a newer Coinfolio.
    ///
    /// `target` below `currentVersion` stops at that step (tests build old databases with it).
    static func migrate(_ database: any Database, upTo target: Int = currentVersion) throws {
        if try checkedVersion(database) >= target { return }
        try database.transaction(.readCommitted) {
            if database.kind == .postgres {
                try database.execute(
                    """
                    SELECT pg_advisory_xact_lock(\(postgresLockKey));
                    CREATE TABLE IF NOT EXISTS coinfolio_schema (version INTEGER NOT NULL);
                    """)
            }
            let version = try checkedVersion(database)
            for step in steps where step.version > version && step.version <= target {
                let sql = step.sql(for: database.kind)
                if !sql.isEmpty { try database.execute(sql) }
                try step.code?(database)
            }
            if version < target { try setVersion(database, target) }
        }
    }

    private static func setVersion(_ database: any Database, _ version: Int) throws {
        switch database.kind {
        case .sqlite:
            try database.execute("PRAGMA user_version = \(version)")
        case .postgres:
            try database.execute("DELETE FROM coinfolio_schema; INSERT INTO coinfolio_schema (version) VALUES (\(version))")
        }
    }

    /// The database's version (0 for a new one).
    private static func version(_ database: any Database) throws -> Int {
        switch database.kind {
        case .sqlite:
            return try database.statement("PRAGMA user_version").scalarInt() ?? 0
        case .postgres:
            let exists = try database.statement("SELECT to_regclass('coinfolio_schema') IS NOT NULL")
            guard try exists.scalarInt() == 1 else { return 0 }
            return try database.statement("SELECT max(version) FROM coinfolio_schema").scalarInt() ?? 0
        }
    }

    private static func checkedVersion(_ database: any Database) throws -> Int {
        let version = try version(database)
        guard version <= currentVersion else {
            throw CoinfolioError(.store, "the database has schema version \(version); this Coinfolio knows up to \(currentVersion)")
        }
        return version
    }
}
