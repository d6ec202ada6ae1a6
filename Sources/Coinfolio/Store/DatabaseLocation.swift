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
        isPostgres(location) ? PostgresURL.redactedURL(location) : location
    }
}
