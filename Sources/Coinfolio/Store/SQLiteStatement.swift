import CSQLite
import Foundation

/// A prepared statement of a `SQLiteConnection`, borrowed from the connection's cache.
struct SQLiteStatement: DatabaseStatement {
    let handle: OpaquePointer
    let connection: SQLiteConnection
    /// The statement's own copies of its text parameters, bound in place (`SQLiteBoundText`).
    let boundText: SQLiteBoundText

    /// Binds the string's UTF-8, copied into the statement's own storage (no C string made, no
    /// SQLite allocation for each bind).
    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in boundText.bind(handle, index, UnsafeRawBufferPointer(bytes)) }
    }
    func bind(_ index: Int32, _ value: Double) {
        boundText.bound(index)
        sqlite3_bind_double(handle, index, value)
    }
    func bind(_ index: Int32, _ value: Int) {
        boundText.bound(index)
        sqlite3_bind_int64(handle, index, Int64(value))
    }
    func bind(_ index: Int32, _ value: Int64) {
        boundText.bound(index)
        sqlite3_bind_int64(handle, index, value)
    }
    func bind(_ index: Int32, _ text: String?) {
        if let text { bind(index, text) } else { boundText.bindNull(handle, index) }
    }
    /// The decimal's text from the stack, copied into the statement's storage (no String in between).
    func bind(_ index: Int32, _ value: ExactDecimal?) {
        guard let value else {
            boundText.bindNull(handle, index)
            return
        }
        value.withText { bytes in boundText.bind(handle, index, UnsafeRawBufferPointer(bytes)) }
    }
    /// Binds a blob without copying it (SQLITE_STATIC): `bytes` must stay valid until the
    /// statement has run, so bind and run inside the buffer's `withUnsafeBytes`.
    func bind(_ index: Int32, borrowing bytes: UnsafeRawBufferPointer?) {
        guard let bytes else {
            boundText.bindNull(handle, index)
            return
        }
        boundText.bound(index)
        // A zero-length blob still needs a non-NULL pointer, or SQLite stores NULL.
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), nil)
    }

    /// Steps a statement that returns no rows, retrying while busy.
    /// - Returns: how many rows it inserted, updated or deleted.
    @discardableResult
    func run(_ context: @autoclosure () -> String) throws -> Int {
        try connection.retryingBusy(
            {
                let rc = sqlite3_step(handle)
                if rc != SQLITE_DONE && rc != SQLITE_ROW { sqlite3_reset(handle) }
                return rc
            }, context: context)
        sqlite3_reset(handle)
        return Int(sqlite3_changes(sqlite3_db_handle(handle)))
    }

    /// Steps once: true when a row is ready.
    func next() throws -> Bool {
        if sqlite3_stmt_busy(handle) != 0 {
            // Past its first row a statement already holds the read it needs (WAL: its snapshot is
            // taken on the first step), so the later steps wait for no lock: no busy-wait setup for
            // each row (a report reads hundreds of thousands of points).
            let rc = sqlite3_step(handle)
            if rc == SQLITE_ROW { return true }
            if rc == SQLITE_DONE { return false }
            sqlite3_reset(handle)
            throw connection.error(rc, "cannot read")
        }
        var result = false
        try connection.retryingBusy(
            {
                let rc = sqlite3_step(handle)
                result = rc == SQLITE_ROW
                if rc != SQLITE_DONE && rc != SQLITE_ROW { sqlite3_reset(handle) }
                return rc
            }, context: { "cannot read" })
        return result
    }

    /// Ends the statement's read (a statement left on a row holds a read transaction open).
    func reset() { sqlite3_reset(handle) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    /// A text column's bytes in place (valid until the next step), empty for NULL.
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let pointer = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func blob(_ column: Int32) -> Data? {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer = sqlite3_column_blob(handle, column) else { return isNull(column) ? nil : Data() }
        return Data(bytes: pointer, count: count)
    }
}
