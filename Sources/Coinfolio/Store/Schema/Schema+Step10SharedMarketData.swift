extension Schema {
    /// Step 10: market data is stored once per database (SPEC §20), not once per owner: one
    /// snapshot per `vs_currency` with its sparklines, and one saved detail per coin. An owner's
    /// rows are its ledger (portfolios, transactions, change counter) and its own prices.
    static let step10SharedMarketData = Step(
        version: 10,
        summary: """
            market data shared by every owner (SPEC §20): one snapshot per vs_currency (the newest of each \
            currency is kept; older owners' copies and their sparklines go), one saved detail per coin (the newest \
            kept). A snapshot row gains `version` (counts every change of that currency's market data: a new \
            save, a price update, a failed refresh; what an engine's version check reads), `coin_limit` and \
            `price_change_percentage` (what the refresh asked for: a refresh within refresh_max_age_s answers \
            only with a snapshot that covers its own settings) and `listed` (how many of its coins are the top \
            list; those after it were added for coins owners hold). No owner's ledger changes
            """,
        sqlite: sharedMarketDataSQLite, postgres: sharedMarketDataPostgres)

    /// The newest snapshot of each currency: the latest `fetched_at`, then the highest id.
    private static let newestSnapshots = """
        SELECT id FROM snapshot AS s WHERE NOT EXISTS (
            SELECT 1 FROM snapshot AS t WHERE t.vs_currency = s.vs_currency
            AND (t.fetched_at > s.fetched_at OR (t.fetched_at = s.fetched_at AND t.id > s.id)))
        """

    /// The newest detail of each coin: the latest `fetched_at`, then the first owner (bytewise).
    private static let newestDetails = """
        NOT EXISTS (
            SELECT 1 FROM coin_detail AS e WHERE e.coin_id = d.coin_id
            AND (e.fetched_at > d.fetched_at OR (e.fetched_at = d.fetched_at AND e.owner < d.owner)))
        """

    /// Step 10 on SQLite: the three tables rebuilt without `owner` (SQLite cannot drop a column
    /// of a key), the kept rows copied with their ids.
    private static let sharedMarketDataSQLite = """
        CREATE TABLE snapshot_v10 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            vs_currency TEXT NOT NULL UNIQUE,
            as_of REAL NOT NULL,
            fetched_at REAL NOT NULL,
            refresh_failed INTEGER NOT NULL DEFAULT 0,
            format INTEGER NOT NULL,
            coins BLOB NOT NULL,
            global BLOB,
            version INTEGER NOT NULL DEFAULT 1,
            coin_limit INTEGER,
            price_change_percentage TEXT,
            listed INTEGER
        );
        INSERT INTO snapshot_v10 (id, vs_currency, as_of, fetched_at, refresh_failed, format, coins, global)
            SELECT id, vs_currency, as_of, fetched_at, refresh_failed, format, coins, global FROM snapshot
            WHERE id IN (\(newestSnapshots));
        CREATE TABLE snapshot_sparkline_v10 (
            snapshot_id INTEGER NOT NULL,
            position INTEGER NOT NULL,
            points BLOB NOT NULL,
            PRIMARY KEY (snapshot_id, position)
        ) WITHOUT ROWID;
        INSERT INTO snapshot_sparkline_v10 (snapshot_id, position, points)
            SELECT p.snapshot_id, p.position, p.points FROM snapshot_sparkline AS p
            JOIN snapshot AS s ON s.id = p.snapshot_id AND s.owner = p.owner
            WHERE s.id IN (SELECT id FROM snapshot_v10);
        CREATE TABLE coin_detail_v10 (
            coin_id TEXT PRIMARY KEY NOT NULL,
            fetched_at REAL NOT NULL,
            detail BLOB NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO coin_detail_v10 (coin_id, fetched_at, detail)
            SELECT coin_id, fetched_at, detail FROM coin_detail AS d WHERE \(newestDetails);
        DROP TABLE snapshot;
        DROP TABLE snapshot_sparkline;
        DROP TABLE coin_detail;
        ALTER TABLE snapshot_v10 RENAME TO snapshot;
        ALTER TABLE snapshot_sparkline_v10 RENAME TO snapshot_sparkline;
        ALTER TABLE coin_detail_v10 RENAME TO coin_detail;
        """

    /// Step 10 on PostgreSQL: the other rows deleted, then `owner` dropped in place (with the
    /// keys it was part of) and the keys made again without it; the identity keeps counting.
    private static let sharedMarketDataPostgres = """
        DELETE FROM snapshot_sparkline AS p WHERE NOT EXISTS (
            SELECT 1 FROM snapshot AS s WHERE s.id = p.snapshot_id AND s.owner = p.owner AND s.id IN (\(newestSnapshots)));
        DELETE FROM snapshot WHERE id NOT IN (\(newestSnapshots));
        DELETE FROM coin_detail AS d WHERE NOT \(newestDetails);
        ALTER TABLE snapshot DROP COLUMN owner,
            ADD CONSTRAINT snapshot_vs_currency_key UNIQUE (vs_currency),
            ADD COLUMN version BIGINT NOT NULL DEFAULT 1,
            ADD COLUMN coin_limit INTEGER,
            ADD COLUMN price_change_percentage TEXT,
            ADD COLUMN listed INTEGER;
        ALTER TABLE snapshot_sparkline DROP COLUMN owner, ADD PRIMARY KEY (snapshot_id, position);
        ALTER TABLE coin_detail DROP COLUMN owner, ADD PRIMARY KEY (coin_id);
        """
}
