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
/// it in a `Mutex`.
///
/// SQL is written once for both: `?1`, `?2` … placeholders (the PostgreSQL connection turns them
/// into `$1`, `$2`), `INSERT … ON CONFLICT … DO UPDATE`, `RETURNING`. DDL differs and lives in
/// `Schema` per kind.
protocol Database: AnyObject {
    /// The server kind, for the few places that differ (DDL, the schema version's home).
    var kind: DatabaseKind { get }
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
    /// A number that changes when another connection commits, for caches; nil when the server
    /// cannot tell cheaply (the caller then reads again every time).
    func dataVersion() throws -> Int?
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

/// A prepared statement of a `Database`: bind `?N` parameters (1-based), then `run` it or step
/// its rows with `next`, reading columns (0-based) of the current row.
protocol DatabaseStatement {
    func bind(_ index: Int32, _ text: String)
    func bind(_ index: Int32, _ text: String?)
    func bind(_ index: Int32, _ value: Double)
    func bind(_ index: Int32, _ value: Int)
    func bind(_ index: Int32, _ value: Int64)
    /// Binds a blob without copying it: `bytes` must stay valid until the statement has run, so
    /// bind and run inside the buffer's `withUnsafeBytes`. nil binds NULL.
    func bind(_ index: Int32, borrowing bytes: UnsafeRawBufferPointer?)

    /// Runs a statement that returns no rows.
    /// - Returns: how many rows it inserted, updated or deleted.
    @discardableResult
    func run(_ context: @autoclosure () -> String) throws -> Int
    /// Steps once: true when a row is ready.
    func next() throws -> Bool
    /// Ends the statement's read.
    func reset()

    func text(_ column: Int32) -> String?
    func double(_ column: Int32) -> Double
    func int(_ column: Int32) -> Int
    func int64(_ column: Int32) -> Int64
    func isNull(_ column: Int32) -> Bool
    func blob(_ column: Int32) -> Data?
    /// A text column's bytes in place (valid until the next step), empty for NULL.
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T
}

extension Database {
    /// A serializable write transaction (SQLite's `BEGIN IMMEDIATE`), the one the stores need.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(.serializable, body)
    }
}

extension DatabaseStatement {
    /// The first column of the first row as an integer, with the statement reset after.
    func scalarInt() throws -> Int? {
        defer { reset() }
        return try next() ? int(0) : nil
    }
}

/// Opens the database a `database` setting names: a `postgresql://` or `postgres://` URL is a
/// PostgreSQL server, anything else a SQLite file path (or `":memory:"`).
enum DatabaseLocation {
    /// Whether `location` names a PostgreSQL server (the scheme in any letter case, as URLs allow).
    static func isPostgres(_ location: String) -> Bool {
        let scheme = location.utf8.prefix(12).split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = scheme.first, location.utf8.dropFirst(name.count).starts(with: "://".utf8) else { return false }
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        return lowered == "postgresql" || lowered == "postgres"
    }

    /// A connection to `location`.
    /// - Parameter timeout: `database_timeout`, seconds: the bound of each PostgreSQL round trip,
    ///   or SQLite's busy timeout.
    /// - Throws: `.store` with the server's message (never the password).
    static func open(_ location: String, timeout: Double = DatabaseTimeout.defaultSeconds) throws -> any Database {
        if isPostgres(location) { return try PostgresConnection(url: location, timeout: timeout) }
        return try SQLiteConnection(path: location, busyTimeout: timeout)
    }

    /// `location` as it may appear in messages and logs: a URL's password removed.
    static func redacted(_ location: String) -> String {
        isPostgres(location) ? PostgresConnection.redactedURL(location) : location
    }
}
