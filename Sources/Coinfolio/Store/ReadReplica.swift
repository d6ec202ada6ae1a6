import Foundation
import Synchronization

/// Reads on a hot standby (`read_database`, SPEC §20): a handle's reads go to the standby, its
/// writes to the primary, and it always sees what it wrote. After each of its writes the handle
/// notes the primary's WAL insert position (`pg_current_wal_insert_lsn()`, past the write's
/// commit record); until the standby has replayed that far (`pg_last_wal_replay_lsn()`, one
/// round trip on the standby before each read meanwhile), reads go to the primary. While the
/// standby cannot be reached — it refuses the connection, a read on it fails — reads go to the
/// primary, and the standby is tried again `retryAfter` seconds later; a call fails only when
/// the primary fails too.
///
/// The connection is used only under the `StoreConnection`'s gate; the awaited position is kept
/// behind its own lock, since the refresh's connection (`MarketLock`) notes its writes too.
final class ReadReplica: @unchecked Sendable {
    /// The standby's URL.
    private let url: String
    /// `database_timeout`, seconds: the bound of each round trip on the standby.
    private let timeout: Double
    /// The standby's connection (nil until the first read, and after a failure).
    private var connection: (any Database)?
    /// The primary's WAL position after this handle's last write, while the standby has not been
    /// seen past it (text: PostgreSQL's `pg_lsn`); and until when reads skip the standby.
    private let state = Mutex<(awaited: String?, downUntil: ContinuousClock.Instant?)>((nil, nil))

    /// How long reads go to the primary after the standby failed, in seconds.
    static let retryAfter: Double = 5

    /// - Throws: `.invalidArgument` (`details.field` "read_database") when `url` is no
    ///   PostgreSQL URL or `primary` is not a PostgreSQL server.
    init(url: String, primary: String, timeout: Double) throws {
        guard DatabaseLocation.isPostgres(primary) else {
            throw CoinfolioError(
                .invalidArgument, "read_database is a hot standby of a PostgreSQL database; database is a SQLite file",
                details: [.field: .string("read_database")])
        }
        guard DatabaseLocation.isPostgres(url) else {
            throw CoinfolioError(
                .invalidArgument,
                "read_database \"\(PostgresURL.redactedURL(url))\" is not a postgresql:// (or postgres://) URL",
                details: [.field: .string("read_database")])
        }
        self.url = url
        self.timeout = timeout
    }

    /// The standby to read from now, or nil: read the primary (the standby is down, or has not
    /// replayed this handle's last write yet).
    func readable() -> (any Database)? {
        let (awaited, downUntil) = state.withLock { $0 }
        if let downUntil, ContinuousClock.now < downUntil { return nil }
        do {
            let standby = try connection ?? DatabaseLocation.open(url, timeout: timeout)
            connection = standby
            guard let awaited else { return standby }
            let replayed = try standby.statement("SELECT pg_last_wal_replay_lsn() >= CAST(?1 AS pg_lsn)")
            replayed.bind(1, awaited)
            guard try replayed.scalarInt() == 1 else { return nil }
            state.withLock { if $0.awaited == awaited { $0.awaited = nil } }
            return standby
        } catch {
            failed()
            return nil
        }
    }

    /// After a read on the standby failed: reads go to the primary for `retryAfter` seconds.
    func failed() {
        connection?.close()
        connection = nil
        state.withLock { $0.downUntil = Self.retryTime() }
    }

    private static func retryTime() -> ContinuousClock.Instant { .now + .milliseconds(Int64(retryAfter * 1000)) }

    /// After a write committed on `primary`: reads go there until the standby has replayed it.
    /// When the position cannot be read, reads go to the primary until the standby is seen past
    /// any later write (and at least `retryAfter` seconds).
    func noteWrite(on primary: any Database) {
        let statement = try? primary.statement("SELECT CAST(pg_current_wal_insert_lsn() AS text)")
        let position = try? statement.flatMap { statement -> String? in
            defer { statement.reset() }
            return try statement.next() ? statement.text(0) : nil
        }
        state.withLock { state in
            if let position { state.awaited = position } else { state.downUntil = Self.retryTime() }
        }
    }

    func close() {
        connection?.close()
        connection = nil
    }
}
