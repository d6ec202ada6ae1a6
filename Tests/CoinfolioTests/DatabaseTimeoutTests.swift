import Foundation
import XCTest

@testable import Coinfolio

/// `database_timeout`: a PostgreSQL server that stops answering (a lock held elsewhere, a frozen
/// process) fails the call with `.store`, `details["reason"]` "timeout", writes nothing, and the
/// next call works once the server answers again; SQLite's busy wait is bounded by the same key;
/// bad values are refused. The PostgreSQL tests need the cluster `make test` starts
/// (`COINFOLIO_TEST_POSTGRES_URL`, `COINFOLIO_TEST_POSTGRES_DIR`); they fail, never skip,
/// without it. No test asserts how long a call took, only that it returned (and, generously,
/// within ten times the bound).
final class DatabaseTimeoutTests: XCTestCase {
    private static let password = "pw-Zebra-7781-quokka"

    private func assertTimedOut(_ error: CoinfolioError?, seconds: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let error else { return XCTFail("no error", file: file, line: line) }
        XCTAssertEqual(error.code, .store, file: file, line: line)
        XCTAssertEqual(error.details["reason"], .string("timeout"), "\(error)", file: file, line: line)
        XCTAssertTrue(error.message.contains("within \(seconds) s (database_timeout)"), error.message, file: file, line: line)
        XCTAssertFalse(error.message.contains("Zebra"), error.message, file: file, line: line)
    }

    // MARK: - Configuration (both backends)

    func testBadDatabaseTimeoutsAreRefused() throws {
        for bad in ["0", "-1", "-0.5", "\"30\"", "true", "[]", "{}"] {
            let store = assertThrows(.invalidArgument) {
                try StoreConfiguration(json: #"{"database":":memory:","database_timeout":\#(bad)}"#)
            }
            XCTAssertEqual(store?.details["field"], .string("database_timeout"), bad)
            let engine = assertThrows(.invalidArgument) { try EngineConfiguration(json: #"{"database_timeout":\#(bad)}"#) }
            XCTAssertEqual(engine?.details["field"], .string("database_timeout"), bad)
        }
        // A number out of a double's range is refused by the JSON reader itself.
        _ = assertThrows(.invalidArgument) { try StoreConfiguration(json: #"{"database":":memory:","database_timeout":1e999}"#) }
        _ = assertThrows(.invalidArgument) { try EngineConfiguration(json: #"{"database_timeout":1e999}"#) }
        for bad in [0, -1, Double.nan, Double.infinity, -Double.infinity] {
            let error = assertThrows(.invalidArgument) { try PortfolioStore(path: ":memory:", databaseTimeout: bad) }
            XCTAssertEqual(error?.details["field"], .string("database_timeout"))
            #if PostgreSQL
                _ = assertThrows(.invalidArgument) { try PostgresConnection(url: "postgresql://nobody@127.0.0.1:1/none", timeout: bad) }
            #endif
        }
    }

    func testDatabaseTimeoutDefaultsToThirtySeconds() throws {
        XCTAssertEqual(try StoreConfiguration(json: #"{"database":":memory:"}"#).databaseTimeout, 30)
        XCTAssertEqual(try StoreConfiguration(json: #"{"database":":memory:","database_timeout":null}"#).databaseTimeout, 30)
        XCTAssertEqual(try StoreConfiguration(json: #"{"database":":memory:","database_timeout":0.5}"#).databaseTimeout, 0.5)
        XCTAssertEqual(try EngineConfiguration(json: nil).databaseTimeout, 30)
        XCTAssertEqual(try EngineConfiguration(json: #"{"database_timeout":2}"#).databaseTimeout, 2)
        XCTAssertEqual(EngineConfiguration(databaseTimeout: -1).databaseTimeout, 30, "the Swift initializer clamps")
        XCTAssertEqual(DatabaseTimeout.defaultSeconds, 30)
    }

    // MARK: - SQLite: the busy wait

    func testSQLiteWaitsForAnotherWritersLockAtMostTheTimeout() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("busy.sqlite").path
        let store = try PortfolioStore(path: path, databaseTimeout: 0.5)
        try store.setHolding(coinID: "bitcoin", amount: 1)
        let holder = try SQLiteConnection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        // The call gives up while the other writer still holds its lock (released only below).
        let error = assertThrows(.store) { try store.setHolding(coinID: "bitcoin", amount: 2) }
        guard case .number(let code)? = error?.details["sqlite_code"] else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(Int(code) & 0xFF, 5, "SQLITE_BUSY")
        try holder.execute("ROLLBACK")
        XCTAssertEqual(try store.holdings().map(\.amount), [1], "nothing written")
        try store.setHolding(coinID: "bitcoin", amount: 2)
        XCTAssertEqual(try store.holdings().map(\.amount), [2])
    }

    #if PostgreSQL
        // MARK: - PostgreSQL: a lock held elsewhere

        func testAnOwnerLockHeldElsewhereTimesOutWritesNothingAndTheNextCallWorks() throws {
            let url = try TestDatabase.postgresURL()
            let owner = "locked-\(UUID().uuidString)"
            let store = try PortfolioStore(path: url, owner: owner, databaseTimeout: 1)
            try store.setHolding(coinID: "bitcoin", amount: 1)
            // Another writer of the same owner, in the middle of its transaction.
            let holder = try PostgresConnection(url: url)
            try holder.execute("BEGIN")
            let lock = try holder.statement(PostgresConnection.ownerLockSQL)
            lock.bind(1, owner)
            _ = try lock.next()
            lock.reset()
            // The call gives up while the lock is still held (released only below), saying why.
            let error = assertThrows(.store) { try store.setHolding(coinID: "bitcoin", amount: 5) }
            assertTimedOut(error, seconds: "1")
            let reader = try PortfolioStore(path: url, owner: owner)
            XCTAssertEqual(try reader.holdings().map(\.amount), [1], "nothing written")
            try holder.execute("ROLLBACK")
            try store.setHolding(coinID: "bitcoin", amount: 5)
            XCTAssertEqual(try reader.holdings().map(\.amount), [5])
            XCTAssertEqual(try store.holdings().map(\.amount), [5])
        }

        func testARowLockHeldElsewhereTimesOutAndTheTransactionWritesNothing() throws {
            let url = try TestDatabase.postgresURL()
            let table = "cf_timeout_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_").lowercased())"
            let setup = try PostgresConnection(url: url)
            try setup.execute("CREATE TABLE \(table) (id INTEGER PRIMARY KEY, v INTEGER NOT NULL); INSERT INTO \(table) VALUES (1, 0)")
            addTeardownBlock { try? setup.execute("DROP TABLE IF EXISTS \(table)") }
            let holder = try PostgresConnection(url: url)
            try holder.execute("BEGIN")
            _ = try holder.statement("SELECT v FROM \(table) WHERE id = 1 FOR UPDATE").scalarInt()
            let writer = try PostgresConnection(url: url, timeout: 1)
            let error = assertThrows(.store) {
                try writer.transaction(.readCommitted) {
                    try writer.statement("INSERT INTO \(table) VALUES (2, 2)").run("insert")
                    try writer.statement("UPDATE \(table) SET v = 1 WHERE id = 1").run("update the locked row")
                }
            }
            assertTimedOut(error, seconds: "1")
            try holder.execute("COMMIT")
            XCTAssertEqual(
                try setup.statement("SELECT count(*) FROM \(table)").scalarInt(), 1, "the insert before the wait was rolled back")
            XCTAssertEqual(try setup.statement("SELECT v FROM \(table) WHERE id = 1").scalarInt(), 0)
            try writer.transaction(.readCommitted) {
                try writer.statement("INSERT INTO \(table) VALUES (2, 2)").run("insert")
                try writer.statement("UPDATE \(table) SET v = 1 WHERE id = 1").run("update")
            }
            XCTAssertEqual(try setup.statement("SELECT sum(v) FROM \(table)").scalarInt(), 3, "the next call reconnected and wrote")
        }

        // MARK: - PostgreSQL: a session ended during COMMIT

        /// A backend that ends while it commits (here by a deferred trigger that terminates its own
        /// session, found as a server killed mid-write by the breaker's trial) leaves the outcome
        /// unknown: the error says so. A refusal at COMMIT with a SQLSTATE (a deferred unique
        /// check, 23505) rolled back and is said as the server said it.
        func testASessionEndedDuringCommitSaysTheOutcomeIsUnknown() throws {
            let url = try TestDatabase.postgresURL()
            let table = "cf_commit_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_").lowercased())"
            let setup = try PostgresConnection(url: url)
            try setup.execute(
                """
                CREATE TABLE \(table) (id INTEGER PRIMARY KEY, v INTEGER UNIQUE DEFERRABLE INITIALLY DEFERRED);
                CREATE FUNCTION \(table)_end() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.id = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NULL; END $$;
                CREATE CONSTRAINT TRIGGER \(table)_at_commit AFTER INSERT ON \(table) DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION \(table)_end()
                """)
            addTeardownBlock { try? setup.execute("DROP TABLE IF EXISTS \(table); DROP FUNCTION IF EXISTS \(table)_end()") }
            let writer = try PostgresConnection(url: url, timeout: 10)
            let ended = assertThrows(.store) {
                try writer.transaction(.readCommitted) { try writer.statement("INSERT INTO \(table) VALUES (1, 1)").run("insert") }
            }
            XCTAssertTrue(ended?.message.contains("whether this write was committed is unknown") == true, ended?.message ?? "")
            XCTAssertEqual(try setup.statement("SELECT count(*) FROM \(table)").scalarInt(), 0, "it ended before its commit")
            let refused = assertThrows(.store) {
                try writer.transaction(.readCommitted) {
                    try writer.statement("INSERT INTO \(table) VALUES (2, 5)").run("insert")
                    try writer.statement("INSERT INTO \(table) VALUES (3, 5)").run("insert")
                }
            }
            XCTAssertEqual(refused?.details["sqlstate"], .string("23505"))
            XCTAssertFalse(refused?.message.contains("unknown") == true, refused?.message ?? "")
            XCTAssertEqual(try setup.statement("SELECT count(*) FROM \(table)").scalarInt(), 0)
        }

        // MARK: - PostgreSQL: a frozen server

        func testAFrozenServerTimesOutWithinTheBoundAndTheNextCallWorks() throws {
            let url = try TestDatabase.postgresURL()
            let owner = "frozen-\(UUID().uuidString)"
            let store = try PortfolioStore(path: url, owner: owner, databaseTimeout: 1)
            try store.setHolding(coinID: "bitcoin", amount: 1)
            let processes = try TestDatabase.clusterProcesses()
            var callError: CoinfolioError?
            var openError: CoinfolioError?
            do {
                // The postmaster first, so that it starts no process that would run on. Both calls
                // return while the whole cluster is still stopped (it goes on only after them).
                for process in processes { kill(process, SIGSTOP) }
                defer { for process in processes { kill(process, SIGCONT) } }
                callError = assertThrows(.store) { try store.setHolding(coinID: "ethereum", amount: 2) }
                openError = assertThrows(.store) { try PortfolioStore(path: url, owner: owner, databaseTimeout: 1) }
            }
            assertTimedOut(callError, seconds: "1")
            assertTimedOut(openError, seconds: "1")
            XCTAssertTrue(openError?.message.contains("postgresql://…@127.0.0.1") ?? false, openError?.message ?? "")
            try store.setHolding(coinID: "ethereum", amount: 2)
            XCTAssertEqual(try store.holdings().map(\.coinID), ["bitcoin", "ethereum"])
        }
    #endif
}
