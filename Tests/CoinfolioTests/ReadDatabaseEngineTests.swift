#if PostgreSQL
    import Foundation
    import XCTest

    @testable import Coinfolio

    /// `read_database` (SPEC §20) against the test cluster's real streaming standby (`pg_basebackup
    /// -R`, Tests/postgres/standby.sh): reads go to the standby, a handle sees its own writes at
    /// once, and reads fail over to the primary while the standby is down. Runs in both PostgreSQL
    /// passes (directly and through pgbouncer); the SQLite pass checks the refusal.
    final class ReadDatabaseEngineTests: XCTestCase {
        private func standbyURL() throws -> String {
            guard let url = ProcessInfo.processInfo.environment["COINFOLIO_TEST_STANDBY_URL"], !url.isEmpty else {
                throw CoinfolioError(.internalError, "COINFOLIO_TEST_STANDBY_URL is not set: run the suites through make test")
            }
            return url
        }

        private func engine(_ database: TestDatabase, owner: String? = nil, readDatabase: String?) throws -> PortfolioEngine {
            try PortfolioEngine(
                configuration: EngineConfiguration(
                    database: database.location, owner: owner ?? database.owner, databaseTimeout: 5,
                    api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0), readDatabase: readDatabase))
        }

        /// Runs SQL on the standby directly (pausing or resuming its replay).
        private func onStandby(_ sql: String) throws {
            let standby = try PostgresConnection(url: try standbyURL())
            defer { standby.close() }
            try standby.execute(sql)
        }

        /// Waits until the standby has replayed all the WAL the primary had when called (its insert
        /// position): past every write so far, and so past the position each handle noted after
        /// its own last write. Seeing the rows is not enough: a handle notes the insert position read
        /// after its commit, which other WAL written meanwhile (or the header of a page that the
        /// commit record just filled) puts past that record, so a standby can show the rows and
        /// still be short of it — and paused there, the handle would read the primary.
        private func waitForStandby(_ database: TestDatabase) throws {
            let primary = try PostgresConnection(url: database.location)
            defer { primary.close() }
            let insert = try primary.statement("SELECT CAST(pg_current_wal_insert_lsn() AS text)")
            guard try insert.next(), let position = insert.text(0) else {
                XCTFail("the primary's WAL insert position")
                return
            }
            let standby = try PostgresConnection(url: try standbyURL())
            defer { standby.close() }
            // Most often at once; after a commit that ended a page, the next WAL record (the
            // background writer logs one within 15 s) takes the standby past the position.
            for _ in 0..<1200 {
                let replayed = try standby.statement("SELECT pg_last_wal_replay_lsn() >= CAST(?1 AS pg_lsn)")
                replayed.bind(1, position)
                if try replayed.scalarInt() == 1 { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            XCTFail("the standby did not replay the primary's WAL up to \(position) in 60 s")
        }

        /// Runs Tests/postgres/standby.sh `command` on the test cluster's standby.
        private func standby(_ command: String) throws {
            guard let folder = ProcessInfo.processInfo.environment["COINFOLIO_TEST_POSTGRES_DIR"] else {
                throw CoinfolioError(.internalError, "COINFOLIO_TEST_POSTGRES_DIR is not set: run the suites through make test")
            }
            let process = Process()
            process.executableURL = Repository.root.appendingPathComponent("Tests/postgres/standby.sh")
            process.arguments = [command, folder]
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "standby.sh \(command)")
        }

        func testReadDatabaseBesideASQLiteFileIsRefused() throws {
            let path = try temporaryDirectory(self).appendingPathComponent("read.sqlite").path
            for readDatabase in ["postgresql://coinfolio@127.0.0.1:9/coinfolio", path] {
                let error = assertThrows(.invalidArgument) {
                    try self.engine(TestDatabase(location: path, owner: "default"), readDatabase: readDatabase)
                }
                XCTAssertEqual(error?.details["field"], .string("read_database"))
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing was created")
            let configuration = try EngineConfiguration(json: #"{"database":"\#(path)","read_database":"postgres://h/db"}"#)
            XCTAssertEqual(configuration.readDatabase, "postgres://h/db")
        }

        /// With the standby's replay paused, another handle's new row is not seen (reads go to the
        /// standby), while this handle's own write is seen at once (its reads go to the primary until
        /// the standby has replayed it); once replay resumes, reads are the standby's again.
        func testAHandleReadingFromTheStandbySeesItsOwnWriteAtOnce() throws {
            try XCTSkipUnless(TestDatabase.isPostgres, "a PostgreSQL pass")
            let database = try TestDatabase.fresh(self)
            try waitForStandby(database)  // the emptied (or just made) tables, before a handle reads there
            let reader = try engine(database, readDatabase: try standbyURL())
            let writer = try engine(database, owner: database.owner, readDatabase: nil)
            try writer.setHolding(coinID: "bitcoin", amount: 1)
            try waitForStandby(database)  // replay runs a few milliseconds behind
            try onStandby("SELECT pg_wal_replay_pause()")
            defer { try? onStandby("SELECT pg_wal_replay_resume()") }
            try writer.setHolding(coinID: "ethereum", amount: 2)
            XCTAssertEqual(try reader.portfolio().entries.map(\.coinID), ["bitcoin"], "read on the paused standby")
            try reader.setHolding(coinID: "dogecoin", amount: 3)
            XCTAssertEqual(
                try reader.portfolio().entries.map(\.coinID).sorted(), ["bitcoin", "dogecoin", "ethereum"],
                "its own write: read on the primary")
            XCTAssertEqual(try reader.transactions().total, 3)
            try onStandby("SELECT pg_wal_replay_resume()")
            try waitForStandby(database)
            try onStandby("SELECT pg_wal_replay_pause()")
            try writer.setHolding(coinID: "tether", amount: 4)
            XCTAssertEqual(try reader.portfolio().entries.count, 3, "caught up: reads are the standby's again")
        }

        /// Prices of the past (SPEC §17) are read where the ledger is: with replay paused, another
        /// handle's manual price is not seen (read on the standby), this handle's own at once (read on
        /// the primary until the standby has replayed it), the other's with it.
        func testPricesAreReadOnTheStandbyAndAHandleSeesItsOwnPriceAtOnce() throws {
            try XCTSkipUnless(TestDatabase.isPostgres, "a PostgreSQL pass")
            let database = try TestDatabase.fresh(self)
            try waitForStandby(database)  // the emptied (or just made) tables, before a handle reads there
            let reader = try engine(database, readDatabase: try standbyURL())
            let writer = try engine(database, owner: database.owner, readDatabase: nil)
            defer {
                reader.close()
                writer.close()
            }
            try writer.setHolding(coinID: "bitcoin", amount: 1)
            try waitForStandby(database)
            try onStandby("SELECT pg_wal_replay_pause()")
            defer { try? onStandby("SELECT pg_wal_replay_resume()") }
            try writer.setPrice(json: #"{"coin_id":"tether","timestamp":"2024-03-01T12:00:00Z","price":"1.5"}"#)
            let tether = try PriceQuery(json: #"{"coin_id":"tether","timestamp":"2024-03-01T18:00:00Z"}"#)
            let error = assertThrows(.noData) { try reader.priceAt(tether, fetch: false) }
            XCTAssertEqual(error?.details["reason"], .string("no_point"), "read on the paused standby")
            try reader.setPrice(json: #"{"coin_id":"usd-coin","timestamp":"2024-03-01T12:00:00Z","price":"0.99"}"#)
            let usdc = try PriceQuery(json: #"{"coin_id":"usd-coin","timestamp":"2024-03-01T18:00:00Z"}"#)
            XCTAssertEqual(try reader.priceAt(usdc, fetch: false).price, 0.99, "its own write: read on the primary")
            XCTAssertEqual(try reader.priceAt(tether, fetch: false).price, 1.5)
        }

        func testReadsFailOverToThePrimaryWhileTheStandbyIsDown() throws {
            try XCTSkipUnless(TestDatabase.isPostgres, "a PostgreSQL pass")
            let database = try TestDatabase.fresh(self)
            try waitForStandby(database)  // the emptied (or just made) tables, before a handle reads there
            let reader = try engine(database, readDatabase: try standbyURL())
            try reader.setHolding(coinID: "bitcoin", amount: 1)
            try reader.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
            try standby("stop")
            defer { try? standby("restart") }
            let writer = try engine(database, readDatabase: nil)
            try writer.setHolding(coinID: "ethereum", amount: 2)
            XCTAssertEqual(try reader.portfolio().entries.map(\.coinID).sorted(), ["bitcoin", "ethereum"], "read on the primary")
            XCTAssertEqual(try reader.transactions().total, 2)
            XCTAssertEqual(try engine(database, readDatabase: try standbyURL()).coins().total, 12, "an engine opened meanwhile")
            // A standby that never answers (a closed port) is the same.
            let closed = try engine(database, readDatabase: "postgresql://coinfolio@127.0.0.1:9/coinfolio")
            XCTAssertEqual(try closed.portfolio().entries.count, 2)
            try standby("restart")
            // Restarted, the standby answers before it has streamed the write made while it was
            // down; a check started 5 s after the failure reads it (a slow restart), so wait.
            try waitForStandby(database)
            XCTAssertEqual(try reader.portfolio().entries.count, 2, "the standby back")
        }
    }
#endif  // PostgreSQL
