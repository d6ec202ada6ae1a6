import Foundation

/// The database file every store of one engine shares: one SQLite connection, opened with the
/// WAL journal and `synchronous=FULL`, migrated to `Schema.currentVersion`, and used by one
/// thread at a time (every use goes through `locked`).
final class StoreConnection: @unchecked Sendable {
    /// The path the file was opened with (`":memory:"` for a private in-memory database).
    let path: String
    private let lock = NSLock()
    private let connection: SQLiteConnection

    /// Opens the file, creating it and its schema on first use and migrating older ones.
    /// - Throws: `.invalidArgument` for an empty path or one with a NUL; `.store` when the file
    ///   cannot be opened, is not a database, or has a newer schema.
    init(path: String) throws {
        guard !path.isEmpty else { throw CoinfolioError.invalid("database path is empty") }
        guard !path.utf8.contains(0) else { throw CoinfolioError.invalid("database path contains a NUL character") }
        self.path = path
        connection = try SQLiteConnection(path: path)
        do {
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = FULL")
            try Schema.migrate(connection)
        } catch {
            connection.close()
            throw error
        }
    }

    /// Closes the file. Later calls throw `.store`. Safe to call twice.
    func close() {
        lock.lock(); defer { lock.unlock() }
        connection.close()
    }

    /// Runs `body` with the connection, no other thread using it meanwhile.
    func locked<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(connection)
    }
}
