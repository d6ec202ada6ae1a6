// The ledger engine of the ledger-side targets (ledger_add, ledger_group, ledger_csv,
// ledger_query and the exchange imports), and the watch that tells whether a call wrote to it.
//
// The engine stores its ledger in a real SQLite file (WAL journal, synchronous=FULL) in
// `scratchFolder`, on tmpfs where there is one, so its fsyncs cost nothing. The harness keeps
// its own connection to that file and reads `PRAGMA data_version` before and after a call: the
// value changes when, and only when, another connection commits to the file. "A refused input
// changes nothing" is checked as "it committed nothing": any written row, not only a changed
// transaction count, is caught, and the check costs one pragma instead of listing portfolios.
import CFuzz
import CSQLite
import Coinfolio
import Foundation

/// The folder of the harness's SQLite files, removed at exit: in /dev/shm where that is a folder
/// we may write (tmpfs), else the temporary folder.
let scratchFolder: URL = {
    let base =
        access("/dev/shm", W_OK | X_OK) == 0 ? URL(fileURLWithPath: "/dev/shm", isDirectory: true) : FileManager.default.temporaryDirectory
    let folder = base.appendingPathComponent("coinfolio-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchFolder) }
    return folder
}()

/// The ledger engine's file.
let ledgerFile = scratchFolder.appendingPathComponent("ledger.sqlite").path

/// An engine on `ledgerFile` holding 2 bitcoin (bought 2024-01-01) in "main", an empty "eur-book"
/// (eur) and an empty "cold" (usd) portfolio; replaced by one on a new file every 256 inputs so
/// the ledger stays small.
nonisolated(unsafe) var ledgerEngine: OpaquePointer?
nonisolated(unsafe) var ledgerUses = 0
/// The harness's own connection to `ledgerFile` (it only reads), and its `PRAGMA data_version`.
nonisolated(unsafe) var ledgerWatch: OpaquePointer?
nonisolated(unsafe) var ledgerVersionStatement: OpaquePointer?

/// The ledger engine for this input (a new one on a new file every 256 inputs).
func freshLedgerEngine() -> OpaquePointer? {
    ledgerUses += 1
    if ledgerEngine != nil, ledgerUses % 256 != 0 { return ledgerEngine }
    sqlite3_finalize(ledgerVersionStatement)
    sqlite3_close(ledgerWatch)
    cf_engine_close(ledgerEngine)
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(ledgerFile + suffix) }
    var handle: OpaquePointer?
    var error: UnsafeMutablePointer<CChar>?
    guard cf_engine_open(#"{"database":"\#(ledgerFile)"}"#, &handle, &error) == 0 else { fatal("cannot open a ledger engine") }
    var out: UnsafeMutablePointer<CChar>?
    let seed = #"{"coin_id":"bitcoin","kind":"buy","amount":"2","price":100,"fee":1,"timestamp":"2024-01-01T00:00:00Z"}"#
    guard cf_engine_add_transaction(handle, seed, &out, &error) == 0,
        cf_engine_create_portfolio(handle, #"{"name":"eur-book","vs_currency":"eur"}"#, &error) == 0,
        cf_engine_create_portfolio(handle, #"{"name":"cold","vs_currency":"usd"}"#, &error) == 0
    else { fatal("cannot seed the ledger engine") }
    cf_string_free(out)
    guard sqlite3_open_v2(ledgerFile, &ledgerWatch, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
        sqlite3_prepare_v2(ledgerWatch, "PRAGMA data_version", -1, &ledgerVersionStatement, nil) == SQLITE_OK
    else { fatal("cannot watch the ledger file") }
    ledgerEngine = handle
    return handle
}

/// The ledger file's `PRAGMA data_version` as the watch sees it: it changes when another
/// connection (the engine's) commits to the file, and only then.
func ledgerVersion() -> Int64 {
    defer { sqlite3_reset(ledgerVersionStatement) }
    guard sqlite3_step(ledgerVersionStatement) == SQLITE_ROW else { fatal("cannot read the ledger's data_version") }
    return sqlite3_column_int64(ledgerVersionStatement, 0)
}

/// Stops the run when a call that should write nothing (`what`) committed to the ledger since
/// `before` (a `ledgerVersion()`).
func expectNoWrite(since before: Int64, _ what: String, _ input: UnsafePointer<CChar>) {
    if ledgerVersion() != before {
        fatal("\(what) changed the ledger: \(String(cString: input).prefix(300).debugDescription)")
    }
}

/// Stops the run when a call that wrote a row (`what`, accepted) is not seen by the watch: the
/// check the other oracles rely on.
func expectWrite(since before: Int64, _ what: String) {
    if ledgerVersion() == before { fatal("the watch did not see \(what) write to the ledger") }
}
