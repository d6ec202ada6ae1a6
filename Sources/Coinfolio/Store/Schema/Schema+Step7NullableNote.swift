extension Schema {
    /// Step 7: a transaction's note may be null (no note), kept apart from an empty note (issue 31).
    static let step7NullableNote = Step(
        version: 7,
        summary: """
            a transaction's note may be null (no note), kept apart from an empty note: "note": null used to \
            come back as "". Before this step the two could not be told apart, so every '' becomes null
            """,
        sqlite: nullableNoteSQLite, postgres: nullableNotePostgres)

    /// Step 7 on SQLite: the ledger table rebuilt with `note` nullable and no default (rows, ids
    /// and indexes kept; SQLite cannot drop a NOT NULL in place), '' read as null.
    private static let nullableNoteSQLite = """
        CREATE TABLE ledger_transaction_v7 (
            id INTEGER PRIMARY KEY,
            owner TEXT NOT NULL,
            portfolio TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind = 'buy' OR kind = 'sell' OR kind = 'transfer_in' OR kind = 'transfer_out'),
            amount TEXT NOT NULL,
            price TEXT,
            fee TEXT NOT NULL,
            timestamp_ms INTEGER NOT NULL,
            note TEXT,
            external_id TEXT
        );
        INSERT INTO ledger_transaction_v7 (id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id)
            SELECT id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, NULLIF(note, ''), external_id
            FROM ledger_transaction;
        DROP TABLE ledger_transaction;
        ALTER TABLE ledger_transaction_v7 RENAME TO ledger_transaction;
        CREATE UNIQUE INDEX ledger_external_id ON ledger_transaction (owner, portfolio, external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);
        """

    /// Step 7 on PostgreSQL: the same column change in place.
    private static let nullableNotePostgres = """
        ALTER TABLE ledger_transaction ALTER COLUMN note DROP NOT NULL, ALTER COLUMN note DROP DEFAULT;
        UPDATE ledger_transaction SET note = NULL WHERE note = '';
        """
}
