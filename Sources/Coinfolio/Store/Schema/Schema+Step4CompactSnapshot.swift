extension Schema {
    /// Step 4: one saved snapshot per owner and `vs_currency` in `SnapshotCodec`'s compact form, its
    /// sparklines one row per coin, and saved coin details.
    static let step4CompactSnapshot = Step(
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
            """)
}
