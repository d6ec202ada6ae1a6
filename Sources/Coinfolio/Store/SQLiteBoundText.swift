import CSQLite
import Foundation

/// The text a statement's parameters are bound to, kept by the statement itself so SQLite binds
/// it in place (`SQLITE_STATIC`) instead of copying it into a buffer of its own each bind (a
/// malloc and a free a parameter, ten or more a ledger row).
///
/// One buffer per parameter: a parameter's bytes are written only by the next bind of that same
/// parameter, right before the `sqlite3_bind_text` that replaces SQLite's pointer to them (a
/// buffer that must grow is freed only after that bind), and every buffer lives until the
/// statement is finalized (the cache drops this after `sqlite3_finalize`). So SQLite never reads
/// changed or freed memory, and a parameter not bound again keeps its text, as with a copy.
///
/// A parameter bound again to the same bytes it holds from the bind before (an import's
/// portfolio, owner, kind and price source, row after row) is left as it is: SQLite would get
/// the same text at the same address, and its bind locks the connection and resets the value.
final class SQLiteBoundText {
    private var buffers: UnsafeMutablePointer<UnsafeMutableRawBufferPointer>
    /// Whether a parameter is known to be NULL: set by a `bindNull` SQLite accepted, cleared by
    /// every other bind through this statement (false is "not known", never wrong).
    private var null: UnsafeMutablePointer<Bool>
    /// How many bytes of its buffer a parameter is bound to, from a `bind` SQLite accepted; -1
    /// when it is not known to be bound to its buffer (never bound so, bound to something else
    /// since, or cleared).
    private var textCount: UnsafeMutablePointer<Int>
    private let count: Int

    /// Storage for a statement with `parameters` parameters (`sqlite3_bind_parameter_count`).
    init(parameters: Int32) {
        count = Int(max(parameters, 0)) + 1
        buffers = .allocate(capacity: count)
        buffers.initialize(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0), count: count)
        null = .allocate(capacity: count)
        null.initialize(repeating: false, count: count)
        textCount = .allocate(capacity: count)
        textCount.initialize(repeating: -1, count: count)
    }

    deinit {
        for i in 0..<count { buffers[i].deallocate() }
        buffers.deallocate()
        null.deallocate()
        textCount.deallocate()
    }

    /// Notes that every parameter was set to NULL by `sqlite3_clear_bindings`.
    func cleared() {
        for i in 0..<count { textCount[i] = -1 }
    }

    /// Binds NULL to parameter `index`, unless it already holds NULL from a bind before (an
    /// import binds the same NULLs row after row; SQLite's bind locks the connection each time).
    func bindNull(_ handle: OpaquePointer, _ index: Int32) {
        let i = Int(index)
        guard i > 0, i < count else {
            sqlite3_bind_null(handle, index)
            return
        }
        textCount[i] = -1
        if null[i] { return }
        null[i] = sqlite3_bind_null(handle, index) == SQLITE_OK
    }

    /// Notes that parameter `index` is being bound to something other than NULL.
    @inline(__always)
    func bound(_ index: Int32) {
        let i = Int(index)
        if i > 0, i < count {
            null[i] = false
            textCount[i] = -1
        }
    }

    /// Binds `bytes` to parameter `index` of `handle` from this storage. An index SQLite does
    /// not have, or a statement still running, is bound from a copy (SQLite refuses either with
    /// `SQLITE_RANGE` or `SQLITE_MISUSE`, as before).
    func bind(_ handle: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        let i = Int(index)
        if i > 0, i < count { null[i] = false }
        // A running statement refuses new bindings (SQLITE_MISUSE) and may still read the old
        // text: leave it alone and let SQLite answer, as before.
        guard i > 0, i < count, sqlite3_stmt_busy(handle) == 0 else {
            if i > 0, i < count { textCount[i] = -1 }
            if let base = bytes.baseAddress, !bytes.isEmpty {
                sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), SQLITE_TRANSIENT_DESTRUCTOR)
            } else {
                sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT_DESTRUCTOR)
            }
            return
        }
        let old = buffers[i]
        // The same bytes as the parameter holds from its last bind: nothing to do.
        if textCount[i] == bytes.count, let held = old.baseAddress,
            bytes.isEmpty || bytes.baseAddress.map({ memcmp(held, $0, bytes.count) == 0 }) == true
        {
            return
        }
        // One byte more than the text: a non-NULL address even for empty text (SQLite binds a
        // NULL pointer as NULL).
        let needed = bytes.count + 1
        var target = old
        if old.count < needed { target = .allocate(byteCount: max(needed, 32), alignment: 1) }
        if let base = bytes.baseAddress, !bytes.isEmpty, let destination = target.baseAddress {
            destination.copyMemory(from: base, byteCount: bytes.count)
        }
        target[bytes.count] = 0
        let rc = sqlite3_bind_text(
            handle, index, target.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
        textCount[i] = rc == SQLITE_OK ? bytes.count : -1
        if target.baseAddress != old.baseAddress {
            buffers[i] = target
            old.deallocate()
        }
    }
}

/// SQLite's "transient" destructor: SQLite copies bound text before the call returns.
let SQLITE_TRANSIENT_DESTRUCTOR = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
