import Foundation
import Synchronization

/// The database file every store of one engine shares: one SQLite connection, opened with the
/// WAL journal and `synchronous=FULL`, migrated to `Schema.currentVersion`, and used by one
/// thread at a time (every use goes through `locked`).
final class StoreConnection: Sendable {
    /// The path the file was opened with (`":memory:"` for a private in-memory database).
    let path: String
    private let connection: Mutex<SQLiteConnection>

    /// Opens the file, creating it and its schema on first use and migrating older ones.
    /// - Throws: `.invalidArgument` for an empty path or one with a NUL; `.store` when the file
    ///   cannot be opened, is not a database, or has a newer schema.
    init(path: String) throws {
        guard !path.isEmpty else { throw CoinfolioError.invalid("database path is empty") }
        guard !path.utf8.contains(0) else { throw CoinfolioError.invalid("database path contains a NUL character") }
        self.path = path
        let opened = try SQLiteConnection(path: path)
        do {
            try opened.execute("PRAGMA journal_mode = WAL")
            try opened.execute("PRAGMA synchronous = FULL")
            try Schema.migrate(opened)
        } catch {
            opened.close()
            throw error
        }
        connection = Mutex(opened)
    }

    /// Closes the file. Later calls throw `.store`. Safe to call twice.
    func close() {
        connection.withLock { $0.close() }
    }

    /// Runs `body` with the connection, no other thread using it meanwhile.
    /// - Parameter reportingProgress: `body` reports progress (a CSV import): a progress handler
    ///   that calls back into this database is refused rather than waiting for itself.
    /// - Throws: `.invalidArgument` (`details.reason` "reentrant") when called from a progress
    ///   handler of work that holds the connection: waiting would never end.
    func locked<T: Sendable>(reportingProgress: Bool = false, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try WorkInProgress.refuseNested(self, "a call that reads or writes the database")
        guard reportingProgress else { return try connection.withLock { connection in try body(connection) } }
        return try WorkInProgress.doing(self) { try connection.withLock { connection in try body(connection) } }
    }
}
