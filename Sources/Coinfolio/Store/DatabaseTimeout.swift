import Foundation

/// `database_timeout` (store and engine configs): how long, in seconds, one wait on the database
/// may last before the call gives up with `.store` (`details["reason"]` = "timeout").
///
/// - PostgreSQL: each round trip — connecting (or reconnecting), preparing a statement, running
///   one, `BEGIN`, `COMMIT`, `ROLLBACK` — must be answered within it. When it is not, the query is
///   cancelled, the connection dropped (the next call reconnects), and a transaction it was part
///   of is rolled back by the server: it wrote nothing. The one exception is a `COMMIT` sent
///   whose answer never came: the server may have committed it before it stopped answering.
/// - SQLite: the busy wait for another connection's lock (SQLite's busy timeout) is this long,
///   and no busy statement is retried once it has passed.
/// - Both: a call waiting for its handle (another thread's call is using it) waits at most this
///   long, and its next wait ends when the bound does (`StoreConnection.locked`).
enum DatabaseTimeout {
    /// The bound when a configuration gives none, in seconds.
    static let defaultSeconds: Double = 30

    /// The bound actually waited: a value above this (about 31 years) waits this long, so that
    /// deadlines never overflow.
    static let longestSeconds: Double = 1e9

    /// Checks a configured value: a positive finite number of seconds.
    /// - Throws: `.invalidArgument` with `details["field"]` = "database_timeout".
    static func validate(_ seconds: Double) throws {
        guard seconds.isFinite, seconds > 0 else {
            throw CoinfolioError(
                .invalidArgument, "database_timeout must be a positive number of seconds",
                details: [.field: .string("database_timeout")])
        }
    }

    /// `seconds` as messages show it: "1", "0.5", "30".
    static func text(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? String(Int64(seconds)) : "\(seconds)"
    }

    /// The error of a wait that ran past `seconds`: `.store`, `details["reason"]` = "timeout".
    static func error(_ context: String, _ seconds: Double) -> CoinfolioError {
        CoinfolioError(
            .store, "\(context): the database did not answer within \(text(seconds)) s (database_timeout)",
            reason: .timeout)
    }
}

extension KeyedDecodingContainer {
    /// `database_timeout` of a configuration: nil when absent or null.
    /// - Throws: `.invalidArgument` (`details["field"]` = "database_timeout") for anything but a
    ///   positive finite number.
    func databaseTimeout(_ key: Key) throws -> Double? {
        let value: Double?
        do {
            value = try decodeIfPresent(Double.self, forKey: key)
        } catch {
            value = .nan
        }
        guard let value else { return nil }
        try DatabaseTimeout.validate(value)
        return value
    }
}
