import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §6: the tracker's view-model logic, on fixtures and over the loopback server; run on
/// SQLite and (COINFOLIO_TEST_BACKEND=postgres) on PostgreSQL.
final class EngineTests: XCTestCase {
    private var server: TestServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func engine(database: TestDatabase? = nil, coinLimit: Int = 250, maxRetries: Int = 0) throws -> PortfolioEngine {
        let server = try self.server ?? TestServer()
        self.server = server
        let database = try database ?? TestDatabase.fresh(self)
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner, coinLimit: coinLimit,
                api: try ClientConfiguration(baseURL: server.baseURL, timeout: 5, maxRetries: maxRetries)))
    }

    /// An engine that never reaches a server: loads bodies only.
    private func offlineEngine(database: TestDatabase? = nil) throws -> PortfolioEngine {
        let database = try database ?? TestDatabase.fresh(self)
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner,
                api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
    }

    private func coin(_ id: String, price: Double?, change: Double?, rank: Int? = nil) -> String {
        func n(_ value: Double?) -> String { value.map { "\($0)" } ?? "null" }
        return
            #"{"id":"\#(id)","symbol":"\#(id.prefix(3))","name":"\#(id.capitalized)","current_price":\#(n(price)),"price_change_percentage_24h":\#(n(change)),"market_cap_rank":\#(rank.map(String.init) ?? "null")}"#
    }

    func testRefreshMakesOneMarketsAndOneGlobalRequestAndNoDetail() throws {
        let engine = try engine()
        try server?.live()
        let summary = try engine.refresh()
        XCTAssertEqual(summary.coins, 12)
        XCTAssertFalse(summary.isStale)
        XCTAssertEqual(engine.metrics().httpRequests, [.markets: 1, .global: 1])
    }

    func testHeldCoinsOutsideThePageAreToppedUpWithOneIDsRequest() throws {
        let engine = try engine(coinLimit: 5)
        try engine.setHolding(coinID: "bitcoin", amount: 1)
        try engine.setHolding(coinID: "baby-doge-coin", amount: 1_000_000)
        try engine.setHolding(coinID: "delisted-coin", amount: 2)
        try engine.refresh()
        XCTAssertEqual(engine.metrics().httpRequests, [.markets: 2, .global: 1])
        let topUp = try XCTUnwrap(server?.requests(to: "/api/v3/coins/markets").last?["query"] as? [String: String])
        XCTAssertEqual(topUp["ids"], "baby-doge-coin,delisted-coin")
        let portfolio = try engine.portfolio()
        let baby = try XCTUnwrap(portfolio.entries.first { $0.coinID == "baby-doge-coin" })
        XCTAssertEqual(try XCTUnwrap(baby.value), 1_000_000 * 1.186e-09, accuracy: 1e-12)
        let delisted = try XCTUnwrap(portfolio.entries.first { $0.coinID == "delisted-coin" })
        XCTAssertFalse(delisted.isPriceAvailable)
        XCTAssertTrue(portfolio.json.contains(#""price_available":false"#))
    }

    func testDetailIsLoadedOnlyOnDemandAndCached() throws {
        let engine = try engine()
        try engine.refresh()
        XCTAssertEqual(engine.metrics().httpRequests[.detail], nil)
        let screen = try engine.coinDetail(id: "bitcoin")
        XCTAssertEqual(screen.overview.map(\.title), ["Current Price", "Market Capitalization", "Rank", "Volume"])
        XCTAssertEqual(
            screen.additional.map(\.title),
            ["24h High", "24h Low", "24h Price Change", "24h Market Cap Change", "Block Time", "Hashing Algorithm"])
        XCTAssertEqual(screen.overview[0].value, "$57,000.123")
        XCTAssertEqual(screen.overview[2].value, "1")
        XCTAssertEqual(screen.additional[4].value, "10")
        _ = try engine.coinDetail(id: "bitcoin")
        XCTAssertEqual(engine.metrics().httpRequests[.detail], 1)
        XCTAssertEqual(engine.metrics().detailCacheHits, 1)
    }

    func testMissingDetailValuesPrintNotAvailable() throws {
        let engine = try engine()
        try engine.refresh()
        let screen = try engine.coinDetail(id: "boringdao-[old]")
        XCTAssertEqual(screen.additional.first { $0.title == "Block Time" }?.value, "n/a")
        XCTAssertEqual(screen.additional.first { $0.title == "Hashing Algorithm" }?.value, "n/a")
        XCTAssertFalse(screen.json.contains(#""value":"$""#))
    }

    func testConcurrentAsksForOneDetailShareOneRequest() throws {
        let engine = try engine()
        try server?.fault([
            "path": "/api/v3/coins/bitcoin", "delay_ms": 300, "status": 200,
            "body": String(decoding: try Repository.detailBody("bitcoin"), as: UTF8.self),
        ])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do { _ = try engine.coinDetail(id: "bitcoin") } catch { XCTFail("\(error)") }
        }
        XCTAssertEqual(engine.metrics().httpRequests[.detail], 1)
        XCTAssertEqual(try server?.requests(to: "/api/v3/coins/bitcoin").count, 1)
    }

    func testPortfolioChangeUsesPreviousValue() throws {
        let engine = try offlineEngine()
        try engine.load(
            marketsBody: Data("[\(coin("alpha", price: 50, change: -50, rank: 1)),\(coin("beta", price: 110, change: 10, rank: 2))]".utf8),
            globalBody: try Repository.fixture("global.json"))
        try engine.setHolding(coinID: "alpha", amount: 1)
        try engine.setHolding(coinID: "beta", amount: 1)
        let value = try XCTUnwrap(engine.statistics().first { $0.title == "Portfolio Value" })
        XCTAssertEqual(value.value, "$160.00")
        XCTAssertEqual(try XCTUnwrap(value.percentageChange), -20, accuracy: 1e-9)
    }

    func testEmptyPortfolioIsZeroWithNoChange() throws {
        let engine = try offlineEngine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        let value = try XCTUnwrap(engine.statistics().first { $0.title == "Portfolio Value" })
        XCTAssertEqual(value.value, "$0.00")
        XCTAssertNil(value.percentageChange)
    }

    func testACoinAtMinusHundredPercentGivesNoChangeNeverInfinity() throws {
        let engine = try offlineEngine()
        try engine.load(marketsBody: Data("[\(coin("gone", price: 1, change: -100, rank: 1))]".utf8), globalBody: nil)
        try engine.setHolding(coinID: "gone", amount: 5)
        let statistics = try engine.statistics()
        XCTAssertNil(statistics[3].percentageChange)
        XCTAssertTrue(statistics.json.contains(#""percentage_change":null,"coverage":0}"#), statistics.json)
    }

    func testStatisticsTitlesValuesAndMissingGlobal() throws {
        let engine = try offlineEngine()
        assertThrows(.noData) { try engine.statistics() }
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        XCTAssertEqual(try engine.statistics().map(\.value).prefix(3), ["n/a", "n/a", "n/a"])
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        let statistics = try engine.statistics()
        XCTAssertEqual(
            statistics.map(\.title),
            ["Market Cap", "24h Volume", "BTC Dominance", "Portfolio Value", "Unrealized P&L", "Realized P&L"])
        XCTAssertEqual(statistics.map(\.value), ["$2.58Tr", "$342.00Bn", "42.50%", "$0.00", "$0.00", "$0.00"])
        XCTAssertEqual(statistics[0].percentageChange, 1.2)
        XCTAssertNil(statistics[1].percentageChange)
    }

    func testSearchNeverChangesThePortfolioValue() throws {
        let engine = try offlineEngine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try engine.setHolding(coinID: "ethereum", amount: 2)
        let before = try engine.statistics()[3]
        XCTAssertEqual(try engine.coins(CoinQuery(search: "doge")).coins.map(\.id), ["dogecoin", "baby-doge-coin"])
        XCTAssertEqual(try engine.statistics()[3], before)
        XCTAssertEqual(try engine.portfolio().entries.count, 2)
    }

    func testSearchIsCaseInsensitiveOverNameSymbolAndID() throws {
        let engine = try offlineEngine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        XCTAssertEqual(try engine.coins(CoinQuery(search: "WETH")).coins.map(\.id), ["weth", "binance-peg-weth"])
        XCTAssertEqual(try engine.coins(CoinQuery(search: "[old]")).coins.map(\.id), ["boringdao-[old]"])
        XCTAssertEqual(try engine.coins(CoinQuery(search: "Bitcoin")).total, 1)
        XCTAssertEqual(try engine.coins(CoinQuery(search: "zzz")).total, 0)
    }

    func testSortsBreakTiesOnIDAndPutUnrankedLast() throws {
        let engine = try offlineEngine()
        let body =
            "[\(coin("b", price: 2, change: 0, rank: nil)),\(coin("a", price: 2, change: 0, rank: nil)),\(coin("c", price: 1, change: 0, rank: 2)),\(coin("d", price: 3, change: 0, rank: 1)),\(coin("e", price: nil, change: nil, rank: 3))]"
        try engine.load(marketsBody: Data(body.utf8), globalBody: nil)
        func ids(_ sort: CoinSort) throws -> [String] { try engine.coins(CoinQuery(sort: sort)).coins.map(\.id) }
        XCTAssertEqual(try ids(.rank), ["d", "c", "e", "a", "b"])
        XCTAssertEqual(try ids(.rankReversed), ["e", "c", "d", "a", "b"])
        XCTAssertEqual(try ids(.price), ["d", "a", "b", "c", "e"])
        XCTAssertEqual(try ids(.priceReversed), ["c", "a", "b", "d", "e"])
        XCTAssertEqual(try ids(.holdings), try ids(.rank))
        XCTAssertEqual(try ids(.holdingsReversed), try ids(.rankReversed))
        let page = try engine.coins(CoinQuery(sort: .rank, limit: 2, offset: 1, sparkline: false))
        XCTAssertEqual(page.coins.map(\.id), ["c", "e"])
        XCTAssertEqual(page.total, 5)
        assertThrows(.invalidArgument) { try CoinQuery(json: #"{"sort":"alphabetical"}"#) }
        assertThrows(.invalidArgument) { try CoinQuery(json: #"{"limit":-1}"#) }
        assertThrows(.invalidArgument) { try CoinQuery(json: #"{"search":5}"#) }
    }

    func testPortfolioSortsByValue() throws {
        let engine = try offlineEngine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 0.001)  // $57
        try engine.setHolding(coinID: "tether", amount: 100)  // $100.02
        try engine.setHolding(coinID: "compound-usdt", amount: 5)  // no price
        XCTAssertEqual(try engine.portfolio(PortfolioQuery(sort: .holdings)).entries.map(\.coinID), ["tether", "bitcoin", "compound-usdt"])
        XCTAssertEqual(
            try engine.portfolio(PortfolioQuery(sort: .holdingsReversed)).entries.map(\.coinID), ["bitcoin", "tether", "compound-usdt"])
        XCTAssertEqual(try XCTUnwrap(engine.portfolio().totalValue), 0.001 * 57000.123 + 100 * 1.0002, accuracy: 1e-9)
    }

    func testSnapshotSurvivesReopeningAndIsStaleAfterAFailedRefresh() throws {
        let path = try TestDatabase.fresh(self, name: "engine.sqlite")
        do {
            let first = try engine(database: path)
            try server?.live()
            try first.setHolding(coinID: "bitcoin", amount: 1)
            try first.refresh()
            first.close()
        }
        let server = try XCTUnwrap(self.server)
        let second = try engine(database: path)
        let listing = try second.coins()
        XCTAssertEqual(listing.total, 12)
        XCTAssertFalse(listing.isStale)
        XCTAssertEqual(second.metrics().httpRequests, [:], "a reopened engine answers without the network")
        XCTAssertEqual(try second.statistics()[3].value, "$57,000.12")
        try server.fault(["path": "/api/v3/coins/markets", "status": 500, "body": "oops"])
        assertThrows(.http) { try second.refresh() }
        XCTAssertTrue(try second.coins().isStale)
        XCTAssertEqual(try second.coins().total, 12, "a failed refresh keeps the snapshot")
        second.close()
        XCTAssertTrue(try engine(database: path).coins().isStale, "staleness is saved too")
    }

    func testFaultsKeepTheLastGoodData() throws {
        let engine = try engine()
        try engine.refresh()
        for fault: [String: Any] in [
            ["status": 429, "headers": ["Retry-After": "500"]], ["status": 502, "body": "<html>bad gateway</html>"],
            ["truncate": true], ["body": "<html>not json</html>"],
        ] {
            var fields = fault
            fields["path"] = "/api/v3/global"
            try server?.fault(fields)
            XCTAssertThrowsError(try engine.refresh())
            XCTAssertEqual(try engine.statistics()[0].value, "$2.58Tr")
        }
    }

    func testBadInputChangesNothing() throws {
        let engine = try offlineEngine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        assertThrows(.invalidArgument) { try engine.load(marketsBody: Data("[".utf8), globalBody: nil) }
        assertThrows(.decode) { try engine.load(marketsBody: Data("{}".utf8), globalBody: nil) }
        assertThrows(.invalidArgument) { try engine.setHolding(coinID: "../x", amount: 1) }
        assertThrows(.invalidArgument) { try engine.setHolding(coinID: "bitcoin", amount: .nan) }
        assertThrows(.invalidArgument) { try engine.coinDetail(id: "..") }
        XCTAssertEqual(try engine.coins().total, 12)
        XCTAssertEqual(try engine.portfolio().entries.count, 0)
    }

    func testAHugeBlockTimeIsFormattedNotATrap() throws {
        let engine = try engine()
        try server?.route([
            "path": "/api/v3/coins/bitcoin", "status": 200,
            "body": #"{"id":"bitcoin","symbol":"btc","name":"Bitcoin","block_time_in_minutes":1e300,"hashing_algorithm":"SHA-256"}"#,
        ])
        let screen = try engine.coinDetail(id: "bitcoin")
        XCTAssertTrue(screen.additional.first { $0.title == "Block Time" }?.value.hasPrefix("1000000") ?? false)
    }
}
