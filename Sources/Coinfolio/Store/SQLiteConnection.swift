import CSQLite
import Foundation
import Synchronization

/// One connection to a SQLite file (Debian's libsqlite3). Not thread-safe by itself: its owner
/// serializes calls (`StoreConnection` holds it behind its lock).
final class SQLiteConnection: Database {
    let kind = DatabaseKind.sqlite
    private var handle: OpaquePointer?
    /// Prepared statements by SQL, each with the storage its text parameters are bound from
    /// (dropped after the statement is finalized).
    private var statements: [String: (handle: OpaquePointer, text: SQLiteBoundText)] = [:]

    /// How long, in seconds, a statement waits for another connection's lock (SQLite's busy
    /// timeout, `database_timeout`) before it fails busy.
    let busyTimeout: Double
    /// The connection's busy handler: waits at most `busyTimeout` and says when it gave up.
    private let busyWait: BusyWait
    /// How many times a statement SQLite reports busy without waiting (a WAL snapshot that went
    /// stale, a WAL being recovered) is tried again.
    static let busyRetries = 5

    /// Opens (creating) the file. `":memory:"` gives a private in-memory database.
    /// - Parameter busyTimeout: seconds a statement waits for another connection's lock
    ///   (`database_timeout`).
    /// - Throws: `.store` with SQLite's message. A path starting with `file:` (an SQLite URI) is
    ///   refused before this by `DatabaseLocation.check`.
    init(path: String, busyTimeout: Double = DatabaseTimeout.defaultSeconds) throws {
        self.busyTimeout = busyTimeout
        busyWait = BusyWait(timeout: busyTimeout)
        Self.createOwnerOnly(path)
        try Self.refuseSpecialFile(path)
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw CoinfolioError(
                .store, "cannot open database \"\(path)\": \(message)",
                details: [.sqliteCode: .number(Double(rc))])
        }
        handle = db
        Self.openCount.add(1, ordering: .relaxed)
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_handler(
            db,
            { context, count in
                guard let context else { return 0 }
                return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().shouldWait(after: count)
            }, Unmanaged.passUnretained(busyWait).toOpaque())
    }

    deinit { close() }

    /// Creates `path` empty and owner-only when it does not exist yet (an empty file is a new
    /// SQLite database; `OwnerOnlyFile.create`, which follows a dangling symbolic link to create
    /// its target 0600 instead of SQLite creating it with the umask's mode); an existing file
    /// keeps its owner's mode. A file that cannot be made is left to SQLite's open, which says why.
    /// SQLite gives the `-wal` and `-shm` files the main file's mode.
    static func createOwnerOnly(_ path: String) {
        guard path != ":memory:", !path.isEmpty, let fd = OwnerOnlyFile.create(path) else { return }
        _ = Foundation.close(fd)
    }

    /// Refuses a path that is (or links to) a device, pipe or socket: SQLite would fail on it
    /// only after making its journal beside it (`/dev/null-journal`, with the device's mode).
    /// - Throws: `.store` saying so. A missing path or a folder is left to SQLite's open.
    static func refuseSpecialFile(_ path: String) throws {
        guard path != ":memory:", !path.isEmpty, FileKind(path: path) == .special else { return }
        throw CoinfolioError(.store, "cannot open database \"\(path)\": it is not a regular file (a device, pipe or socket)")
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement.handle) }
        statements.removeAll()
        if let handle {
            sqlite3_close_v2(handle)
            Self.openCount.subtract(1, ordering: .relaxed)
        }
        handle = nil
    }

    // MARK: - Memory between calls

    /// SQLite connections open in this process.
    private static let openCount = Atomic<Int>(0)

    /// The most connections that keep their caches between calls. A connection's page cache (a
    /// first allocation of 20 pages, about 87 KB, then the pages it read: 100 KB and more) and
    /// its prepared statements (1–3 KB each, 25 KB after a refresh) are most of what an engine
    /// handle costs; a service holding one engine per user (SPEC §20) has thousands. Past this
    /// many, each call ends by giving both back (`sqlite3_db_release_memory`, the statements
    /// finalized), and the next reads its pages again from the operating system's cache and
    /// prepares its statements again: some microseconds a call, for about 20 KB a connection
    /// instead of 150.
    static let cachingConnections = 16

    /// Whether connections keep their page cache between calls now (few are open).
    static var keepsCachesBetweenCalls: Bool { openCount.load(ordering: .relaxed) <= cachingConnections }

    func releaseMemory() {
        for statement in statements.values { sqlite3_finalize(statement.handle) }
        statements.removeAll()
        if let handle { sqlite3_db_release_memory(handle) }
    }

    private func db() throws -> OpaquePointer {
        guard let handle else { throw CoinfolioError(.store, "the database is closed") }
        return handle
    }

    func error(_ rc: Int32, _ context: String) -> CoinfolioError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return CoinfolioError(.store, "\(context): \(message)", details: [.sqliteCode: .number(Double(rc))])
    }

    /// Runs SQL without results (several statements allowed), retrying while the file is busy.
    func execute(_ sql: String) throws {
        let db = try db()
        try retryingBusy {
            sqlite3_exec(db, sql, nil, nil, nil)
        } context: {
            "cannot run \"\(sql.prefix(40))\""
        }
    }

    /// A cached prepared statement, reset and cleared for new bindings.
    func statement(_ sql: String) throws -> any DatabaseStatement { try prepared(sql) }

    /// A cached prepared statement, reset and cleared for new bindings.
    func prepared(_ sql: String) throws -> SQLiteStatement {
        let db = try db()
        if let cached = statements[sql] {
            sqlite3_reset(cached.handle)
            sqlite3_clear_bindings(cached.handle)
            cached.text.cleared()
            return SQLiteStatement(handle: cached.handle, connection: self, boundText: cached.text)
        }
        var prepared: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard rc == SQLITE_OK, let prepared else { throw error(rc, "cannot prepare \"\(sql.prefix(40))\"") }
        let text = SQLiteBoundText(parameters: sqlite3_bind_parameter_count(prepared))
        statements[sql] = (prepared, text)
        return SQLiteStatement(handle: prepared, connection: self, boundText: text)
    }

    /// Calls `body` again while it answers a busy code SQLite gives without waiting
    /// (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_BUSY_RECOVERY`, `SQLITE_LOCKED`, or a plain `SQLITE_BUSY`
    /// SQLite returns without calling the busy handler, as `PRAGMA journal_mode = WAL` does while
    /// another connection opens the same new file), at most `busyRetries` times. A plain
    /// `SQLITE_BUSY` after the busy handler gave up (it waited `busyTimeout`) is not tried again,
    /// so a statement waits for another connection's lock at most `busyTimeout` (and the short
    /// pauses between retries). No clock is read here: `next()` calls this for every row.
    func retryingBusy(_ body: () -> Int32, context: () -> String) throws {
        var attempt = 0
        while true {
            busyWait.expired = false
            let rc = body()
            busyWait.bound = nil
            if rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW { return }
            let primary = rc & 0xFF
            if primary == SQLITE_BUSY || primary == SQLITE_LOCKED, !busyWait.expired, attempt < Self.busyRetries {
                attempt += 1
                usleep(UInt32(10_000 * attempt))
                continue
            }
            throw error(rc, context())
        }
    }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT (SQLite has one writer at a time, so every
    /// write transaction is serializable); rolls back when it throws.
    /// - Throws: also `.store` (`details.sqlite_code` 1032, SQLITE_READONLY_DBMOVED) when the file
    ///   was deleted, moved or replaced since it was opened: a write would go into a file nobody
    ///   opens again and vanish at close, so nothing is written.
    /// BEGIN and COMMIT are cached prepared statements (as every other statement is): no parse of
    /// their text per write.
    func transaction<T>(_ isolation: TransactionIsolation, _ body: () throws -> T) throws -> T {
        try prepared("BEGIN IMMEDIATE").run("cannot run \"BEGIN IMMEDIATE\"")
        do {
            try checkFileNotMoved()
            let result = try body()
            try prepared("COMMIT").run("cannot run \"COMMIT\"")
            return result
        } catch {
            if let handle, sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    func boundNextWait(by deadline: ContinuousClock.Instant) { busyWait.bound = deadline }

    /// SQLite's extended code SQLITE_READONLY_DBMOVED (a macro Swift does not import).
    static let readonlyDatabaseMoved: Int32 = 1032

    /// Throws `.store` when the file at the opened path is no longer the one this connection
    /// has open (deleted, renamed, or another file put in its place): one stat of the path.
    private func checkFileNotMoved() throws {
        guard let handle else { return }
        var moved: Int32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 else { return }
        throw CoinfolioError(
            .store,
            "the database file was deleted, moved or replaced since it was opened: nothing was written (open it again)",
            details: [.sqliteCode: .number(Double(Self.readonlyDatabaseMoved))])
    }

    // MARK: - What SQLite spells or does its own way

    /// The WAL journal and `synchronous=FULL`: every write that returns is durable, and readers
    /// never wait for the writer.
    func prepareForUse() throws {
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = FULL")
    }

    /// `BEGIN IMMEDIATE`: SQLite has one writer at a time, so every owner's writes run one after another.
    func ownerTransaction<T>(owner: String, _ body: () throws -> T) throws -> T {
        try transaction(.serializable, body)
    }

    /// `BEGIN IMMEDIATE`: the file's write lock is the market lock of every currency (SPEC §20).
    func marketTransaction<T>(vsCurrency: String, _ body: () throws -> T) throws -> T {
        try transaction(.serializable, body)
    }

    func jsonArrayElements(parameter: Int) -> String { "json_each(?\(parameter))" }

    /// Empty: the id is the connection's (`insertedID`), no per-row RETURNING table.
    let returningInsertedID = ""

    /// Steps the INSERT (the same busy retries and error as a first `next()`): nil when it
    /// changed no row, else `sqlite3_last_insert_rowid` (the ledger has no triggers to move it).
    func insertedID(_ statement: any DatabaseStatement) throws -> Int64? {
        guard try statement.run("cannot read") > 0 else { return nil }
        return sqlite3_last_insert_rowid(try db())
    }

    /// `PRAGMA cache_size = -largeWriteCacheKiB` for `body`, the connection's own size after.
    func withLargeWriteCache<T>(_ body: () throws -> T) throws -> T {
        let read = try prepared("PRAGMA cache_size")
        let previous = try read.next() ? read.int64(0) : -2000
        read.reset()
        try execute("PRAGMA cache_size = -\(largeWriteCacheKiB)")
        defer { try? execute("PRAGMA cache_size = \(previous)") }
        return try body()
    }

    /// `PRAGMA data_version` and `sqlite3_total_changes64` (`Database.changeStamp()`).
    func changeStamp() throws -> DatabaseChangeStamp? {
        let read = try prepared("PRAGMA data_version")
        defer { read.reset() }
        guard try read.next() else { return nil }
        return DatabaseChangeStamp(othersCommits: read.int64(0), ownChanges: sqlite3_total_changes64(try db()))
    }

    /// Always: SQLite keeps the text as sent, never parsed (no compression on write).
    let savesSparklineText = true

    /// Nothing to do: the migration's write transaction (`BEGIN IMMEDIATE`) already excludes
    /// every other writer, and the version lives in the file's header.
    func lockSchema() throws {}

    func schemaVersion() throws -> Int { try prepared("PRAGMA user_version").scalarInt() ?? 0 }

    func setSchemaVersion(_ version: Int) throws { try execute("PRAGMA user_version = \(version)") }
}
