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
    func locked<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { connection in try body(connection) }
    }
}
