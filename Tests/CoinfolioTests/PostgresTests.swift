#if PostgreSQL
    import Foundation
    import Synchronization
    import XCTest

    @testable import Coinfolio

    /// SPEC §13: owners on both backends, and what only a PostgreSQL server can show: the password
    /// kept out of messages, reconnecting after a restart, migrations racing on a fresh database,
    /// serializable transactions retried. Needs the cluster `make test` starts
    /// (`COINFOLIO_TEST_POSTGRES_URL`); without it these tests fail, they never skip.
    final class PostgresTests: XCTestCase {
        /// The cluster `make test` started; the test fails without one.
        private func serverURL() throws -> String { try TestDatabase.postgresURL() }

        /// `url` with its database name replaced.
        private func url(_ url: String, database: String) throws -> String {
            let base = try XCTUnwrap(url.range(of: "/", options: .backwards))
            return url[..<base.upperBound] + database
        }

        /// A new, empty database on the cluster, dropped at the end of the test.
        private func freshDatabase(encoding: String? = nil) throws -> String {
            try TestDatabase.emptyPostgresDatabase(self, encoding: encoding)
        }

        private static let password = "pw-Zebra-7781-quokka"

        private func assertNoPassword(_ error: CoinfolioError?, file: StaticString = #filePath, line: UInt = #line) {
            guard let error else { return }
            XCTAssertFalse(error.message.contains(Self.password), error.message, file: file, line: line)
            XCTAssertFalse(error.message.contains("Zebra"), error.message, file: file, line: line)
            for (_, detail) in error.details {
                if case .string(let text) = detail { XCTAssertFalse(text.contains("Zebra"), text, file: file, line: line) }
            }
        }

        // MARK: - Owners (both backends)

        /// Both backends: a database shared by two owners, each seeing only its own rows.
        private func twoOwners() throws -> (TestDatabase, TestDatabase) {
            let alice = try TestDatabase.fresh(self)
            return (alice, alice.other(owner: "o'; DROP TABLE holding; -- \(UUID().uuidString)"))
        }

        func testTwoOwnersNeverSeeEachOthersHoldings() throws {
            let (aliceDB, bobDB) = try twoOwners()
            let alice = try aliceDB.store()
            let bob = try bobDB.store()
            try alice.setHolding(coinID: "bitcoin", amount: 0.5)
            try alice.setHolding(coinID: "ethereum", amount: 2)
            try bob.setHolding(coinID: "bitcoin", amount: 7)
            XCTAssertEqual(try alice.holdings(), [Holding(coinID: "bitcoin", amount: 0.5), Holding(coinID: "ethereum", amount: 2)])
            XCTAssertEqual(try bob.holdings(), [Holding(coinID: "bitcoin", amount: 7)])
            // A delete by one owner leaves the other's row of the same coin.
            try bob.setHolding(coinID: "bitcoin", amount: 0)
            try bob.setHolding(coinID: "ethereum", amount: -1)
            XCTAssertEqual(try bob.holdings(), [])
            XCTAssertEqual(try alice.holdings().map(\.amount), [0.5, 2])
            // Reopened, each still sees exactly its own.
            XCTAssertEqual(try aliceDB.store().holdings().count, 2)
            XCTAssertEqual(try bobDB.store().holdings().count, 0)
            XCTAssertEqual(alice.owner, aliceDB.owner)
        }

        /// Market data is one per database (SPEC §20): a snapshot any owner loads answers every
        /// owner, while each owner's portfolio stays its own.
        func testTwoOwnersShareTheSnapshotButNeverSeeEachOthersPortfolios() throws {
            let aliceDB = try TestDatabase.fresh(self)
            let bobDB = aliceDB.other(owner: "o'; DROP TABLE holding; -- \(UUID().uuidString)")
            func engine(_ database: TestDatabase) throws -> PortfolioEngine {
                try PortfolioEngine(
                    configuration: EngineConfiguration(
                        database: database.location, owner: database.owner,
                        api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
            }
            let alice = try engine(aliceDB)
            let bob = try engine(bobDB)
            assertThrows(.noData) { try bob.coins() }
            try alice.load(
                marketsBody: Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":100,"market_cap_rank":1}]"#.utf8),
                globalBody: nil)
            try alice.setHolding(coinID: "bitcoin", amount: 2)
            XCTAssertEqual(try engine(bobDB).coins().coins.map(\.id), ["bitcoin"], "Alice's load is Bob's market too")
            XCTAssertEqual(try bob.portfolio().entries.count, 0, "but not her holdings")
            try bob.load(
                marketsBody: Data(
                    (#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":50,"market_cap_rank":1},"#
                        + #"{"id":"dogecoin","symbol":"doge","name":"Dogecoin","current_price":0.5,"market_cap_rank":9}]"#).utf8),
                globalBody: nil)
            try bob.setHolding(coinID: "dogecoin", amount: 10)
            XCTAssertEqual(try bob.portfolio().totalValue, 5)
            let aliceAgain = try engine(aliceDB)
            XCTAssertEqual(try aliceAgain.coins().coins.map(\.id), ["bitcoin", "dogecoin"])
            XCTAssertEqual(try aliceAgain.portfolio().totalValue, 100, "her 2 bitcoin at Bob's price")
            XCTAssertEqual(try aliceAgain.portfolio().entries.map(\.coinID), ["bitcoin"])
            let carol = try engine(aliceDB.other(owner: "carol-\(UUID().uuidString)"))
            XCTAssertEqual(try carol.coins().total, 2)
            XCTAssertEqual(try carol.portfolio().entries.count, 0)
        }

        func testBadOwnersAreRefused() throws {
            let database = try TestDatabase.fresh(self)
            for owner in ["", "a\u{0}b", "tab\there", String(repeating: "x", count: 257)] {
                let error = assertThrows(.invalidArgument) { try database.other(owner: owner).store() }
                XCTAssertEqual(error?.details["field"], .string("owner"))
            }
            XCTAssertNoThrow(try database.other(owner: String(repeating: "é", count: 128)).store())
            assertThrows(.invalidArgument) { try EngineConfiguration(json: #"{"owner": 5}"#) }
            XCTAssertEqual(try EngineConfiguration(json: #"{"owner": "alice"}"#).owner, "alice")
            XCTAssertEqual(try EngineConfiguration(json: nil).owner, "default")
            XCTAssertEqual(try StoreConfiguration(json: #"{"database": ":memory:"}"#).owner, "default")
            assertThrows(.invalidArgument) { try StoreConfiguration(json: #"{"owner": "alice"}"#) }
        }

        func testSQLiteRowsOfSchema1BelongToTheDefaultOwner() throws {
            let source = Repository.root.appendingPathComponent("Tests/fixtures/store")
            let fixture = try XCTUnwrap(
                try FileManager.default.contentsOfDirectory(atPath: source.path).first { $0.hasSuffix(".sqlite") },
                "Tests/fixtures/store holds a schema-1 database")
            let copy = try temporaryDirectory(self).appendingPathComponent("v1.sqlite")
            try FileManager.default.copyItem(at: source.appendingPathComponent(fixture), to: copy)
            let before = try PortfolioStore(path: copy.path).holdings()
            XCTAssertFalse(before.isEmpty)
            XCTAssertEqual(try PortfolioStore(path: copy.path, owner: "default").holdings(), before)
            XCTAssertEqual(try PortfolioStore(path: copy.path, owner: "someone else").holdings(), [])
        }

        // MARK: - PostgreSQL only

        func testURLsOfBothSchemesOpen() throws {
            let server = try serverURL()
            let other = "postgres://" + server.dropFirst("postgresql://".count)
            let owner = "schemes-\(UUID().uuidString)"
            try PortfolioStore(path: server, owner: owner).setHolding(coinID: "bitcoin", amount: 1)
            XCTAssertEqual(try PortfolioStore(path: other, owner: owner).holdings(), [Holding(coinID: "bitcoin", amount: 1)])
        }

        func testThePasswordNeverAppearsInAnyError() throws {
            let server = try serverURL()
            XCTAssertTrue(server.contains(Self.password), "the test cluster uses the distinctive password")
            let wrongPassword = server.replacingOccurrences(of: Self.password, with: "Zebra-wrong-password")
            var error = assertThrows(.store) { try PortfolioStore(path: wrongPassword) }
            assertNoPassword(error)
            XCTAssertTrue(error?.message.contains(TestDatabase.passwordRefused) ?? false, error?.message ?? "")
            XCTAssertTrue(error?.message.contains("postgresql://…@127.0.0.1") ?? false, error?.message ?? "")
            error = assertThrows(.store) { try PortfolioStore(path: try url(server, database: "no_such_database")) }
            assertNoPassword(error)
            XCTAssertTrue(error?.message.contains("no_such_database") ?? false, error?.message ?? "")
            error = assertThrows(.store) { try PortfolioStore(path: server + "?password=Zebra-in-a-parameter&sslmode=bogus") }
            assertNoPassword(error)
            let closedPort = server.replacingOccurrences(of: #":\d+/"#, with: ":9/", options: .regularExpression)
            error = assertThrows(.store) { try PortfolioStore(path: closedPort) }
            assertNoPassword(error)
            XCTAssertFalse(PostgresURL.redactedURL(server).contains("Zebra"))
            XCTAssertEqual(
                PostgresURL.redactedURL("postgresql://u:se%40cret@h:5/db?password=x&sslmode=disable"),
                "postgresql://…@h:5/db?password=***&sslmode=disable")
        }

        /// A password with an unencoded `/`, `?` or `@` (break2): libpq ends the user part at the
        /// first `@` before any `/`, so such a URL used to be shown whole, or read as a host, port or
        /// database that libpq then quoted. Refused before connecting when ambiguous; never shown.
        func testAPasswordWithUnencodedDelimitersNeverAppears() throws {
            let server = try serverURL()
            let hostAndDatabase = String(server[server.index(after: try XCTUnwrap(server.firstIndex(of: "@")))...])
            for password in ["Zeb/raQQ", "Zeb@raQQ", "Ze/b@raQQ", "Ze/b?raQQ", "Ze/b?x=raQQ"] {
                let url = "postgresql://coinfolio:\(password)@\(hostAndDatabase)"
                let error = assertThrows(.store) { try PortfolioStore(path: url) }
                XCTAssertEqual(
                    error?.message,
                    "cannot open database \"postgresql://…@\(hostAndDatabase)\": its user or password holds an unencoded"
                        + " '@', '/' or '?' (percent-encode them: %40, %2F, %3F)", password)
                XCTAssertEqual(error?.details["reason"], .string("ambiguous_url"))
                XCTAssertFalse(error?.message.contains("raQQ") ?? true, error?.message ?? "")
                XCTAssertFalse(error?.message.contains("Zeb") ?? true, error?.message ?? "")
            }
            // A `?` ends nothing before the `@`: libpq reads the whole password, and so does the redaction.
            let question = "postgresql://coinfolio:Zeb?raQQ@\(hostAndDatabase)"
            let error = assertThrows(.store) { try PortfolioStore(path: question) }
            XCTAssertTrue(
                error?.message.hasPrefix("cannot open database \"postgresql://…@\(hostAndDatabase)\": ") ?? false, error?.message ?? "")
            XCTAssertTrue(error?.message.contains(TestDatabase.passwordRefused) ?? false, error?.message ?? "")
            XCTAssertFalse(error?.message.contains("raQQ") ?? true, error?.message ?? "")
            XCTAssertEqual(PostgresURL.redactedURL("postgresql://u:a?b@h:5/db"), "postgresql://…@h:5/db")
            XCTAssertEqual(PostgresURL.redactedURL("postgresql://u:a/b@h:5/db?sslmode=disable"), "postgresql://…@h:5/db?sslmode=disable")
            XCTAssertEqual(PostgresURL.redactedURL("postgresql://u:a@b@h:5/db"), "postgresql://…@h:5/db")
            XCTAssertEqual(PostgresURL.redactedURL("postgresql://u:a/b?c@h:5/db"), "postgresql://…@h:5/db")
            XCTAssertEqual(
                PostgresURL.redactedURL("postgresql://h:5/db?application_name=a@b"), "postgresql://h:5/db?application_name=a@b")
            XCTAssertEqual(
                PostgresURL.redactedURL("postgresql://[::1]:5,h2:6/db?application_name=a@b"),
                "postgresql://[::1]:5,h2:6/db?application_name=a@b")
            // An `@` in the value of a query parameter libpq knows is no credential when the URL has
            // no user part: such a URL still opens. After a user part any other `@` may be the one
            // meant to end it (break-it finding 1: "u:S3cret@Pa55?word@host"): percent-encode it.
            let owner = "at-in-query-\(UUID().uuidString)"
            let user = try XCTUnwrap(URLComponents(string: server))
            let hostOnly = "postgresql://\(user.host ?? "")\(user.port.map { ":\($0)" } ?? "")\(user.path)"
            let plain = "\(hostOnly)?user=\(user.user ?? "")&password=\(Self.password)&application_name=me@host"
            try PortfolioStore(path: plain, owner: owner).setHolding(coinID: "bitcoin", amount: 1)
            XCTAssertEqual(try PortfolioStore(path: server, owner: owner).holdings(), [Holding(coinID: "bitcoin", amount: 1)])
            try PortfolioStore(path: server + "?application_name=me%40host", owner: owner).setHolding(coinID: "bitcoin", amount: 2)
            let atAfterUser = assertThrows(.store) { try PortfolioStore(path: server + "?application_name=me@host", owner: owner) }
            XCTAssertEqual(atAfterUser?.details["reason"], .string("ambiguous_url"))
            XCTAssertEqual(PostgresURL.redactedURL("postgresql://h:5/db?user=u&password=secret"), "postgresql://h:5/db?user=u&password=***")
            XCTAssertTrue(PostgresURL.isAmbiguous("postgresql://h:5/db?word@host/db"), "an @ in no parameter's value")
            XCTAssertTrue(
                PostgresURL.isAmbiguous("postgresql://h:5/db?nokeyword=a@b"), "an @ in the value of a parameter libpq does not know")
            XCTAssertTrue(PostgresURL.isAmbiguous("postgresql://:?start/slash@end@h/db"), "an empty port")
            XCTAssertTrue(PostgresURL.isAmbiguous("postgresql://u:12/ss@h/db"), "an @ in the database name")
        }

        /// Owners are compared as UTF-8 bytes on the server whatever libpq's client encoding would
        /// be (break2): with `PGCLIENTENCODING=LATIN1` in the environment, "é" used to be stored
        /// as "Ã©", so that another process's owner "Ã©" read and changed those rows.
        func testOwnersAreUTF8WhateverTheEnvironmentsClientEncoding() throws {
            let server = try serverURL()
            let suffix = UUID().uuidString
            setenv("PGCLIENTENCODING", "LATIN1", 1)
            defer { unsetenv("PGCLIENTENCODING") }
            try PortfolioStore(path: server, owner: "é-\(suffix)").setHolding(coinID: "bitcoin", amount: 1)
            unsetenv("PGCLIENTENCODING")
            XCTAssertEqual(try PortfolioStore(path: server, owner: "Ã©-\(suffix)").holdings(), [])
            XCTAssertEqual(try PortfolioStore(path: server, owner: "é-\(suffix)").holdings(), [Holding(coinID: "bitcoin", amount: 1)])
            // A LATIN1 database keeps "é" and refuses what LATIN1 cannot hold, instead of storing mojibake.
            let latin1 = try freshDatabase(encoding: "LATIN1")
            try PortfolioStore(path: latin1, owner: "é").setHolding(coinID: "bitcoin", amount: 2)
            XCTAssertEqual(try PortfolioStore(path: latin1, owner: "é").holdings(), [Holding(coinID: "bitcoin", amount: 2)])
            let check = try PostgresConnection(url: latin1)
            XCTAssertEqual(
                try check.statement("SELECT count(*) FROM ledger_transaction WHERE owner = 'é' AND octet_length(owner) = 1").scalarInt(), 1)
            let error = assertThrows(.store) { try PortfolioStore(path: latin1, owner: "日本").setHolding(coinID: "bitcoin", amount: 1) }
            XCTAssertEqual(error?.details["sqlstate"], .string("22P05"))
        }

        /// A password that is a word of the server's messages is not cut out of them (break2): "***"
        /// in place of "failed" or of the user name told the reader what the password was. Only
        /// libpq's complaints about the URL itself, which quote it, go through the one redaction rule
        /// (`SecretRedaction`, as the API key: a password shorter than 6 characters where it appears
        /// whole, a longer one in every run of 6).
        func testAPasswordThatIsAWordOfTheMessageIsNotRevealedByScrubbing() throws {
            let server = try serverURL()
            let hostAndDatabase = String(server[server.index(after: try XCTUnwrap(server.firstIndex(of: "@")))...])
            let prefix = "cannot open database \"postgresql://…@\(hostAndDatabase)\": "
            for password in ["failed", "coinfolio", "password", "user", "for"] {
                let error = assertThrows(.store) { try PortfolioStore(path: "postgresql://coinfolio:\(password)@\(hostAndDatabase)") }
                XCTAssertTrue(error?.message.hasPrefix(prefix) ?? false, error?.message ?? "")
                XCTAssertTrue(
                    error?.message.hasSuffix("failed: FATAL: \(TestDatabase.passwordRefusedFully)") ?? false,
                    error?.message ?? "")
            }
            for (password, expected) in [
                ("%zz", "invalid percent-encoded token: \"[redacted]\""), ("a%", "invalid percent-encoded token: \"[redacted]\""),
                ("Z%00ebraQQ", "forbidden value %00 in percent-encoded value: \"[redacted]\""),
            ] {
                let error = assertThrows(.store) { try PortfolioStore(path: "postgresql://coinfolio:\(password)@\(hostAndDatabase)") }
                XCTAssertEqual(error?.message, prefix + expected, password)
            }
            for (parameter, expected) in [
                ("password=Zebra%zz", "invalid percent-encoded token: \"[redacted]\""),
                ("password=Zeb=raQQ", "extra key/value separator \"=\" in URI query parameter: \"password\""),
            ] {
                let error = assertThrows(.store) { try PortfolioStore(path: "postgresql://coinfolio@\(hostAndDatabase)?\(parameter)") }
                XCTAssertEqual(
                    error?.message, "cannot open database \"postgresql://…@\(hostAndDatabase)?password=***\": " + expected, parameter)
            }
        }

        /// URL schemes are case-insensitive (RFC 3986 §3.1) (break2): "POSTGRESQL://…" used to be
        /// taken for a SQLite path, its password shown in the error and, from the CLI, written into
        /// the name of a local folder holding a SQLite file instead of the server.
        func testASchemeInAnyCaseIsTheServer() throws {
            let server = try serverURL()
            let rest = server.dropFirst("postgresql://".count)
            let owner = "scheme-case-\(UUID().uuidString)"
            try PortfolioStore(path: "POSTGRESQL://" + rest, owner: owner).setHolding(coinID: "bitcoin", amount: 3)
            XCTAssertEqual(try PortfolioStore(path: "Postgres://" + rest, owner: owner).holdings(), [Holding(coinID: "bitcoin", amount: 3)])
            XCTAssertEqual(try PortfolioStore(path: server, owner: owner).holdings(), [Holding(coinID: "bitcoin", amount: 3)])
            XCTAssertTrue(EngineConfiguration(database: "PostgreSQL://u@h/db").databaseIsServer)
            XCTAssertFalse(EngineConfiguration(database: "postgresql:/u@h/db").databaseIsServer)
            let wrong = "POSTGRESQL://" + rest.replacingOccurrences(of: Self.password, with: "Zebra-wrong-case")
            let error = assertThrows(.store) { try PortfolioStore(path: wrong) }
            assertNoPassword(error)
            XCTAssertTrue(error?.message.contains(TestDatabase.passwordRefused) ?? false, error?.message ?? "")
        }

        func testAServerErrorIsAStoreErrorWithTheServersMessage() throws {
            let database = try PostgresConnection(url: try serverURL())
            let error = assertThrows(.store) { try database.execute("SELECT * FROM no_such_table") }
            XCTAssertTrue(error?.message.contains("relation \"no_such_table\" does not exist") ?? false, error?.message ?? "")
            XCTAssertEqual(error?.details["sqlstate"], .string("42P01"))
            assertNoPassword(error)
        }

        /// Restarts the test cluster (`cluster.sh restart`, same port).
        private func restartCluster() throws {
            guard let folder = ProcessInfo.processInfo.environment["COINFOLIO_TEST_POSTGRES_DIR"] else {
                throw CoinfolioError(.internalError, "COINFOLIO_TEST_POSTGRES_DIR is not set: run the suites through make test")
            }
            let restart = Process()
            restart.executableURL = URL(fileURLWithPath: "/bin/bash")
            restart.arguments = [Repository.root.appendingPathComponent("Tests/postgres/cluster.sh").path, "restart", folder]
            try restart.run()
            restart.waitUntilExit()
            XCTAssertEqual(restart.terminationStatus, 0, "cluster.sh restart")
        }

        func testTheCallInFlightDuringARestartFailsAndTheNextReconnects() throws {
            let database = try PostgresConnection(url: try serverURL())
            let started = DispatchSemaphore(value: 0)
            let outcome = Mutex<CoinfolioError?>(nil)
            let finished = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let slow = try PostgresConnection(url: try serverURL())
            Thread.detachNewThread {
                started.signal()
                do { try slow.execute("SELECT pg_sleep(20)") } catch let error as CoinfolioError { outcome.withLock { $0 = error } } catch {
                }
                finished.signal()
            }
            started.wait()
            // The restart once the server runs the call, not after a fixed 0.5 s: a thread that
            // starts late would send it to the restarted server, and no call would be in flight.
            let inFlight = try database.statement(
                "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active'"
                    + " AND query = 'SELECT pg_sleep(20)'")
            var running = false
            for _ in 0..<1500 where !running {
                running = try inFlight.scalarInt() == 1
                if !running { Thread.sleep(forTimeInterval: 0.02) }
            }
            XCTAssertTrue(running, "the call reached the server")
            try restartCluster()
            XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "the call in flight returns")
            let error = try XCTUnwrap(outcome.withLock { $0 }, "the call in flight fails")
            XCTAssertEqual(error.code, .store)
            XCTAssertEqual(error.details["connection_lost"], .number(1))
            assertNoPassword(error)
            XCTAssertEqual(try slow.statement("SELECT 1").scalarInt(), 1, "the next call reconnects")
            XCTAssertEqual(try database.statement("SELECT 2").scalarInt(), 2, "an idle handle reconnects too")
        }

        func testAStoreIdleDuringARestartWorksOnItsNextCall() throws {
            let owner = "restart-\(UUID().uuidString)"
            let store = try PortfolioStore(path: try serverURL(), owner: owner)
            try store.setHolding(coinID: "bitcoin", amount: 1)
            try restartCluster()
            try store.setHolding(coinID: "ethereum", amount: 2)
            XCTAssertEqual(try store.holdings().map(\.coinID), ["bitcoin", "ethereum"])
        }

        func testMigrationsRacingOnAFreshDatabaseRunOnce() throws {
            let database = try freshDatabase()
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { worker in
                do {
                    let store = try PortfolioStore(path: database, owner: "racer-\(worker)")
                    try store.setHolding(coinID: "coin-\(worker)", amount: 1)
                    store.close()
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            XCTAssertEqual(errors.withLock { $0 }, [])
            let check = try PostgresConnection(url: database)
            XCTAssertEqual(try check.statement("SELECT count(*) FROM coinfolio_schema").scalarInt(), 1)
            XCTAssertEqual(try check.statement("SELECT max(version) FROM coinfolio_schema").scalarInt(), Schema.currentVersion)
            XCTAssertEqual(try check.statement("SELECT count(*) FROM ledger_transaction").scalarInt(), 6)
        }

        func testNewerSchemaIsRefused() throws {
            let database = try freshDatabase()
            _ = try PortfolioStore(path: database)
            let connection = try PostgresConnection(url: database)
            try connection.execute("UPDATE coinfolio_schema SET version = 99")
            let error = assertThrows(.store) { try PortfolioStore(path: database) }
            XCTAssertTrue(error?.message.contains("schema version 99") ?? false, error?.message ?? "")
        }

        func testSerializableTransactionsRetriedLoseNoIncrement() throws {
            let database = try freshDatabase()
            let setup = try PostgresConnection(url: database)
            try setup.execute("CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let connection = try PostgresConnection(url: database)
                    for _ in 0..<25 {
                        try connection.transaction(.serializable) {
                            let read = try connection.statement("SELECT n FROM counter")
                            let value = try read.scalarInt() ?? 0
                            let write = try connection.statement("UPDATE counter SET n = ?1")
                            write.bind(1, value + 1)
                            try write.run("increment")
                        }
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            XCTAssertEqual(errors.withLock { $0 }, [])
            XCTAssertEqual(try setup.statement("SELECT n FROM counter").scalarInt(), 100)
        }

        func testPlaceholdersInsideQuotesAreLeftAlone() {
            let (sql, count) = PostgresStatement.numberedParameters("SELECT '?1', \"a?b\" FROM t WHERE x = ?2 AND y = ?10")
            XCTAssertEqual(sql, "SELECT '?1', \"a?b\" FROM t WHERE x = $2 AND y = $10")
            XCTAssertEqual(count, 10)
        }
    }
#endif  // PostgreSQL
