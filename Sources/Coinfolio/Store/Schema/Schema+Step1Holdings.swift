extension Schema {
    /// Step 1: the seed's holdings table (`PortfolioEntity`: coinId, amount) and the one saved market
    /// snapshot (a `/coins/markets` body). Step 3 moves the holdings into the ledger; step 4 the
    /// snapshot into one row per owner and currency.
    static let step1Holdings = Step(
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
            """)
}
