import Foundation

/// Which database server a `Database` talks to.
enum DatabaseKind: Sendable {
    /// A SQLite file (or `":memory:"`), Debian's libsqlite3.
    case sqlite
    /// A PostgreSQL server, Debian's libpq.
    case postgres
}

/// How strictly a transaction is isolated from concurrent ones.
enum TransactionIsolation: Sendable {
    /// Each statement sees what was committed before it started (PostgreSQL's READ COMMITTED);
    /// used by migrations, which serialize themselves with an advisory lock.
    case readCommitted
    /// As if the transactions ran one after another (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's
    /// SERIALIZABLE, retried on serialization failures and deadlocks).
    case serializable
}

/// One connection to the store's database: the only interface the stores use, so every store
/// runs unchanged on SQLite and PostgreSQL. Not thread-safe by itself: `StoreConnection` holds
/// it behind its lock.
///
/// SQL is written once for both: `?1`, `?2` … placeholders (the PostgreSQL connection turns them
/// into `$1`, `$2` as it prepares, `PostgresStatement.numberedParameters`), `INSERT … ON CONFLICT
/// … DO UPDATE`, `RETURNING`. What the two servers spell or do differently is a member here —
/// the schema version's home and lock, the owner's write transaction, the rows of a JSON array,
/// how a sparkline is saved — never a branch in a store. Only DDL differs per kind (`Schema`).
protocol Database: AnyObject {
    /// The server kind, for the schema steps' DDL.
    var kind: DatabaseKind { get }
    /// Sets the connection up for the stores before the schema is migrated (SQLite: the WAL
    /// journal and `synchronous=FULL`).
    /// - Throws: `.store` with the server's message.
    func prepareForUse() throws
    /// Runs SQL without parameters or results (several statements allowed).
    /// - Throws: `.store` with the server's message.
    func execute(_ sql: String) throws
    /// A prepared statement for `sql` (cached per connection), ready for new bindings.
    /// - Throws: `.store` with the server's message.
    func statement(_ sql: String) throws -> any DatabaseStatement
    /// Runs `body` in one transaction, committed when it returns and rolled back when it throws.
    /// A serializable transaction that the server aborts for a conflict (PostgreSQL 40001,
    /// 40P01) runs `body` again, so `body` must only touch the database and its own locals.
    func transaction<T>(_ isolation: TransactionIsolation, _ body: () throws -> T) throws -> T
    /// Runs `body` in one write transaction in which `owner`'s ledger writes run one after
    /// another, each seeing every row the previous one committed, and never retried (a CSV
    /// stream read once is never replayed). SQLite: `BEGIN IMMEDIATE` (one writer at a time).
    /// PostgreSQL: READ COMMITTED after the owner's transaction-scoped advisory lock: writes of
    /// different owners never wait for or abort each other (a serializable transaction would: its
    /// predicate locks cover index pages that other owners' rows share).
    func ownerTransaction<T>(owner: String, _ body: () throws -> T) throws -> T
    /// Runs `body` in one write transaction holding the market-data lock of `vsCurrency` (SPEC
    /// §20's single flight): writers of one currency's market data — every engine's refresh,
    /// load and price update, in any thread or process — run one after another, each seeing what
    /// the previous one committed; other currencies and every ledger write go on. SQLite: `BEGIN
    /// IMMEDIATE`, the file's write lock. PostgreSQL: READ COMMITTED after a transaction-scoped
    /// advisory lock keyed by the currency (nothing of it outlives the transaction, so it works
    /// through a transaction-pooling pgbouncer). The wait for the lock is bounded by
    /// `database_timeout`: then `.store`, `details["reason"]` "timeout" (SQLite: `sqlite_code` 5).
    /// Never retried.
    func marketTransaction<T>(vsCurrency: String, _ body: () throws -> T) throws -> T
    /// The rows of the JSON array bound to `?parameter`, each element as column `value`, for a
    /// `FROM` clause (SQLite's `json_each`, PostgreSQL's `json_array_elements`; `->>` reads
    /// both, on SQLite from 3.38 — Debian 12 ships 3.40).
    func jsonArrayElements(parameter: Int) -> String
    /// What ends a one-row INSERT whose new id `insertedID(_:)` reads: PostgreSQL's
    /// ` RETURNING id`; empty on SQLite, whose RETURNING fills and drops an ephemeral table for
    /// every row (a third of a large import's write, bench/NOTES.md).
    var returningInsertedID: String { get }
    /// Runs a one-row INSERT ending with `returningInsertedID`: the new row's id, or nil when it
    /// inserted nothing (its `ON CONFLICT … DO NOTHING` skipped the row). SQLite: whether it
    /// inserted from `sqlite3_changes`, the id from `sqlite3_last_insert_rowid`.
    /// - Throws: `.store` with the server's message.
    func insertedID(_ statement: any DatabaseStatement) throws -> Int64?
    /// Whether a sparkline still in CoinGecko's JSON text is saved as that text (SQLite: never
    /// parsed) rather than packed (PostgreSQL: pglz compressing the text on every save cost
    /// five times the parse, `SnapshotStore.save`).
    var savesSparklineText: Bool { get }
    /// Runs `body`, a write of many rows, with room in memory for its pages: SQLite raises the
    /// connection's page cache to `largeWriteCacheKiB` for its duration (the default 2 MiB made a
    /// 100,000-row import spill pages to the WAL and read them back mid-transaction);
    /// PostgreSQL's pages live in the server's buffers, so `body` runs as is.
    func withLargeWriteCache<T>(_ body: () throws -> T) throws -> T
    /// A stamp that differs from an earlier one of this connection whenever the database's rows
    /// may have changed in between, by this connection or any other: what lets a reader keep
    /// rows it read (`PriceStore.series`). SQLite: `PRAGMA data_version` (moves when another
    /// connection commits) with `sqlite3_total_changes64` (rows this connection inserted,
    /// updated or deleted, a rolled-back change counted too). PostgreSQL: nil (the server gives
    /// no such number; a reader reads again every time).
    /// - Throws: `.store` with the server's message.
    func changeStamp() throws -> DatabaseChangeStamp?
    /// The schema version (0 for a new database). SQLite: `PRAGMA user_version`; PostgreSQL:
    /// the table `coinfolio_schema`.
    func schemaVersion() throws -> Int
    /// Records the schema version, inside the migration's transaction.
    func setSchemaVersion(_ version: Int) throws
    /// Inside the migration's transaction: waits until no other connection migrates (SQLite:
    /// the write transaction already did; PostgreSQL: an advisory lock) and makes sure the
    /// version has its home.
    func lockSchema() throws
    /// The next wait on the database is bounded by `deadline` as well as by its own bound: the
    /// call about to use the connection began waiting for it then less `database_timeout` ago
    /// (a call queued behind another on a shared handle counts that wait, `StoreConnection`).
    func boundNextWait(by deadline: ContinuousClock.Instant)
    /// Closes the connection. Later calls throw `.store`. Safe to call twice.
    func close()
    /// Gives back the memory the connection keeps between calls for speed (SQLite: its page
    /// cache and prepared statements); the next call reads and prepares what it needs again. `StoreConnection` calls it after each use
    /// while many connections are open (see `SQLiteConnection.keepsCachesBetweenCalls`).
    func releaseMemory()
}

extension Database {
    /// Nothing to give back (a PostgreSQL connection's memory is the server's).
    func releaseMemory() {}
}

/// The page cache of a large write (`Database.withLargeWriteCache`), in KiB: 64 MiB, about
/// what 200,000 ledger rows and their indexes take.
let largeWriteCacheKiB = 65_536

extension Database {
    /// A serializable write transaction (SQLite's `BEGIN IMMEDIATE`), the one the stores need.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(.serializable, body)
    }
}

/// `Database.changeStamp()`: two equal stamps of one connection saw the same rows.
struct DatabaseChangeStamp: Sendable, Equatable {
    /// Commits of other connections (SQLite's `data_version`).
    let othersCommits: Int64
    /// Rows this connection changed (SQLite's `sqlite3_total_changes64`).
    let ownChanges: Int64
}
