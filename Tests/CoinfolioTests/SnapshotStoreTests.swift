import CSQLite
import Foundation
import XCTest

@testable import Coinfolio

/// Issue 11 (storage) and 18: the schema-2 migration, the compact saved snapshot, batch writes
/// and the holdings cache.
final class SnapshotStoreTests: XCTestCase {
    private func temporaryPath(_ name: String = "portfolio.sqlite") throws -> String {
        try temporaryDirectory(self).appendingPathComponent(name).path
    }

    private func offlineEngine(_ path: String, vs: VsCurrency = .usd) throws -> PortfolioEngine {
        try PortfolioEngine(
            configuration: EngineConfiguration(
                database: path, vsCurrency: vs, api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
    }

    /// A copy of the database written by 0.1.0 (schema 1), never the fixture itself.
    private func schemaOneCopy() throws -> String {
        let path = try temporaryPath("schema-v1.sqlite")
        try FileManager.default.copyItem(
            at: Repository.root.appendingPathComponent("Tests/fixtures/store/schema-v1.sqlite"), to: URL(fileURLWithPath: path))
        return path
    }

    private func scalar(_ path: String, _ sql: String) throws -> Int {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        return try connection.statement(sql).scalarInt() ?? -1
    }

    // MARK: - Migration from 0.1.0

    func testASchemaOneDatabaseOpensWithItsHoldingsAndItsUSDSnapshot() throws {
        let path = try schemaOneCopy()
        let engine = try offlineEngine(path)
        XCTAssertEqual(
            try engine.store.holdings(),
            [
                Holding(coinID: "0.1-token", amount: 0.1), Holding(coinID: "bitcoin", amount: 0.5),
                Holding(coinID: "ethereum", amount: 2.25), Holding(coinID: "not-a-listed-coin", amount: 10),
            ])
        let listing = try engine.coins()
        XCTAssertEqual(listing.total, 12)
        XCTAssertEqual(listing.coins.first?.id, "bitcoin")
        XCTAssertEqual(isoTimestamp(listing.asOf), "2024-12-19T10:44:55Z", "as_of is the data's own time")
        XCTAssertEqual(listing.coins.first?.sparklineIn7d?.count, 170)
        let portfolio = try engine.portfolio()
        XCTAssertEqual(portfolio.unpricedHoldings, 2)
        XCTAssertEqual(try XCTUnwrap(portfolio.totalValue), 0.5 * 57000.123 + 2.25 * 3928.55, accuracy: 1e-9)
        engine.close()
        XCTAssertGreaterThanOrEqual(try scalar(path, "PRAGMA user_version"), 2)
        XCTAssertEqual(try scalar(path, "SELECT format FROM snapshot WHERE vs_currency = 'usd'"), 1, "rewritten compactly")
        XCTAssertEqual(try scalar(path, "SELECT count(*) FROM snapshot_sparkline"), 12)
        XCTAssertEqual(try scalar(path, "SELECT count(*) FROM sqlite_master WHERE name = 'market_snapshot'"), 0)
        // And once more, now from the compact form.
        let reopened = try offlineEngine(path)
        XCTAssertEqual(try reopened.coins().json, listing.json)
        XCTAssertEqual(try reopened.store.holdings().count, 4)
    }

    func testASchemaOneDatabaseOpensAsAStoreAlone() throws {
        let path = try schemaOneCopy()
        XCTAssertEqual(try PortfolioStore(path: path).holdings().map(\.coinID), ["0.1-token", "bitcoin", "ethereum", "not-a-listed-coin"])
        XCTAssertEqual(try scalar(path, "SELECT count(*) FROM snapshot WHERE format = 0"), 1, "kept as a body until an engine opens it")
    }

    // MARK: - The compact snapshot

    func testAReopenedSnapshotAnswersExactlyAsTheLoadedOne() throws {
        let path = try temporaryPath()
        let first = try offlineEngine(path)
        try first.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        try first.setHolding(coinID: "bitcoin", amount: 0.5)
        let loaded = (
            try first.coins().json, try first.coins(CoinQuery(sparkline: false)).json, try first.portfolio().json, try first.statistics()
        )
        first.close()
        let second = try offlineEngine(path)
        XCTAssertEqual(try second.coins().json, loaded.0, "every field and every sparkline point, bit for bit")
        XCTAssertEqual(try second.coins(CoinQuery(sparkline: false)).json, loaded.1)
        XCTAssertEqual(try second.portfolio().json, loaded.2)
        XCTAssertEqual(try second.statistics(), loaded.3)
    }

    func testAReopenedSnapshotDecodesOnlyTheCoinsAnAnswerShows() throws {
        let path = try temporaryPath()
        let first = try offlineEngine(path)
        try first.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        try first.setHolding(coinID: "bitcoin", amount: 0.5)
        try first.setHolding(coinID: "tether", amount: 10)
        let loaded = (
            try first.coins(CoinQuery(sort: .price, limit: 3)).json, try first.portfolio(PortfolioQuery(sort: .rankReversed)).json,
            try first.statistics(), try first.pnl(PnLOptions()).json
        )
        first.close()
        let second = try offlineEngine(path)
        let snapshot = try second.requireSnapshot()
        XCTAssertEqual(snapshot.coins.count, 12)
        XCTAssertEqual(snapshot.indexByID["tether"].map(snapshot.coins.id(at:)), "tether", "ids are read at open")
        XCTAssertEqual(try second.coins(CoinQuery(sort: .price, limit: 3)).json, loaded.0, "the price order needs no decoded coin")
        XCTAssertEqual(try second.portfolio(PortfolioQuery(sort: .rankReversed)).json, loaded.1)
        XCTAssertEqual(try second.statistics(), loaded.2)
        XCTAssertEqual(try second.pnl(PnLOptions()).json, loaded.3)
        // Every position decodes to what the compact form holds, also after others were read.
        let page = try CoinGeckoBody.markets(try Repository.fixture("markets.json"))
        var expected = page.coins
        for index in expected.indices { expected[index].sparklineIn7d = nil }
        XCTAssertEqual(Array(snapshot.coins), expected)
        XCTAssertEqual(snapshot.coins.map(\.marketCapRank), snapshot.coins.indices.map(snapshot.coins.marketCapRank(at:)))
        XCTAssertEqual(snapshot.coins.map(\.currentPrice), snapshot.coins.indices.map(snapshot.coins.currentPrice(at:)))
    }

    func testSkimmingTheCompactFormRefusesDamageAsDecodingDoes() throws {
        let page = try CoinGeckoBody.markets(try Repository.fixture("markets.json"))
        let bytes = SnapshotCodec.encode(page.coins)
        let compact = try CompactCoins.shared(blob: Data(bytes))
        XCTAssertEqual(compact.skimmed.ids, page.coins.map(\.id))
        XCTAssertEqual(compact.skimmed.ranks, page.coins.map(\.marketCapRank))
        XCTAssertEqual(compact.skimmed.hasSparkline, page.coins.map { $0.sparklineIn7d != nil })
        for cut in [0, 3, 8, 40, bytes.count / 2, bytes.count - 1] {
            XCTAssertThrowsError(try CompactCoins.shared(blob: Data(bytes.prefix(cut)))) { error in
                XCTAssertEqual((error as? CoinfolioError)?.code, .store)
            }
        }
    }

    func testAReopenedSnapshotLeavesSparklinesInTheFileUntilAsked() throws {
        let path = try temporaryPath()
        try offlineEngine(path).load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        let engine = try offlineEngine(path)
        let snapshot = try XCTUnwrap(engine.currentSnapshot())
        XCTAssertTrue(snapshot.coins.allSatisfy { $0.sparkline == nil })
        XCTAssertEqual(snapshot.sparklinePrices(0)?.count, 170)
        XCTAssertEqual(snapshot.sparklinePrices(9), [Double](), "boringdao-[old] has an empty sparkline")
        XCTAssertEqual(try engine.coins(CoinQuery(search: "bitcoin")).coins.first?.sparklineIn7d?.count, 170)
    }

    func testASparklineSavedAsJSONTextReadsBackToo() throws {
        let path = try temporaryPath()
        try offlineEngine(path).load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        let connection = try SQLiteConnection(path: path)
        try connection.execute("UPDATE snapshot_sparkline SET points = CAST('[1.5, null,2e3]' AS BLOB) WHERE position = 0")
        connection.close()
        let points = try XCTUnwrap(try offlineEngine(path).coins(CoinQuery(limit: 1)).coins.first?.sparklineIn7d)
        XCTAssertEqual(points.count, 3)
        XCTAssertEqual(points[0], 1.5)
        XCTAssertTrue(points[1].isNaN)
        XCTAssertEqual(points[2], 2000)
    }

    func testTheCompactFormKeepsEveryFieldAndRefusesDamage() throws {
        let page = try CoinGeckoBody.markets(try Repository.fixture("markets.json"))
        let bytes = SnapshotCodec.encode(page.coins)
        let decoded = try bytes.withUnsafeBytes { try SnapshotCodec.decode($0) }
        var expected = page.coins
        for index in expected.indices { expected[index].sparklineIn7d = nil }
        XCTAssertEqual(decoded.coins, expected)
        XCTAssertEqual(decoded.hasSparkline, page.coins.map { $0.sparklineIn7d != nil })
        for cut in [0, 3, 8, 40, bytes.count - 1] {
            XCTAssertThrowsError(try Array(bytes.prefix(cut)).withUnsafeBytes { try SnapshotCodec.decode($0) }) { error in
                XCTAssertEqual((error as? CoinfolioError)?.code, .store)
            }
        }
        let points: [Double] = [1.5, -0.0, .nan, 8.12e-06, 4.2e17, 57000.123, 1.186e-09, 0.1 + 0.2, 250]
        let json = SnapshotCodec.sparklineJSON(points)
        XCTAssertEqual(
            String(decoding: json, as: UTF8.self),
            "[1.5,-0.0,null,8.12e-06,4.2e+17,57000.123,1.186e-09,0.30000000000000004,250.0]")
        let read = try XCTUnwrap(json.withUnsafeBufferPointer { SnapshotCodec.sparklinePoints($0) })
        XCTAssertEqual(read.map(\.bitPattern), points.map(\.bitPattern), "every point bit for bit, a missing one NaN")
        let packed = SnapshotCodec.packedSparkline(points)
        XCTAssertEqual(packed.first, UInt8(ascii: "D"))
        let unpacked = try XCTUnwrap(packed.withUnsafeBufferPointer { SnapshotCodec.sparklinePoints($0) })
        XCTAssertEqual(unpacked.map(\.bitPattern), points.map(\.bitPattern))
        XCTAssertNil(Array(packed.dropLast()).withUnsafeBufferPointer { SnapshotCodec.sparklinePoints($0) })
        for text in ["[ 1 , null ,2e3 ]", "[]", " [] "] {
            XCTAssertNotNil(Array(text.utf8).withUnsafeBufferPointer { SnapshotCodec.sparklinePoints($0) }, text)
        }
        for text in ["", "[", "[1,]", "[,1]", "[01]", "[1] x", "[nul]", "[\"1\"]", "{}", "[NaN]"] {
            XCTAssertNil(Array(text.utf8).withUnsafeBufferPointer { SnapshotCodec.sparklinePoints($0) }, text)
        }
    }

    func testADamagedSavedSnapshotIsDroppedNotFatal() throws {
        let path = try temporaryPath()
        try offlineEngine(path).load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        let connection = try SQLiteConnection(path: path)
        try connection.execute("UPDATE snapshot SET coins = x'0102'")
        connection.close()
        let engine = try offlineEngine(path)
        assertThrows(.noData) { try engine.coins() }
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        XCTAssertEqual(try offlineEngine(path).coins().total, 12)
    }

    func testReplacingASnapshotLeavesNoSparklineRowsBehind() throws {
        let path = try temporaryPath()
        let engine = try offlineEngine(path)
        for _ in 0..<3 { try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil) }
        engine.close()
        XCTAssertEqual(try scalar(path, "SELECT count(*) FROM snapshot_sparkline"), 12)
        XCTAssertEqual(try scalar(path, "SELECT count(*) FROM snapshot"), 1)
    }

    // MARK: - ISO-8601 times

    func testISOTimesReadFastAndExactly() {
        XCTAssertEqual(ISOTime.seconds("2024-12-19T10:44:55.946Z")!, 1_734_605_095.946, accuracy: 1e-6)
        XCTAssertEqual(ISOTime.seconds("2021-03-13T20:49:26Z"), 1_615_668_566)
        XCTAssertEqual(ISOTime.seconds("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(ISOTime.seconds("2024-02-29T12:00:00+02:00"), 1_709_200_800)
        XCTAssertNil(ISOTime.seconds("yesterday"))
        XCTAssertNil(ISOTime.seconds("2024-13-01T00:00:00Z"))
    }

    // MARK: - Batch writes

    func testSetHoldingsWritesEveryEntryInOneTransaction() throws {
        let path = try temporaryPath()
        let store = try PortfolioStore(path: path)
        try store.setHolding(coinID: "dogecoin", amount: 100)
        try store.setHoldings(
            try [Holding](
                json:
                    #"{"holdings":[{"coin_id":"bitcoin","amount":0.5},{"coin_id":"ethereum","amount":2.25},{"coin_id":"dogecoin","amount":0}]}"#
            ))
        XCTAssertEqual(try store.holdings(), [Holding(coinID: "bitcoin", amount: 0.5), Holding(coinID: "ethereum", amount: 2.25)])
        XCTAssertEqual(
            try PortfolioStore(path: path).holdings(), [Holding(coinID: "bitcoin", amount: 0.5), Holding(coinID: "ethereum", amount: 2.25)])
        try store.setHoldings([])
        XCTAssertEqual(try store.holdings().count, 2)
    }

    func testABadEntryRefusesTheWholeBatch() throws {
        let store = try PortfolioStore(path: try temporaryPath())
        try store.setHolding(coinID: "bitcoin", amount: 1)
        let badID = assertThrows(.invalidArgument) {
            try store.setHoldings([
                Holding(coinID: "ethereum", amount: 2), Holding(coinID: "tether", amount: 3), Holding(coinID: "a/b", amount: 1),
            ])
        }
        XCTAssertEqual(badID?.details["index"], .number(2))
        XCTAssertEqual(badID?.details["coin_id"], .string("a/b"))
        let badAmount = assertThrows(.invalidArgument) {
            try store.setHoldings([Holding(coinID: "ethereum", amount: 2), Holding(coinID: "tether", amount: .infinity)])
        }
        XCTAssertEqual(badAmount?.details["index"], .number(1))
        let repeated = assertThrows(.invalidArgument) {
            try store.setHoldings([Holding(coinID: "ethereum", amount: 2), Holding(coinID: "ethereum", amount: 3)])
        }
        XCTAssertEqual(repeated?.details["index"], .number(1))
        XCTAssertEqual(try store.holdings(), [Holding(coinID: "bitcoin", amount: 1)], "nothing written")
    }

    func testBatchJSONIsReadStrictly() {
        for text in [
            "", "[", "[]", "{}", #"{"holdings":{}}"#, #"{"holdings":[{"coin_id":"bitcoin"}]}"#,
            #"{"holdings":[{"coin_id":1,"amount":1}]}"#, #"{"holdings":[{"coin_id":"bitcoin","amount":"1"}]}"#,
        ] {
            assertThrows(.invalidArgument) { try [Holding](json: text) }
        }
        XCTAssertEqual(
            try [Holding](json: #"{"holdings":[{"coin_id":"bitcoin","amount":0.5,"note":"ignored"}],"extra":1}"#),
            [Holding(coinID: "bitcoin", amount: 0.5)])
        // The one-pass reader of the plain form and the full decoder agree.
        let expected = [Holding(coinID: "bitcoin", amount: 0.5), Holding(coinID: "1move token", amount: 1.5e-8)]
        for text in [
            #"{"holdings":[{"coin_id":"bitcoin","amount":0.5},{"coin_id":"1move token","amount":1.5e-8}]}"#,
            " {\n \"holdings\" : [ { \"amount\" : 5E-1 , \"coin_id\" : \"bitcoin\" } ,\t{\"coin_id\":\"1move token\",\"amount\":0.000000015} ] } \n",
            #"{"holdings":[{"coin_id":"bit\u0063oin","amount":0.5},{"coin_id":"1move token","amount":1.5e-8}]}"#,
        ] {
            XCTAssertEqual(try [Holding](json: text), expected, text)
        }
        XCTAssertEqual(try [Holding](json: #"{"holdings":[]}"#), [])
        XCTAssertEqual(try [Holding](json: #"{"holdings":[{"coin_id":"b","amount":-0}]}"#).first?.amount.sign, .minus)
        for text in [
            #"{"holdings":[{"coin_id":"b","amount":01}]}"#, #"{"holdings":[{"coin_id":"b","amount":1.}]}"#,
            #"{"holdings":[{"coin_id":"b","amount":.5}]}"#, #"{"holdings":[{"coin_id":"b","amount":1}],}"#,
            #"{"holdings":[{"coin_id":"b","amount":1},]}"#, #"{"holdings":[{"coin_id":"b","amount":1}]} x"#,
            "{\"holdings\":[{\"coin_id\":\"a\u{1}b\",\"amount\":1}]}",
        ] {
            assertThrows(.invalidArgument) { try [Holding](json: text) }
        }
    }

    // MARK: - The holdings cache

    func testTheCacheAgreesWithTheFileAfterMixedWrites() throws {
        let path = try temporaryPath()
        let store = try PortfolioStore(path: path)
        _ = try store.holdings()  // the cache is live from here on
        var generator = SystemRandomNumberGenerator()
        var expected: [String: Double] = [:]
        for step in 0..<600 {
            let id = "coin-\(Int.random(in: 0..<60, using: &generator))"
            let amount = step % 5 == 0 ? 0 : Double(step)
            try store.setHolding(coinID: id, amount: amount)
            expected[id] = amount > 0 ? amount : nil
            if step % 50 == 0 {
                XCTAssertEqual(try store.holdings(), expected.sorted { $0.key < $1.key }.map { Holding(coinID: $0.key, amount: $0.value) })
            }
        }
        let fromFile = try PortfolioStore(path: path).holdings()
        XCTAssertEqual(try store.holdings(), fromFile)
        XCTAssertEqual(fromFile.count, expected.count)
    }

    func testNFCAndNFDSpellingsStayTwoHoldings() throws {
        let store = try PortfolioStore(path: try temporaryPath())
        _ = try store.holdings()
        try store.setHolding(coinID: "pok\u{E9}mon", amount: 1)
        try store.setHolding(coinID: "poke\u{301}mon", amount: 2)
        XCTAssertEqual(try store.holdings().map(\.amount).sorted(), [1, 2])
        try store.setHolding(coinID: "pok\u{E9}mon", amount: 0)
        XCTAssertEqual(try store.holdings().map(\.amount), [2])
    }
}
