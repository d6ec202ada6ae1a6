import Foundation
import XCTest

@testable import Coinfolio

/// Issue 15's last target, the snapshot save on PostgreSQL (schema step 6): sparklines are saved
/// packed there (JSON text on SQLite), and a saved snapshot answers the same on both backends,
/// every sparkline point bit for bit, every owner reading the one saved snapshot (SPEC §20); snapshots saved by
/// schema 4 (sparklines as JSON text, compressed by PostgreSQL) stay readable after the step.
/// Each test runs on a SQLite file and on the cluster `make test` starts (both passes have it).
final class SnapshotSaveTests: XCTestCase {

    /// A SQLite file of its own and a database of its own on the test cluster, each with an owner.
    private func bothBackends() throws -> [TestDatabase] {
        [
            TestDatabase(location: try temporaryDirectory(self).appendingPathComponent("snapshot.sqlite").path, owner: "sqlite-owner"),
            TestDatabase(location: try TestDatabase.emptyPostgresDatabase(self), owner: "snapshot-save-\(UUID().uuidString)"),
        ]
    }

    private func engine(_ database: TestDatabase) throws -> PortfolioEngine {
        try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner,
                api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
    }

    /// Every saved sparkline row of the database, position → its stored bytes.
    private func storedSparklines(_ database: TestDatabase) throws -> [Int: [UInt8]] {
        let connection = try DatabaseLocation.open(database.location)
        defer { connection.close() }
        let statement = try connection.statement("SELECT position, points FROM snapshot_sparkline")
        var rows: [Int: [UInt8]] = [:]
        while try statement.next() { rows[statement.int(0)] = [UInt8](statement.blob(1) ?? Data()) }
        return rows
    }

    /// An answer without its fetch time (the one field two loads of one body differ in).
    private func withoutFetchTime(_ json: String) -> String {
        json.replacingOccurrences(of: #""fetched_at":"[^"]*""#, with: "", options: .regularExpression)
    }

    /// The points of every coin's sparkline, as bit patterns (nil: no sparkline).
    private func sparklineBits(_ engine: PortfolioEngine) throws -> [[UInt64]?] {
        let snapshot = try XCTUnwrap(engine.currentSnapshot())
        return snapshot.coins.indices.map { snapshot.sparklinePrices($0)?.map(\.bitPattern) }
    }

    private static let awkwardPoints =
        #"[1.5,-0.0,null,8.12e-06,4.2e17,57000.123,1.186e-09,0.30000000000000004,250,"7.5","abc",true]"#

    private static func awkwardBody(price: Double) -> Data {
        Data(
            #"""
            [{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":\#(price),"market_cap_rank":1,
              "last_updated":"2024-12-19T10:44:55.946Z",
              "sparkline_in_7d":{"price":\#(awkwardPoints)}},
             {"id":"no-line","symbol":"nl","name":"No line","current_price":1,"market_cap_rank":2}]
            """#.utf8)
    }

    func testASavedSnapshotAnswersTheSameOnBothBackendsEveryPointBitForBit() throws {
        var reopenedAnswers: [String] = []
        for database in try bothBackends() {
            let first = try engine(database)
            try first.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
            let loaded = try sparklineBits(first)
            let loadedAnswer = withoutFetchTime(try first.coins().json)
            first.close()

            let second = try engine(database)
            XCTAssertTrue(try XCTUnwrap(second.currentSnapshot()).coins.allSatisfy { $0.sparkline == nil }, "read only when asked")
            XCTAssertEqual(try sparklineBits(second), loaded, database.location)
            let bitcoin = try XCTUnwrap(second.coins(CoinQuery(search: "bitcoin")).coins.first?.sparklineIn7d)
            XCTAssertEqual(bitcoin.count, 170)
            XCTAssertEqual(Array(bitcoin.prefix(3)), [56795.9281, 56736.3907, 56556.5052])
            let shiba = try XCTUnwrap(second.coins(CoinQuery(search: "shiba")).coins.first?.sparklineIn7d)
            XCTAssertEqual(Array(shiba.prefix(3)), [7.746e-06, 7.689e-06, 7.747e-06])
            XCTAssertEqual(second.currentSnapshot()?.sparklinePrices(9), [], "boringdao-[old]: an empty sparkline")
            let answer = withoutFetchTime(try second.coins().json)
            XCTAssertEqual(answer, loadedAnswer, database.location)
            reopenedAnswers.append(answer)

            // What is stored: JSON text as CoinGecko sent it on SQLite, packed doubles on PostgreSQL.
            let rows = try storedSparklines(database)
            XCTAssertEqual(rows.count, 12)
            let form: UInt8 = DatabaseLocation.isPostgres(database.location) ? UInt8(ascii: "D") : UInt8(ascii: "[")
            XCTAssertTrue(rows.values.allSatisfy { $0.first == form }, database.location)
            if form == UInt8(ascii: "D") { XCTAssertEqual(rows[0]?.count, 1 + 170 * 8) }
        }
        XCTAssertEqual(reopenedAnswers[0], reopenedAnswers[1], "the same answer from either backend")
    }

    func testAwkwardPointsSurviveTheSaveOnBothBackends() throws {
        var answers: [String] = []
        for database in try bothBackends() {
            try engine(database).load(marketsBody: Self.awkwardBody(price: 100), globalBody: nil)
            let reopened = try engine(database)
            let points = try XCTUnwrap(reopened.currentSnapshot()?.sparklinePrices(0))
            XCTAssertEqual(points.count, 12)
            let expected: [Double] = [1.5, -0.0, .nan, 8.12e-06, 4.2e17, 57000.123, 1.186e-09, 0.30000000000000004, 250, 7.5, .nan, .nan]
            for (index, (point, wanted)) in zip(points, expected).enumerated() {
                if wanted.isNaN {
                    XCTAssertTrue(point.isNaN, "point \(index)")
                } else {
                    XCTAssertEqual(point.bitPattern, wanted.bitPattern, "point \(index)")
                }
            }
            XCTAssertNil(reopened.currentSnapshot()?.sparklinePrices(1), "a coin without a sparkline has no row")
            answers.append(withoutFetchTime(try reopened.coins().json))
        }
        XCTAssertEqual(answers[0], answers[1])
        // Answers write −0 as 0 and gaps as null, from either backend.
        XCTAssertTrue(
            answers[0].contains(#""price":[1.5,0,null,8.12e-06,4.2e+17,57000.123,1.186e-09,0.30000000000000004,250,7.5,null,null]"#),
            answers[0])
    }

    /// Market data is stored once per database (SPEC §20): a snapshot one owner loads is every
    /// owner's, its sparklines one set of rows; the next load by anyone replaces it for all.
    func testOwnersShareOneSnapshotAndItsSparklinesOnBothBackends() throws {
        for alice in try bothBackends() {
            let bob = alice.other(owner: alice.owner + "-bob")
            try engine(alice).load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
            XCTAssertEqual(try engine(bob).currentSnapshot()?.sparklinePrices(0)?.prefix(2), [56795.9281, 56736.3907])
            XCTAssertEqual(try storedSparklines(alice).count, 12)
            try engine(bob).load(marketsBody: Self.awkwardBody(price: 7), globalBody: nil)
            XCTAssertEqual(try engine(alice).currentSnapshot()?.sparklinePrices(0)?.prefix(2), [1.5, -0.0])
            XCTAssertEqual(try storedSparklines(alice).count, 1, "the replaced snapshot's rows are gone")
            let bobs = try engine(bob)
            try bobs.load(marketsBody: Self.awkwardBody(price: 8), globalBody: nil)
            try bobs.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
            XCTAssertEqual(try storedSparklines(alice).count, 12)
            XCTAssertEqual(try engine(alice).coins(CoinQuery(limit: 1)).coins.first?.currentPrice, 57000.123)
            let carol = try engine(alice.other(owner: alice.owner + "-carol"))
            XCTAssertEqual(try carol.coins().total, 12, "a new owner answers from the shared snapshot at once")
        }
    }

    // MARK: - Step 6 over snapshots saved by schema 4

    /// A database at schema 4 holding `owner`'s usd snapshot of `body` as schema 4 saved it:
    /// the compact coins, each sparkline a row of the JSON text CoinGecko sent.
    private func schemaFourDatabase(postgres: Bool, owner: String, body: Data) throws -> String {
        let location =
            postgres
            ? try TestDatabase.emptyPostgresDatabase(self) : try temporaryDirectory(self).appendingPathComponent("schema4.sqlite").path
        let database = try DatabaseLocation.open(location)
        defer { database.close() }
        let coins = try CoinGeckoBody.markets(body).coins
        try database.transaction(.readCommitted) {
            if postgres { try database.execute("CREATE TABLE coinfolio_schema (version INTEGER NOT NULL)") }
            for step in Schema.steps where step.version <= 4 {
                let sql = step.sql(for: database.kind)
                if !sql.isEmpty { try database.execute(sql) }
                try step.code?(database)
            }
            try database.execute(postgres ? "INSERT INTO coinfolio_schema (version) VALUES (4)" : "PRAGMA user_version = 4")
            let snapshot = try database.statement(
                """
                INSERT INTO snapshot (owner, vs_currency, as_of, fetched_at, refresh_failed, format, coins, global)
                VALUES (?1, 'usd', 1734605095, 1734605095, 0, 1, ?2, NULL) RETURNING id
                """)
            snapshot.bind(1, owner)
            let compact = SnapshotCodec.encode(coins)
            let id = try compact.withUnsafeBytes { raw -> Int in
                snapshot.bind(2, borrowing: raw)
                defer { snapshot.reset() }
                return try snapshot.next() ? snapshot.int(0) : -1
            }
            let row = try database.statement(
                "INSERT INTO snapshot_sparkline (owner, snapshot_id, position, points) VALUES (?1, ?2, ?3, ?4)")
            for (position, coin) in coins.enumerated() {
                guard let sparkline = coin.sparkline else { continue }
                let text = sparkline.jsonUTF8
                XCTAssertEqual(text.first, UInt8(ascii: "["))
                try text.withUnsafeBytes { raw in
                    row.bind(1, owner)
                    row.bind(2, id)
                    row.bind(3, position)
                    row.bind(4, borrowing: raw)
                    try row.run("sparkline")
                }
            }
        }
        return location
    }

    func testSnapshotsSavedBySchemaFourStayReadableOnBothBackends() throws {
        let body = try Repository.fixture("markets.json")
        let expected = try CoinGeckoBody.markets(body).coins.map { $0.sparklineIn7d?.map(\.bitPattern) }
        for postgres in [false, true] {
            let database = TestDatabase(location: try schemaFourDatabase(postgres: postgres, owner: "old", body: body), owner: "old")
            #if PostgreSQL
                if postgres {
                    // PostgreSQL compressed schema 4's JSON rows (pglz): step 6 leaves them so.
                    let connection = try PostgresConnection(url: database.location)
                    let compressed = try connection.statement(
                        "SELECT position FROM snapshot_sparkline WHERE pg_column_size(points) < octet_length(points)")
                    XCTAssertEqual(try compressed.scalarInt(), 0, "bitcoin's 2 KB of JSON text")
                    connection.close()
                }
            #endif
            let opened = try engine(database)
            XCTAssertEqual(try sparklineBits(opened), expected, "postgres: \(postgres)")
            XCTAssertEqual(try opened.coins(CoinQuery(limit: 1)).coins.first?.sparklineIn7d?.prefix(2), [56795.9281, 56736.3907])
            XCTAssertTrue(try storedSparklines(database).values.allSatisfy { $0.first == UInt8(ascii: "[") }, "rows are left as they were")

            let connection = try DatabaseLocation.open(database.location)
            if postgres {
                XCTAssertEqual(try connection.statement("SELECT max(version) FROM coinfolio_schema").scalarInt(), Schema.currentVersion)
                let storage = try connection.statement(
                    "SELECT attstorage FROM pg_attribute WHERE attrelid = 'snapshot_sparkline'::regclass AND attname = 'points'")
                XCTAssertTrue(try storage.next())
                XCTAssertEqual(storage.text(0), "e", "kept uncompressed")
                storage.reset()
                let options = try connection.statement(
                    "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = 'snapshot_sparkline'::regclass")
                XCTAssertTrue(try options.next())
                XCTAssertEqual(options.text(0), "toast_tuple_target=8160", "in the row when it fits")
                options.reset()
            } else {
                XCTAssertEqual(try connection.statement("PRAGMA user_version").scalarInt(), Schema.currentVersion)
            }
            connection.close()

            // The next save writes the current form, and reads back the same.
            try opened.load(marketsBody: body, globalBody: nil)
            // SQLite keeps a sparkline still in CoinGecko's text as that text; the strict Swift
            // reader of a build without simdjson decodes sparklines at once, so they are packed.
            #if SimdJSON
                let keepsText = !postgres
            #else
                let keepsText = false
            #endif
            let form: UInt8 = keepsText ? UInt8(ascii: "[") : UInt8(ascii: "D")
            let rows = try storedSparklines(database)
            XCTAssertEqual(rows.count, 12)
            XCTAssertTrue(rows.values.allSatisfy { $0.first == form })
            XCTAssertEqual(try sparklineBits(try engine(database)), expected)
        }
    }
}
