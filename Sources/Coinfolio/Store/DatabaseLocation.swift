/// What a `database` setting names, and the connection to it: a `postgresql://` or
/// `postgres://` URL is a PostgreSQL server, `":memory:"` a private in-memory SQLite database,
/// anything else a SQLite file path. The rules every setting is checked by live here.
enum DatabaseLocation {
    /// Whether `location` names a PostgreSQL server (`PostgresURL.hasSupportedScheme`).
    static func isPostgres(_ location: String) -> Bool { PostgresURL.hasSupportedScheme(location) }

    /// The SQLite file `location` names: nil for `":memory:"`, a PostgreSQL URL, or a setting
    /// `check` refuses (never a path to create anything at).
    static func filePath(_ location: String) -> String? {
        guard location != ":memory:", !isPostgres(location), (try? check(location)) != nil else { return nil }
        return location
    }

    /// Refuses a setting that is no database Coinfolio opens.
    /// - Throws: `.invalidArgument`: an empty setting or one with a NUL; one starting with
    ///   `file:` (an SQLite URI, which Debian's SQLite would open with the umask's mode:
    ///   `details.reason` "sqlite_uri"); any other one holding `://` that is not a supported URL
    ///   (`postgresql+psycopg2://…`, `jdbc:postgresql://…`, a space before the scheme:
    ///   `details.reason` "unsupported_url", never taken for a file path). Messages show the
    ///   setting without anything between its `//` and its host.
    static func check(_ location: String) throws {
        guard !location.isEmpty else { throw CoinfolioError.invalid("database path is empty") }
        guard !location.utf8.contains(0) else { throw CoinfolioError.invalid("database path contains a NUL character") }
        // Debian's SQLite reads a name starting with "file:" as a URI (SQLITE_USE_URI):
        // "file:data.sqlite" opened data.sqlite created with the umask's mode (0644), not 0600,
        // beside an empty "file:data.sqlite" made here, and "file::memory:" was a private
        // in-memory database that `isPrivateInMemory` did not know. Paths only; "./file:…"
        // names a file of that name.
        if location.hasPrefix("file:") {
            throw CoinfolioError(
                .invalidArgument,
                "database \"\(PostgresURL.redactedURL(location))\" is an SQLite URI, which is not taken: give a file path "
                    + "(./\(PostgresURL.redactedURL(location)) for a file of that name) or \":memory:\"",
                reason: .sqliteURI)
        }
        if location.contains("://"), !isPostgres(location) {
            throw CoinfolioError(
                .invalidArgument,
                "database \"\(PostgresURL.redactedURL(location))\" is not a URL Coinfolio opens: give a postgresql:// "
                    + "(or postgres://) URL with nothing before its scheme, a file path, or \":memory:\"",
                reason: .unsupportedURL, details: [.field: .string("database")])
        }
    }

    /// A connection to `location`, checked first (`check`).
    /// - Parameter timeout: `database_timeout`, seconds: the bound of each PostgreSQL round trip,
    ///   or SQLite's busy timeout.
    /// - Throws: `.invalidArgument` (`check`); `.store` with the server's message (never the password).
    static func open(_ location: String, timeout: Double = DatabaseTimeout.defaultSeconds) throws -> any Database {
        try check(location)
        if isPostgres(location) {
            #if PostgreSQL
                return try PostgresConnection(url: location, timeout: timeout)
            #else
                throw CoinfolioError(
                    .invalidArgument,
                    "database \"\(PostgresURL.redactedURL(location))\" is a PostgreSQL URL, and this build of Coinfolio has no PostgreSQL "
                        + "(its PostgreSQL trait is off): give an SQLite file path or \":memory:\"",
                    reason: .postgresDisabled)
            #endif
        }
        return try SQLiteConnection(path: location, busyTimeout: timeout)
    }
}
