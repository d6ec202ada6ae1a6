import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §10 "Offline truth" (issue 18): the data's own time, a snapshot per currency, honest
/// totals, saved details and statistics from the snapshot alone.
/// Runs on SQLite and, in `make test`'s PostgreSQL pass, on the server (the name ends in
/// `EngineTests` for the pass's filter).
final class OfflineTruthEngineTests: XCTestCase {
    private var server: TestServer?
    /// The owner of this test's rows (its own on the PostgreSQL server).
    private var owner = "default"

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func engine(
        database: String = ":memory:", vs: VsCurrency = .usd, detailTTL: Double = 600, online: Bool = false
    ) throws -> PortfolioEngine {
        var baseURL = "http://127.0.0.1:9"
        if online {
            let server = try self.server ?? TestServer()
            self.server = server
            baseURL = server.baseURL
        }
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database, owner: database == ":memory:" ? "default" : owner, vsCurrency: vs, detailTTL: detailTTL,
                api: try ClientConfiguration(baseURL: baseURL, timeout: 5, maxRetries: 0)))
    }

    /// A database of this test's own: a new SQLite file, or a new owner on the PostgreSQL server.
    private func databasePath() throws -> String {
        let database = try TestDatabase.fresh(self, name: "coinfolio.sqlite")
        owner = database.owner
        return database.location
    }

    private func markets() throws -> Data { try Repository.fixture("markets.json") }
    private func global() throws -> Data { try Repository.fixture("global.json") }

    // MARK: - as_of, fetched_at, stale

    func testAsOfIsTheNewestLastUpdatedNotTheLoadTime() throws {
        let engine = try engine()
        let before = Date()
        let summary = try engine.load(marketsBody: try markets(), globalBody: nil)
        XCTAssertEqual(isoTimestamp(summary.asOf), "2024-12-19T10:44:55Z")
        XCTAssertEqual(summary.asOf.timeIntervalSince1970, 1_734_605_095.946, accuracy: 0.001)
        XCTAssertGreaterThanOrEqual(summary.fetchedAt.timeIntervalSince1970, before.timeIntervalSince1970.rounded(.down))
        XCTAssertTrue(summary.isStale, "a loaded old body is stale at once")
        let listing = try engine.coins()
        XCTAssertEqual(isoTimestamp(listing.asOf), "2024-12-19T10:44:55Z")
        XCTAssertTrue(listing.isStale)
        XCTAssertTrue(listing.json.contains(#""as_of":"2024-12-19T10:44:55Z","fetched_at":"#))
        XCTAssertTrue(summary.json.contains(#""as_of":"2024-12-19T10:44:55Z","fetched_at":"#))
        XCTAssertTrue(summary.json.hasSuffix(#""stale":true,"fetched":false}"#), "a load sends no request")
    }

    func testGlobalUpdatedAtWinsWhenNewer() throws {
        let engine = try engine()
        let newerGlobal = Data(#"{"data":{"updated_at":1734608695}}"#.utf8)
        XCTAssertEqual(isoTimestamp(try engine.load(marketsBody: try markets(), globalBody: newerGlobal).asOf), "2024-12-19T11:44:55Z")
        let olderGlobal = Data(#"{"data":{"updated_at":1600000000}}"#.utf8)
        XCTAssertEqual(isoTimestamp(try engine.load(marketsBody: try markets(), globalBody: olderGlobal).asOf), "2024-12-19T10:44:55Z")
    }

    func testAsOfFallsBackToTheFetchTimeWhenTheDataHasNone() throws {
        let engine = try engine()
        let summary = try engine.load(marketsBody: Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin"}]"#.utf8), globalBody: nil)
        XCTAssertEqual(summary.asOf, summary.fetchedAt)
        XCTAssertFalse(summary.isStale)
    }

    func testALiveRefreshIsFreshAndItsTimesNearlyEqual() throws {
        let engine = try engine(online: true)
        try XCTUnwrap(server).live()
        let summary = try engine.refresh()
        XCTAssertFalse(summary.isStale)
        XCTAssertLessThan(abs(summary.fetchedAt.timeIntervalSince(summary.asOf)), 60)
    }

    func testARecordedRefreshIsStaleAtOnce() throws {
        let engine = try engine(online: true)
        let summary = try engine.refresh()
        XCTAssertEqual(isoTimestamp(summary.asOf), "2024-12-19T10:44:55Z")
        XCTAssertTrue(summary.isStale)
    }

    func testTimesSurviveReopening() throws {
        let path = try databasePath()
        let summary = try engine(database: path).load(marketsBody: try markets(), globalBody: try global())
        let reopened = try engine(database: path)
        let listing = try reopened.coins()
        XCTAssertEqual(isoTimestamp(listing.asOf), "2024-12-19T10:44:55Z")
        XCTAssertEqual(listing.fetchedAt.map(isoTimestamp), isoTimestamp(summary.fetchedAt))
        XCTAssertTrue(listing.isStale)
    }

    // MARK: - One snapshot per vs_currency

    func testSnapshotsAreKeptPerCurrencyAndSwitchingKeepsBoth() throws {
        let path = try databasePath()
        try engine(database: path).load(marketsBody: try markets(), globalBody: try global())
        let jpy = try engine(database: path, vs: .init("jpy"))
        let error = assertThrows(.noData) { try jpy.coins() }
        XCTAssertEqual(error?.details["vs_currency"], .string("jpy"))
        XCTAssertTrue(error?.message.contains("jpy") ?? false)
        try jpy.load(
            marketsBody: Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":14800000}]"#.utf8), globalBody: nil)
        XCTAssertEqual(try engine(database: path).coins().coins.first?.currentPrice, 57000.123, "usd is still there")
        XCTAssertEqual(try engine(database: path, vs: .init("jpy")).coins().coins.first?.currentPrice, 14_800_000)
        XCTAssertEqual(try engine(database: path).coins().total, 12)
        XCTAssertEqual(try PortfolioStore(path: path, owner: owner).snapshotCurrencies(), ["jpy", "usd"])
    }

    func testARefreshInAnotherCurrencyKeepsTheFirstOnesSnapshot() throws {
        let path = try databasePath()
        try engine(database: path).load(marketsBody: try markets(), globalBody: nil)
        let jpy = try engine(database: path, vs: .init("jpy"), online: true)
        XCTAssertEqual(try jpy.refresh().coins, 12)
        let query = try XCTUnwrap(server?.requests(to: "/api/v3/coins/markets").last?["query"] as? [String: String])
        XCTAssertEqual(query["vs_currency"], "jpy")
        XCTAssertEqual(try engine(database: path).coins().total, 12, "usd kept")
        XCTAssertEqual(try PortfolioStore(path: path, owner: owner).snapshotCurrencies(), ["jpy", "usd"])
    }

    func testARestoredSnapshotKeepsItsSparklinesThroughHistoryAndPriceUpdates() throws {
        let path = try databasePath()
        let first = try engine(database: path)
        try first.load(marketsBody: try markets(), globalBody: nil)
        try first.setHolding(coinID: "bitcoin", amount: 0.5)
        let history = try first.portfolioHistory().points.count
        first.close()
        let restored = try engine(database: path, online: true)
        XCTAssertEqual(try restored.portfolioHistory().points.count, history, "sparklines read from the file")
        XCTAssertEqual(history, 170)
        XCTAssertEqual(try restored.refreshPrices().coins, 1)
        XCTAssertEqual(try restored.coins(CoinQuery(search: "bitcoin")).coins.first?.currentPrice, 58000.5)
        XCTAssertEqual(try restored.coins(CoinQuery(search: "bitcoin")).coins.first?.sparklineIn7d?.count, 170)
        restored.close()
        let again = try engine(database: path)
        XCTAssertEqual(try again.coins(CoinQuery(search: "bitcoin")).coins.first?.sparklineIn7d?.count, 170, "kept in the file")
        XCTAssertEqual(try again.coins(CoinQuery(search: "ethereum")).coins.first?.sparklineIn7d?.count, 168)
        XCTAssertEqual(try again.coins(CoinQuery(search: "bitcoin")).coins.first?.currentPrice, 58000.5)
    }

    // MARK: - A private :memory: database keeps no second copy (issue 11)

    /// Every sparkline point of every coin, as bits (a missing point's NaN included).
    private func sparklineBits(_ engine: PortfolioEngine) throws -> [[UInt64]?] {
        try engine.coins().coins.map { $0.sparklineIn7d?.map(\.bitPattern) }
    }

    /// An answer's JSON without its `fetched_at` (the load time of each engine).
    private func withoutFetchTime(_ json: String) -> String {
        json.replacingOccurrences(of: #""fetched_at":"[^"]*""#, with: "", options: .regularExpression)
    }

    func testAMemoryEngineAnswersExactlyAsADatabaseEngineAndAReopenedOne() throws {
        let path = try databasePath()
        let memory = try engine()
        let database = try engine(database: path)
        for engine in [memory, database] {
            try engine.load(marketsBody: try markets(), globalBody: try global())
            try engine.setHolding(coinID: "bitcoin", amount: 0.5)
            try engine.setHolding(coinID: "ethereum", amount: 2.25)
        }
        XCTAssertEqual(try memory.store.snapshotCurrencies(), [], "nothing saved where nobody can read it back")
        XCTAssertEqual(try database.store.snapshotCurrencies(), ["usd"])
        func assertAnswersAlike(_ other: PortfolioEngine, _ what: String) throws {
            XCTAssertEqual(try other.coins().coins, try memory.coins().coins, what)
            XCTAssertEqual(try sparklineBits(other), try sparklineBits(memory), "every sparkline point bit for bit: \(what)")
            let withoutSparklines = CoinQuery(sparkline: false)
            XCTAssertEqual(
                withoutFetchTime(try other.coins(withoutSparklines).json), withoutFetchTime(try memory.coins(withoutSparklines).json), what)
            XCTAssertEqual(withoutFetchTime(try other.portfolio().json), withoutFetchTime(try memory.portfolio().json), what)
            XCTAssertEqual(try other.statistics(), try memory.statistics(), what)
            XCTAssertEqual(try other.portfolioHistory(), try memory.portfolioHistory(), what)
            XCTAssertEqual(try other.coins().asOf, try memory.coins().asOf, what)
        }
        try assertAnswersAlike(database, "the database engine")
        database.close()
        try assertAnswersAlike(try engine(database: path), "the database reopened")
        XCTAssertEqual(try sparklineBits(memory).first??.count, 170)
        XCTAssertEqual(try memory.portfolio().totalValue, 0.5 * 57000.123 + 2.25 * 3928.55)
        XCTAssertEqual(try memory.portfolioHistory().points.count, 170)
    }

    func testAMemoryEngineKeepsItsSparklinesThroughPriceUpdates() throws {
        let memory = try engine(online: true)
        try memory.load(marketsBody: try markets(), globalBody: nil)
        try memory.setHolding(coinID: "bitcoin", amount: 0.5)
        let points = try XCTUnwrap(try memory.coins(CoinQuery(search: "bitcoin")).coins.first?.sparklineIn7d)
        XCTAssertEqual(try memory.refreshPrices().coins, 1)
        let updated = try XCTUnwrap(try memory.coins(CoinQuery(search: "bitcoin")).coins.first)
        XCTAssertEqual(updated.currentPrice, 58000.5)
        XCTAssertEqual(updated.sparklineIn7d?.map(\.bitPattern), points.map(\.bitPattern))
        XCTAssertEqual(points.count, 170)
        XCTAssertEqual(try memory.portfolioHistory().points.count, 170)
    }

    func testSwitchingCurrencyAndBackAnswersExactlyAsLoaded() throws {
        let path = try databasePath()
        let usd = try engine(database: path)
        try usd.load(marketsBody: try markets(), globalBody: try global())
        try usd.setHolding(coinID: "bitcoin", amount: 0.5)
        let loaded = (
            try usd.coins().json, try usd.portfolio().json, try usd.statistics(), try usd.portfolioHistory(), try sparklineBits(usd)
        )
        usd.close()
        let eur = try engine(database: path, vs: .init("eur"))
        try eur.load(
            marketsBody: Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":52000.5}]"#.utf8), globalBody: nil)
        XCTAssertEqual(try eur.coins().coins.first?.currentPrice, 52000.5)
        eur.close()
        let back = try engine(database: path)
        XCTAssertEqual(try back.coins().json, loaded.0, "every field, fetched_at and every sparkline point as loaded")
        XCTAssertEqual(try back.portfolio().json, loaded.1)
        XCTAssertEqual(try back.statistics(), loaded.2)
        XCTAssertEqual(try back.portfolioHistory(), loaded.3)
        XCTAssertEqual(try sparklineBits(back), loaded.4)
    }
    // MARK: - Honest totals

    func testATotalOverHoldingsNoneOfWhichIsPricedIsNullNeverZero() throws {
        let path = try databasePath()
        let usd = try engine(database: path)
        try usd.load(marketsBody: try markets(), globalBody: nil)
        try usd.setHolding(coinID: "bitcoin", amount: 0.5)
        try usd.setHolding(coinID: "ethereum", amount: 2)
        let jpy = try engine(database: path, vs: .init("jpy"))
        let portfolio = try jpy.portfolio()
        XCTAssertNil(portfolio.totalValue)
        XCTAssertEqual(portfolio.unpricedHoldings, 2)
        XCTAssertTrue(portfolio.json.contains(#""total_value":null,"unpriced_holdings":2,"as_of":null,"fetched_at":null"#))
        // A snapshot where no held coin has a price: still unknown.
        try jpy.load(marketsBody: Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":null}]"#.utf8), globalBody: nil)
        XCTAssertNil(try jpy.portfolio().totalValue)
        XCTAssertEqual(try jpy.statistics()[3].value, "n/a")
    }

    func testATotalSaysHowManyHoldingsItLeavesOut() throws {
        let engine = try engine()
        try engine.load(marketsBody: try markets(), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try engine.setHolding(coinID: "not-a-listed-coin", amount: 10)
        let portfolio = try engine.portfolio()
        XCTAssertEqual(try XCTUnwrap(portfolio.totalValue), 28_500.0615, accuracy: 1e-9)
        XCTAssertEqual(portfolio.unpricedHoldings, 1)
        XCTAssertTrue(portfolio.json.contains(#""total_value":28500.0615,"unpriced_holdings":1,"#))
    }

    func testAnEmptyPortfolioTotalsZero() throws {
        let engine = try engine()
        let portfolio = try engine.portfolio()
        XCTAssertEqual(portfolio.totalValue, 0)
        XCTAssertEqual(portfolio.unpricedHoldings, 0)
    }

    // MARK: - Statistics from the snapshot alone

    func testCoinStatisticsComeFromTheSnapshotAloneWithoutTheNetwork() throws {
        let engine = try engine()
        assertThrows(.noData) { try engine.coinStatistics(id: "bitcoin") }
        try engine.load(marketsBody: try markets(), globalBody: try global())
        let statistics = try engine.coinStatistics(id: "bitcoin")
        XCTAssertEqual(statistics.coin.id, "bitcoin")
        XCTAssertEqual(
            statistics.overview.map(\.title), ["Current Price", "Market Capitalization", "Rank", "Volume"])
        XCTAssertEqual(statistics.overview[0].value, "$57,000.123")
        XCTAssertEqual(statistics.overview[2].value, "1")
        XCTAssertEqual(
            statistics.additional.map(\.title),
            ["24h High", "24h Low", "24h Price Change", "24h Market Cap Change", "Block Time", "Hashing Algorithm"])
        XCTAssertEqual(statistics.additional[4].value, "n/a")
        XCTAssertEqual(engine.metrics().httpRequests, [:])
        let json = statistics.json
        XCTAssertTrue(json.hasPrefix(#"{"coin":{"id":"bitcoin","#))
        XCTAssertTrue(json.contains(#""overview":[{"title":"Current Price","value":"$57,000.123","#))
        XCTAssertFalse(json.contains(#""detail""#))
        assertThrows(.notFound) { try engine.coinStatistics(id: "not-a-listed-coin") }
        assertThrows(.invalidArgument) { try engine.coinStatistics(id: "a/b") }
    }

    // MARK: - Saved details

    func testADetailIsSavedAndAnswersALaterProcessOffline() throws {
        let path = try databasePath()
        let first = try engine(database: path, online: true)
        let fetched = try first.coinDetail(id: "bitcoin")
        XCTAssertFalse(fetched.isStale)
        first.close()
        let offline = try engine(database: path)
        let saved = try offline.coinDetail(id: "bitcoin")
        XCTAssertEqual(saved.detail, fetched.detail)
        XCTAssertFalse(saved.isStale, "younger than the TTL")
        XCTAssertEqual(saved.asOf.map(isoTimestamp), fetched.asOf.map(isoTimestamp))
        XCTAssertEqual(offline.metrics().httpRequests, [:])
        XCTAssertEqual(offline.metrics().detailCacheHits, 1)
    }

    func testAFailedDetailRefreshReturnsTheSavedOneAsStale() throws {
        let path = try databasePath()
        let engine = try engine(database: path, detailTTL: 0, online: true)
        let first = try engine.coinDetail(id: "bitcoin")
        try XCTUnwrap(server).fault(["path": "/api/v3/coins/bitcoin", "status": 500, "body": "oops"])
        let again = try engine.coinDetail(id: "bitcoin")
        XCTAssertTrue(again.isStale)
        XCTAssertEqual(
            try XCTUnwrap(again.asOf).timeIntervalSince1970, try XCTUnwrap(first.asOf).timeIntervalSince1970, accuracy: 1e-3)
        XCTAssertEqual(again.detail.hashingAlgorithm, "SHA-256")
        XCTAssertTrue(again.json.hasSuffix(#""stale":true}"#))
        XCTAssertEqual(engine.metrics().httpRequests[.detail], 2)
        assertThrows(.notFound) { try engine.coinDetail(id: "no-such-coin") }
    }

    func testAFailedDetailWithNothingSavedFails() throws {
        let engine = try engine(online: true)
        try XCTUnwrap(server).fault(["path": "/api/v3/coins/bitcoin", "status": 500, "body": "oops"])
        assertThrows(.http) { try engine.coinDetail(id: "bitcoin") }
        XCTAssertNil(try engine.savedCoinDetail(id: "bitcoin"))
    }

    func testSavedStatisticsUseTheSavedDetailsBlockTime() throws {
        let path = try databasePath()
        let online = try engine(database: path, online: true)
        try online.load(marketsBody: try markets(), globalBody: nil)
        _ = try online.coinDetail(id: "bitcoin")
        let statistics = try engine(database: path).coinStatistics(id: "bitcoin")
        XCTAssertEqual(statistics.additional[4].value, "10")
        XCTAssertEqual(statistics.additional[5].value, "SHA-256")
    }
}
