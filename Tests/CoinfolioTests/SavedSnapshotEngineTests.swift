import Foundation
import Synchronization
import XCTest

@_spi(ABI) @testable import Coinfolio

/// The saved snapshot read back lazily (`CompactCoins`), on both backends: a blob no save could
/// have written is dropped at open (the engine then has no data), never listed; sparkline points
/// at the edges of `Double` come back bit for bit; queries on many threads while another thread
/// loads always answer from one whole snapshot.
final class SavedSnapshotEngineTests: XCTestCase {
    private func engine(_ database: TestDatabase) throws -> PortfolioEngine {
        try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner,
                api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
    }

    /// Replaces the saved coins of `database`'s snapshot with `blob`, as a damaged or foreign
    /// file would hold them.
    private func overwriteSavedCoins(_ database: TestDatabase, with blob: [UInt8]) throws {
        let connection = try DatabaseLocation.open(database.location)
        defer { connection.close() }
        let statement = try connection.statement("UPDATE snapshot SET coins = ?1")
        try blob.withUnsafeBytes { raw in
            statement.bind(1, borrowing: raw)
            XCTAssertEqual(try statement.run("damage"), 1)
        }
    }

    func testABlobNoSaveWroteIsDroppedNotListed() throws {
        let body = try Repository.fixture("markets.json")
        let coins = try CoinGeckoBody.markets(body).coins
        let written = SnapshotCodec.encode(coins)
        let foreign: [(String, [UInt8])] = [
            // Found by break3: each of these opened, and the first listed bitcoin twice (13 coins).
            ("bitcoin twice", SnapshotCodec.encode(coins + [coins[0]])),
            ("no coin", SnapshotCodec.encode([])),
            ("bytes after the records", written + [0]),
            ("truncated", Array(written.dropLast())),
            ("another magic", Array("CFS2".utf8) + written.dropFirst(4)),
            ("JSON text", Array(body)),
        ]
        for (name, blob) in foreign {
            let database = try TestDatabase.fresh(self, name: "\(name).sqlite")
            let first = try engine(database)
            try first.load(marketsBody: body, globalBody: try Repository.fixture("global.json"))
            try first.setHolding(coinID: "bitcoin", amount: 0.5)
            first.close()
            try overwriteSavedCoins(database, with: blob)
            let reopened = try engine(database)
            assertThrows(.noData) { try reopened.coins() }
            assertThrows(.noData) { try reopened.statistics() }
            let portfolio = try reopened.portfolio()
            XCTAssertEqual(portfolio.entries.map(\.coinID), ["bitcoin"], name)
            XCTAssertNil(portfolio.totalValue, "\(name): no price without a snapshot")
            // The next load replaces it.
            try reopened.load(marketsBody: body, globalBody: nil)
            XCTAssertEqual(try reopened.coins().total, 12, name)
            reopened.close()
            XCTAssertEqual(try engine(database).coins().total, 12, name)
        }
    }

    func testASchemaOneSnapshotWithoutACoinIsDroppedAsTheCompactOneIs() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("schema-v1.sqlite").path
        try FileManager.default.copyItem(
            at: Repository.root.appendingPathComponent("Tests/fixtures/store/schema-v1.sqlite"), to: URL(fileURLWithPath: path))
        let connection = try SQLiteConnection(path: path)
        try connection.execute("UPDATE market_snapshot SET markets = CAST('[]' AS BLOB)")
        connection.close()
        // Before, the first open listed 0 coins and saved them; the second then had no data.
        for _ in 0..<2 {
            let engine = try engine(TestDatabase(location: path, owner: "default"))
            assertThrows(.noData) { try engine.coins() }
            XCTAssertEqual(try engine.store.holdings().count, 4)
            engine.close()
        }
    }

    func testTheBlobWrittenIsExactlyWhatSkimmingAccepts() throws {
        let coins = try CoinGeckoBody.markets(try Repository.fixture("markets.json")).coins
        let written = SnapshotCodec.encode(coins)
        XCTAssertEqual(try CompactCoins.shared(blob: Data(written)).count, 12)
        for blob in [written + [0], SnapshotCodec.encode([])] {
            XCTAssertThrowsError(try CompactCoins.shared(blob: Data(blob))) { error in
                XCTAssertEqual((error as? CoinfolioError)?.code, .store)
            }
        }
    }

    func testSparklinePointsAtTheEdgesOfDoubleComeBackBitForBit() throws {
        let points =
            "[-0.0,null,1e308,5e-324,2.2250738585072014e-308,1e-320,-1e-310,0,1.7976931348623157e308,\"1.5\",true,0.30000000000000004]"
        let long = "[" + (0..<10_000).map { String(Double($0) * 1.000001) }.joined(separator: ",") + "]"
        let sparklines = [points, "[]", long, "\"abc\"", "null", "{\"a\":1}"]
        let rows = sparklines.enumerated().map { index, sparkline in
            #"{"id":"c\#(index)","symbol":"c","name":"C \#(index)","current_price":\#(index + 1),"market_cap_rank":\#(index + 1),"#
                + #""sparkline_in_7d":{"price":\#(sparkline)}}"#
        }
        let body = Data("[\(rows.joined(separator: ","))]".utf8)
        let database = try TestDatabase.fresh(self)
        let first = try engine(database)
        try first.load(marketsBody: body, globalBody: nil)
        // Bit patterns, every NaN (a null or non-number point) as one.
        func bits(_ engine: PortfolioEngine) throws -> [[UInt64]?] {
            try engine.coins(CoinQuery(sort: .rank)).coins.map { coin in
                coin.sparklineIn7d?.map { $0.isNaN ? Double.nan.bitPattern : $0.bitPattern }
            }
        }
        let loaded = try bits(first)
        XCTAssertEqual(loaded[0]?.count, 12)
        XCTAssertEqual(loaded[0]?[0], (-0.0 as Double).bitPattern, "-0 keeps its sign")
        XCTAssertEqual(loaded[0]?[1], Double.nan.bitPattern, "null is a missing point")
        XCTAssertEqual(loaded[0]?[3], 1, "the smallest subnormal")
        XCTAssertEqual(loaded[1], [], "an empty sparkline stays empty")
        XCTAssertEqual(loaded[2]?.count, 10_000)
        XCTAssertEqual(loaded[3...].map { $0 == nil }, [true, true, true], "a price that is not an array is no sparkline")
        let loadedJSON = try first.coins().json
        first.close()
        let reopened = try engine(database)
        XCTAssertEqual(try bits(reopened), loaded, "every point bit for bit after the round trip")
        XCTAssertEqual(try reopened.coins().json, loadedJSON)
    }

    func testQueriesOnManyThreadsWhileAnotherLoadsAnswerFromOneWholeSnapshot() throws {
        let database = try TestDatabase.fresh(self)
        let body = try Repository.fixture("markets.json")
        let global = try Repository.fixture("global.json")
        let first = try engine(database)
        try first.load(marketsBody: body, globalBody: global)
        try first.setHolding(coinID: "bitcoin", amount: 0.5)
        try first.setHolding(coinID: "tether", amount: 10)
        let listed = try first.coins(CoinQuery(sparkline: false)).coins.map { coin in
            var coin = coin
            coin.sparklineIn7d = nil
            return coin
        }
        let expected = (
            listed, try first.portfolio(PortfolioQuery(sparkline: false)).entries,
            try first.statistics().prefix(4).map(\.value)
        )
        first.close()
        let engine = try engine(database)  // the compact snapshot, decoded on first use
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { thread in
            for round in 0..<15 {
                do {
                    if thread == 0 {
                        try engine.load(marketsBody: body, globalBody: global)
                        continue
                    }
                    let sort = CoinSort.allCases[(thread + round) % CoinSort.allCases.count]
                    let listing = try engine.coins(CoinQuery(sort: sort, sparkline: round % 2 == 0))
                    let searched = try engine.coins(CoinQuery(search: "bit", sort: sort, sparkline: false))
                    let portfolio = try engine.portfolio(PortfolioQuery(sparkline: round % 3 == 0))
                    let statistics = try engine.statistics().prefix(4).map(\.value)
                    _ = try engine.pnl(PnLOptions()).json
                    _ = try engine.portfolioHistory(PortfolioHistoryOptions()).json
                    _ = try engine.portfolioJSON(PortfolioQuery(sparkline: false))
                    var coins = listing.coins
                    for index in coins.indices { coins[index].sparklineIn7d = nil }
                    var problems: [String] = []
                    if Set(coins) != Set(expected.0) { problems.append("coins \(sort)") }
                    if searched.coins.contains(where: {
                        !$0.name.lowercased().contains("bit") && !$0.id.contains("bit") && !$0.symbol.contains("bit")
                    }) {
                        problems.append("search")
                    }
                    if portfolio.entries.map({ $0.coin?.currentPrice }) != expected.1.map({ $0.coin?.currentPrice }) {
                        problems.append("portfolio")
                    }
                    if statistics != expected.2 { problems.append("statistics") }
                    if !problems.isEmpty { failures.withLock { $0 += problems } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
    }

    // MARK: - A private :memory: database saves no snapshot

    /// An answer's JSON without its `fetched_at` (each engine's own load time).
    private func withoutFetchTime(_ json: String) -> String {
        json.replacingOccurrences(of: #""fetched_at":"[^"]*""#, with: "", options: .regularExpression)
    }

    func testAMemoryEngineAnswersAsADatabaseEngineThroughAFailedRefreshPricesAndDetails() throws {
        let server = try TestServer()
        defer { server.stop() }
        let database = try TestDatabase.fresh(self)
        func online(_ location: String, owner: String) throws -> PortfolioEngine {
            try PortfolioEngine(
                configuration: EngineConfiguration(
                    database: location, owner: owner,
                    api: try ClientConfiguration(baseURL: server.baseURL, timeout: 5, maxRetries: 0)))
        }
        let memory = try online(":memory:", owner: "default")
        let file = try online(database.location, owner: database.owner)
        for engine in [memory, file] {
            let missing = engine.noDataError()
            XCTAssertEqual(missing.message, "no usd market data yet: refresh, or load saved CoinGecko bodies, with vs_currency usd")
            try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
            try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        }
        func assertAlike(_ what: String) throws {
            XCTAssertEqual(withoutFetchTime(try memory.coins().json), withoutFetchTime(try file.coins().json), what)
            XCTAssertEqual(withoutFetchTime(try memory.portfolio().json), withoutFetchTime(try file.portfolio().json), what)
            XCTAssertEqual(try memory.statistics(), try file.statistics(), what)
            XCTAssertEqual(try memory.portfolioHistory(), try file.portfolioHistory(), what)
            XCTAssertEqual(try memory.coinStatistics(id: "bitcoin").json, try file.coinStatistics(id: "bitcoin").json, what)
        }
        // A failed refresh keeps the loaded snapshot, marked stale, on both.
        for engine in [memory, file] {
            try server.fault(["path": "/api/v3/coins/markets", "status": 500, "body": "oops"])
            assertThrows(.http) { try engine.refresh() }
            XCTAssertTrue(try engine.coins().isStale)
            XCTAssertEqual(try engine.coins().total, 12)
        }
        try assertAlike("after a failed refresh")
        // A price update keeps every sparkline (in memory on one, in the file on the other).
        for engine in [memory, file] { XCTAssertEqual(try engine.refreshPrices().coins, 1) }
        try assertAlike("after a price update")
        XCTAssertEqual(try memory.coins(CoinQuery(search: "bitcoin")).coins.first?.sparklineIn7d?.count, 170)
        // A detail whose request fails has no saved detail to fall back on: the same error.
        for engine in [memory, file] {
            try server.fault(["path": "/api/v3/coins/bitcoin", "status": 500, "body": "oops"])
            assertThrows(.http) { try engine.coinDetail(id: "bitcoin") }
        }
        XCTAssertEqual(
            try memory.coinDetail(id: "bitcoin").coin?.currentPrice, try file.coinDetail(id: "bitcoin").coin?.currentPrice)
        XCTAssertEqual(try memory.store.snapshotCurrencies(), [])
    }
}
