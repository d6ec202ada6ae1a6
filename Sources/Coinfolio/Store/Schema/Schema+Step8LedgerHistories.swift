extension Schema {
    /// Step 8: the ledger of SPEC §16–17 — groups, income, fees in any coin, and where each price
    /// came from.
    static let step8LedgerHistories = Step(
        version: 8,
        summary: """
            the ledger holds real histories (SPEC §16, §17): kinds `fee` (a fee paid in a coin, a disposal) and \
            `income`; per row `group_id` (the rows one call wrote: a trade's legs, a fee row, a move's sides), \
            `income_type`, `fee_coin_id` and `fee_price`, and the price's provenance `price_source` \
            (user|pending|coingecko|manual), `price_at` (t_ms of the price point), `original_price` and \
            `price_currency` (a price given in another currency, converted by issue 25); an index on groups. \
            Every existing row is kept with its id: buys and sells get price_source 'user', transfers none
            """,
        sqlite: ledgerHistoriesSQLite, postgres: ledgerHistoriesPostgres)

    /// Step 8 on SQLite: the table is rebuilt (rows and ids kept) because its `kind` check gains
    /// two kinds (SQLite cannot change a check); the indexes are made again, and one on groups.
    private static let ledgerHistoriesSQLite = """
        CREATE TABLE ledger_transaction_v8 (
            id INTEGER PRIMARY KEY,
            owner TEXT NOT NULL,
            portfolio TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (
                kind = 'buy' OR kind = 'sell' OR kind = 'transfer_in' OR kind = 'transfer_out' OR kind = 'fee' OR kind = 'income'),
            amount TEXT NOT NULL,
            price TEXT,
            fee TEXT NOT NULL,
            timestamp_ms INTEGER NOT NULL,
            note TEXT,
            external_id TEXT,
            group_id TEXT,
            income_type TEXT,
            fee_coin_id TEXT,
            fee_price TEXT,
            price_source TEXT,
            price_at INTEGER,
            original_price TEXT,
            price_currency TEXT
        );
        INSERT INTO ledger_transaction_v8
            (id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, price_source)
            SELECT id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id,
                CASE WHEN kind = 'buy' OR kind = 'sell' THEN 'user' END
            FROM ledger_transaction;
        DROP TABLE ledger_transaction;
        ALTER TABLE ledger_transaction_v8 RENAME TO ledger_transaction;
        CREATE UNIQUE INDEX ledger_external_id ON ledger_transaction (owner, portfolio, external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);
        CREATE INDEX ledger_group ON ledger_transaction (owner, group_id) WHERE group_id IS NOT NULL;
        """

    /// Step 8 on PostgreSQL: the same columns added in place, the kind check replaced.
    private static let ledgerHistoriesPostgres = """
        ALTER TABLE ledger_transaction
            DROP CONSTRAINT ledger_transaction_kind_check,
            ADD CONSTRAINT ledger_transaction_kind_check
                CHECK (kind IN ('buy', 'sell', 'transfer_in', 'transfer_out', 'fee', 'income')),
            ADD COLUMN group_id TEXT COLLATE "C",
            ADD COLUMN income_type TEXT,
            ADD COLUMN fee_coin_id TEXT COLLATE "C",
            ADD COLUMN fee_price TEXT,
            ADD COLUMN price_source TEXT,
            ADD COLUMN price_at BIGINT,
            ADD COLUMN original_price TEXT,
            ADD COLUMN price_currency TEXT COLLATE "C";
        UPDATE ledger_transaction SET price_source = 'user' WHERE kind IN ('buy', 'sell');
        CREATE INDEX ledger_group ON ledger_transaction (owner, group_id) WHERE group_id IS NOT NULL;
        """
}
