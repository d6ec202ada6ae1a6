import Foundation
import Synchronization

/// The database every store of one engine shares: one connection (a SQLite file opened with the
/// WAL journal and `synchronous=FULL`, or a PostgreSQL server), migrated to
/// `Schema.currentVersion`, used by one call at a time (every use goes through `locked`), and
/// the owner whose rows every statement reads and writes.
///
/// A call that finds the connection in use waits for it, and that wait counts in its
/// `database_timeout`: it waits at most the bound, and its first wait on the database after that
/// (a round trip, SQLite's busy wait) ends when the bound does (`Database.boundNextWait(by:)`).
/// So calls queued behind one on a frozen server each give up after one bound, not one bound for
/// every call ahead of them.
final class StoreConnection: @unchecked Sendable {
    /// The location the database was opened with: a path, `":memory:"`, or a PostgreSQL URL.
    let path: String
    /// The owner of every row this connection reads or writes.
    let owner: String
    /// The server kind.
    let kind: DatabaseKind
    /// `database_timeout`, seconds.
    let timeout: Double
    /// A private SQLite `":memory:"` database: no other connection or process can ever read it,
    /// and it ends with this connection.
    var isPrivateInMemory: Bool { kind == .sqlite && path == ":memory:" }
    /// The connection; used only by the call holding `gate`.
    private let database: any Database
    /// One call at a time (a semaphore rather than a mutex: its wait has a deadline).
    private let gate = DispatchSemaphore(value: 1)
    /// The thread holding `gate` (`ThreadIdentity`), 0 when none: a use of the database from
    /// inside a use on the same thread is refused instead of waiting for itself.
    private let holder = Atomic<UInt>(0)
    /// The hot standby reads go to (`read_database`), nil when there is none.
    private let replica: ReadReplica?

    /// The owner used when none is configured.
    static let defaultOwner = "default"

    /// Opens the database, creating its schema on first use and migrating older ones.
    /// - Parameters:
    ///   - path: a SQLite file path, `":memory:"`, or `postgresql://user[:password]@host[:port]/db[?params]`
    ///     (`postgres://` too).
    ///   - owner: whose rows this connection sees (1–256 bytes, no control characters).
    ///   - timeout: `database_timeout`, seconds (see `DatabaseTimeout`).
    ///   - readLocation: `read_database`, a hot standby of a PostgreSQL `path` that reads go to
    ///     (`ReadReplica`); connected on the first read.
    /// - Throws: `.invalidArgument` for a path `DatabaseLocation.check` refuses (empty, a NUL,
    ///   an SQLite URI, an unsupported URL), a bad owner or timeout, a `readLocation` that is no
    ///   PostgreSQL URL or with a SQLite `path` (`details.field` "read_database");
    ///   `.store` when the database cannot be opened, is not a database, has a newer schema, or
    ///   did not answer within `timeout` (`details["reason"]` "timeout").
    init(
        path: String, owner: String = StoreConnection.defaultOwner, timeout: Double = DatabaseTimeout.defaultSeconds,
        readLocation: String? = nil
    ) throws {
        try DatabaseLocation.check(path)
        try Self.validate(owner: owner)
        try DatabaseTimeout.validate(timeout)
        replica = try readLocation.map { try ReadReplica(url: $0, primary: path, timeout: timeout) }
        self.path = path
        self.owner = owner
        self.timeout = timeout
        let opened = try DatabaseLocation.open(path, timeout: timeout)
        kind = opened.kind
        do {
            try opened.prepareForUse()
            try Schema.migrate(opened)
        } catch {
            opened.close()
            throw error
        }
        database = opened
    }

    /// Checks the owner rule: 1–256 bytes of UTF-8, no control characters.
    /// - Throws: `.invalidArgument` with `details.field` = "owner".
    static func validate(owner: String) throws {
        guard !owner.isEmpty, owner.utf8.count <= 256,
            !owner.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CoinfolioError(
                .invalidArgument, "owner must be 1 to 256 bytes without control characters", details: [.field: .string("owner")])
        }
    }

    /// Closes the database once the call using it (if any) is done. Later calls throw `.store`.
    /// Safe to call twice.
    func close() {
        gate.wait()
        defer { gate.signal() }
        replica?.close()
        database.close()
    }

    /// Runs `body` with the connection, no other call using it meanwhile; `body` may write (with
    /// a hot standby, later reads wait for it to replay what was written: `reading`).
    /// - Parameter reportingProgress: `body` reports progress (a CSV import): a progress handler
    ///   that calls back into this database is refused rather than waiting for itself.
    /// - Throws: `.invalidArgument` (`details.reason` "reentrant") when called from a progress
    ///   handler of work that holds the connection: waiting would never end; `.store`
    ///   (`details.reason` "timeout") when another call kept the connection for all of
    ///   `database_timeout`.
    func locked<T: Sendable>(reportingProgress: Bool = false, _ body: (any Database) throws -> T) throws -> T {
        try holdingGate(reportingProgress: reportingProgress) { database in
            let result = try body(database)
            noteWrite(on: database)
            return result
        }
    }

    /// Runs `body`, which only reads, no other call using the connection meanwhile: on the hot
    /// standby when there is one that has replayed this handle's writes (`ReadReplica`), else —
    /// also when the standby fails — on the database.
    /// - Throws: as `locked`; what `body` throws on the database.
    /// - Parameter streaming: `body` hands what it reads on as it goes (an export): it reads the
    ///   database, which it is never run twice on.
    func reading<T: Sendable>(streaming: Bool = false, _ body: (any Database) throws -> T) throws -> T {
        try holdingGate(reportingProgress: false) { database in
            guard !streaming, let replica, let standby = replica.readable() else { return try body(database) }
            do {
                return try body(standby)
            } catch let error as CoinfolioError where error.code == .store {
                replica.failed()
                return try body(database)
            }
        }
    }

    /// After a write committed on `database` (this connection's, or the refresh's own connection
    /// to the same server): reads wait for the standby to replay it.
    func noteWrite(on database: any Database) {
        replica?.noteWrite(on: database)
    }

    /// The gate and the call's bound; see `locked`.
    private func holdingGate<T: Sendable>(reportingProgress: Bool, _ body: (any Database) throws -> T) throws -> T {
        try WorkInProgress.refuseNested(self, "a call that reads or writes the database")
        // Only this thread ever stores its own identity, so reading it back means this thread
        // holds the gate: waiting would never end (a lookup made inside a write, not through
        // the write's own connection). Refused; the caller that made it is a library bug.
        let thread = ThreadIdentity.current
        guard holder.load(ordering: .relaxed) != thread else {
            throw CoinfolioError(
                .internalError, "the database was used from inside a use of it on the same thread (it would wait for itself)",
                reason: .reentrant)
        }
        let bound = timeout
        let deadline = ContinuousClock.now + .milliseconds(Int64((min(bound, DatabaseTimeout.longestSeconds) * 1000).rounded(.up)))
        guard gate.wait(timeout: .now() + min(bound, DatabaseTimeout.longestSeconds)) == .success else {
            throw DatabaseTimeout.error("another call on this handle kept the database busy", bound)
        }
        holder.store(thread, ordering: .relaxed)
        defer {
            // After each use the connection gives its cache back when many are open.
            if !SQLiteConnection.keepsCachesBetweenCalls { database.releaseMemory() }
            holder.store(0, ordering: .relaxed)
            gate.signal()
        }
        database.boundNextWait(by: deadline)
        guard reportingProgress else { return try body(database) }
        return try WorkInProgress.doing(self) { try body(database) }
    }

    /// `body`, which only reads, on `held`, the database of this connection that the caller
    /// already holds (a lookup inside an import's write: it sees the write's own rows, and
    /// `reading` would refuse it as reentrant); `reading` when nil.
    /// - Throws: what `body` throws; as `reading` when `held` is nil.
    func reading<T: Sendable>(within held: (any Database)?, _ body: (any Database) throws -> T) throws -> T {
        if let held { return try body(held) }
        return try reading(body)
    }
}

/// The calling thread as a number (its `pthread_t`), never 0.
enum ThreadIdentity {
    static var current: UInt {
        #if canImport(Glibc)
            UInt(pthread_self())
        #else
            UInt(bitPattern: pthread_self())
        #endif
    }
}
