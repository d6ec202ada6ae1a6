extension Schema {
    /// Step 11: prices of the past (SPEC §17, issue 25).
    static let step11PricePoints = Step(
        version: 11,
        summary: """
            prices of the past (SPEC §17): CoinGecko's price points keyed by coin, vs_currency and time, shared by \
            every owner (market data, no owner column: SPEC §20); each owner's manual prices (historical points, and \
            current prices of coins the snapshot lacks); an index of the ledger rows whose price is pending, which \
            fill_prices reads
            """,
        sqlite: pricePointsSQLite, postgres: pricePointsPostgres)

    /// Step 11 on SQLite. `price_point` is market data: no owner column.
    private static let pricePointsSQLite = """
        CREATE TABLE price_point (
            coin_id TEXT NOT NULL,
            vs_currency TEXT NOT NULL,
            t_ms INTEGER NOT NULL,
            price REAL NOT NULL CHECK (price >= 0),
            PRIMARY KEY (coin_id, vs_currency, t_ms)
        ) WITHOUT ROWID;
        CREATE TABLE manual_price (
            owner TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            vs_currency TEXT NOT NULL,
            t_ms INTEGER NOT NULL,
            price TEXT NOT NULL,
            PRIMARY KEY (owner, coin_id, vs_currency, t_ms)
        ) WITHOUT ROWID;
        CREATE TABLE manual_current_price (
            owner TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            vs_currency TEXT NOT NULL,
            price TEXT NOT NULL,
            PRIMARY KEY (owner, coin_id, vs_currency)
        ) WITHOUT ROWID;
        CREATE INDEX ledger_pending ON ledger_transaction (owner, portfolio) WHERE price_source = 'pending';
        """

    /// Step 11 on PostgreSQL: the same tables (bytewise `COLLATE "C"` text, as SQLite sorts).
    private static let pricePointsPostgres = """
        CREATE TABLE price_point (
            coin_id TEXT COLLATE "C" NOT NULL,
            vs_currency TEXT COLLATE "C" NOT NULL,
            t_ms BIGINT NOT NULL,
            price DOUBLE PRECISION NOT NULL CHECK (price >= 0),
            PRIMARY KEY (coin_id, vs_currency, t_ms)
        );
        CREATE TABLE manual_price (
            owner TEXT COLLATE "C" NOT NULL,
            coin_id TEXT COLLATE "C" NOT NULL,
            vs_currency TEXT COLLATE "C" NOT NULL,
            t_ms BIGINT NOT NULL,
            price TEXT NOT NULL,
            PRIMARY KEY (owner, coin_id, vs_currency, t_ms)
        );
        CREATE TABLE manual_current_price (
            owner TEXT COLLATE "C" NOT NULL,
            coin_id TEXT COLLATE "C" NOT NULL,
            vs_currency TEXT COLLATE "C" NOT NULL,
            price TEXT NOT NULL,
            PRIMARY KEY (owner, coin_id, vs_currency)
        );
        CREATE INDEX ledger_pending ON ledger_transaction (owner, portfolio) WHERE price_source = 'pending';
        """
}
