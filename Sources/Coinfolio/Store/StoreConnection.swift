import Foundation
import Synchronization

/// The database every store of one engine shares: one connection (a SQLite file opened with the
/// WAL journal and `synchronous=FULL`, or a PostgreSQL server), migrated to
/// `Schema.currentVersion`, used by one thread at a time (every use goes through `locked`), and
/// the owner whose rows every statement reads and writes.
final class StoreConnection: Sendable {
    /// The location the database was opened with: a path, `":memory:"`, or a PostgreSQL URL.
    let path: String
    /// The owner of every row this connection reads or writes.
    let owner: String
    /// The server kind.
    let kind: DatabaseKind
    /// A private SQLite `":memory:"` database: no other connection or process can ever read it,
    /// and it ends with this connection.
    var isPrivateInMemory: Bool { kind == .sqlite && path == ":memory:" }
    private let connection: Mutex<any Database>

    /// The owner used when none is configured.
    static let defaultOwner = "default"

    /// Opens the database, creating its schema on first use and migrating older ones.
    /// - Parameters:
    ///   - path: a SQLite file path, `":memory:"`, or `postgresql://user[:password]@host[:port]/db[?params]`
    ///     (`postgres://` too).
    ///   - owner: whose rows this connection sees (1–256 bytes, no control characters).
    ///   - timeout: `database_timeout`, seconds (see `DatabaseTimeout`).
    /// - Throws: `.invalidArgument` for an empty path, one with a NUL, a bad owner or timeout;
    ///   `.store` when the database cannot be opened, is not a database, has a newer schema, or
    ///   did not answer within `timeout` (`details["reason"]` "timeout").
    init(path: String, owner: String = StoreConnection.defaultOwner, timeout: Double = DatabaseTimeout.defaultSeconds) throws {
        guard !path.isEmpty else { throw CoinfolioError.invalid("database path is empty") }
        guard !path.utf8.contains(0) else { throw CoinfolioError.invalid("database path contains a NUL character") }
        try Self.validate(owner: owner)
        try DatabaseTimeout.validate(timeout)
        self.path = path
        self.owner = owner
        let opened = try DatabaseLocation.open(path, timeout: timeout)
        kind = opened.kind
        do {
            try opened.prepareForUse()
            try Schema.migrate(opened)
        } catch {
            opened.close()
            throw error
        }
        connection = Mutex(opened)
    }

    /// Checks the owner rule: 1–256 bytes of UTF-8, no control characters.
    /// - Throws: `.invalidArgument` with `details.field` = "owner".
    static func validate(owner: String) throws {
        guard !owner.isEmpty, owner.utf8.count <= 256,
            !owner.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CoinfolioError(
                .invalidArgument, "owner must be 1 to 256 bytes without control characters", details: ["field": .string("owner")])
        }
    }

    /// Closes the database. Later calls throw `.store`. Safe to call twice.
    func close() {
        connection.withLock { $0.close() }
    }

    /// Runs `body` with the connection, no other thread using it meanwhile.
    /// - Parameter reportingProgress: `body` reports progress (a CSV import): a progress handler
    ///   that calls back into this database is refused rather than waiting for itself.
    /// - Throws: `.invalidArgument` (`details.reason` "reentrant") when called from a progress
    ///   handler of work that holds the connection: waiting would never end.
    func locked<T: Sendable>(reportingProgress: Bool = false, _ body: (any Database) throws -> T) throws -> T {
        try WorkInProgress.refuseNested(self, "a call that reads or writes the database")
        // After each use the connection gives its cache back when many are open.
        guard reportingProgress else {
            return try connection.withLock { connection in
                defer { if !SQLiteConnection.keepsCachesBetweenCalls { connection.releaseMemory() } }
                return try body(connection)
            }
        }
        return try WorkInProgress.doing(self) {
            try connection.withLock { connection in
                defer { if !SQLiteConnection.keepsCachesBetweenCalls { connection.releaseMemory() } }
                return try body(connection)
            }
        }
    }
}
