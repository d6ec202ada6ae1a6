extension Schema {
    /// Step 5: positions (`LedgerStore+Positions`): the ledger's time-ordered index and the owners'
    /// change counters.
    static let step5Positions = Step(
        version: 5,
        summary: """
            the ledger's coin-first index replaced by a time-ordered one whose new entries append (a batch's \
            writes cluster), and a change counter per owner that every ledger write counts itself in: positions \
            (each coin's sum) are kept in memory by the connection that wrote last and summed again from the \
            ledger when another connection has written since, so a write reads its coin's position and only \
            the entries after its own time
            """,
        sqlite: positionsSQLite, postgres: positionsPostgres)

    /// Step 5 on SQLite: the time-ordered index replaces the coin-first one (a batch's new
    /// entries append to one end of it instead of landing in every leaf page), and the owners'
    /// change counters. The table is rebuilt (rows and ids kept) because its `kind` check changes
    /// spelling: SQLite runs `kind IN (…)` by building a small temporary table on every insert,
    /// which cost as much as the insert itself; the four equalities accept exactly the same values.
    private static let positionsSQLite = """
        CREATE TABLE ledger_transaction_v5 (
            id INTEGER PRIMARY KEY,
            owner TEXT NOT NULL,
            portfolio TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind = 'buy' OR kind = 'sell' OR kind = 'transfer_in' OR kind = 'transfer_out'),
            amount TEXT NOT NULL,
            price TEXT,
            fee TEXT NOT NULL,
            timestamp_ms INTEGER NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            external_id TEXT
        );
        INSERT INTO ledger_transaction_v5 (id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id)
            SELECT id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id FROM ledger_transaction;
        DROP TABLE ledger_transaction;
        ALTER TABLE ledger_transaction_v5 RENAME TO ledger_transaction;
        CREATE UNIQUE INDEX ledger_external_id ON ledger_transaction (owner, portfolio, external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);
        CREATE TABLE ledger_change (
            owner TEXT PRIMARY KEY NOT NULL,
            counter INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// Step 5 on PostgreSQL: the same index and table.
    private static let positionsPostgres = """
        DROP INDEX ledger_order;
        CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);
        CREATE TABLE ledger_change (
            owner TEXT COLLATE "C" PRIMARY KEY,
            counter BIGINT NOT NULL
        );
        """
}
