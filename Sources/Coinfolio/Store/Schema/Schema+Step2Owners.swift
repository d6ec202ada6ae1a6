extension Schema {
    /// Step 2: every row belongs to an owner, first in every primary key (existing rows to
    /// "default"). PostgreSQL's step 1 already had owners: nothing to do there.
    static let step2Owners = Step(
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
        postgres: "")
}
