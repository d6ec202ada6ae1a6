import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §17: `GET /coins/{id}/market_chart/range` through the client, against the loopback
/// server's range route (Tests/server/PROTOCOL.md: ethereum is 110 + 1 usd per hour of the day).
final class MarketChartRangeTests: XCTestCase {
    private var server: TestServer?

    /// The server started here, on the main thread: one started inside an async test's task
    /// would be waited for in `tearDown` on a run loop that never hears it exit.
    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func client(plan: ClientConfiguration.Plan = .public) throws -> CoinGeckoClient {
        let server = try self.server ?? TestServer()
        self.server = server
        return CoinGeckoClient(
            configuration: try server.configuration {
                $0.plan = plan
                if plan != .public { $0.apiKey = "test-key-123456" }
            })
    }

    /// 00:00 UTC `days` days before today, in UNIX seconds.
    private func dayStart(daysAgo days: Int64) -> Int64 {
        let now = Int64(Date().timeIntervalSince1970)
        return (now / 86_400 - days) * 86_400
    }

    func testARangeOfOneDayLongAgoHasHourlyPointsAndSendsUNIXSeconds() throws {
        let day = dayStart(daysAgo: 10)
        let chart = try client().marketChartRange(id: "ethereum", MarketChartRangeRequest(from: day, to: day + 86_400))
        XCTAssertEqual(chart.prices.count, 24)
        XCTAssertEqual(chart.prices.first, ChartPoint(time: Double(day + 120) * 1000, value: 110))
        XCTAssertEqual(chart.prices.last, ChartPoint(time: Double(day + 23 * 3600 + 120) * 1000, value: 133))
        XCTAssertEqual(chart.marketCaps.first?.value, 110_000_000)
        XCTAssertEqual(chart.totalVolumes.first?.value, 1_100_000)
        let query = try XCTUnwrap(server?.requests(to: "/api/v3/coins/ethereum/market_chart/range").first?["query"] as? [String: String])
        XCTAssertEqual(query, ["vs_currency": "usd", "from": String(day), "to": String(day + 86_400), "precision": "full"])
        XCTAssertEqual(try client().requestCounts[.marketChartRange] ?? 0, 0)  // a new handle counts its own
    }

    /// SPEC §21: the awaited range answers as the blocking one (ethereum at 110, then 133 at
    /// 23:02); with the route delayed a minute, a task cancelled after 100 ms throws
    /// `CancellationError`.
    func testAsyncRangeAnswersAsTheBlockingOneAndCancels() async throws {
        let day = dayStart(daysAgo: 10)
        let client = try client()
        let request = try MarketChartRangeRequest(from: day, to: day + 86_400)
        let chart = try await client.marketChartRange(id: "ethereum", request)
        XCTAssertEqual(chart.prices.first?.value, 110)
        XCTAssertEqual(chart.prices.last?.value, 133)
        XCTAssertEqual(chart, try blocking { try client.marketChartRange(id: "ethereum", request) })
        try server?.fault(["path": "/api/v3/coins/ethereum/market_chart/range", "delay_ms": 60_000])
        let range = Task { try await client.marketChartRange(id: "ethereum", request) }
        try await Task.sleep(for: .milliseconds(100))
        range.cancel()
        await XCTAssertThrowsCancellation { _ = try await range.value }
    }

    func testRFC3339TimesAreSentAsWholeSecondsCoveringThem() throws {
        let request = try MarketChartRangeRequest(
            json: #"{"vs_currency":"EUR","from":"2024-03-01T00:00:00.250Z","to":"2024-03-01T01:00:00.250+01:00"}"#)
        XCTAssertEqual(request.vsCurrency.code, "eur")
        XCTAssertEqual(request.from, 1_709_251_200)  // 2024-03-01T00:00:00Z, rounded down
        XCTAssertEqual(request.to, 1_709_251_201)  // 2024-03-01T00:00:00.250Z, rounded up
        XCTAssertEqual(try MarketChartRangeRequest(json: #"{"from":"2024-03-01","to":1709337600}"#).from, 1_709_251_200)
    }

    func testALongRangeHasDailyPointsAtMidnightUTC() throws {
        let from = dayStart(daysAgo: 200)
        let chart = try client().marketChartRange(
            id: "bitcoin", MarketChartRangeRequest(vsCurrency: try VsCurrency("eur"), from: from - 3600, to: from + 100 * 86_400))
        XCTAssertEqual(chart.prices.count, 101)
        XCTAssertEqual(chart.prices.first, ChartPoint(time: Double(from) * 1000, value: 36_000))
        XCTAssertTrue(chart.prices.allSatisfy { Int64($0.time) % 86_400_000 == 0 && $0.value == 36_000 })
    }

    func testARangeWithinADayOfNowHasFiveMinutePoints() throws {
        // An hour ending on a 5-minute mark holds exactly 12 points (:00:30, :05:30, …); one ending
        // at mm:00:30 itself would hold 13, so the end is not left to the clock.
        let end = Int64(Date().timeIntervalSince1970) / 300 * 300
        let chart = try client().marketChartRange(id: "tether", MarketChartRangeRequest(from: end - 3600, to: end))
        XCTAssertEqual(chart.prices.count, 12)
        XCTAssertTrue(chart.prices.allSatisfy { (Int64($0.time) / 1000) % 300 == 30 && $0.value == 1 })
    }

    func testATinyPriceKeepsItsDigits() throws {
        let day = dayStart(daysAgo: 3)
        let chart = try client().marketChartRange(id: "baby-doge-coin", MarketChartRangeRequest(from: day, to: day + 3600))
        XCTAssertEqual(chart.prices.first?.value, 2.6e-13)
    }

    func testOlderThan365DaysIsUnauthorizedOnThePublicPlanButNotOnPro() throws {
        let from = dayStart(daysAgo: 400)
        let request = try MarketChartRangeRequest(from: from, to: from + 86_400)
        let error = assertThrows(.unauthorized) { try self.client().marketChartRange(id: "ethereum", request) }
        XCTAssertEqual(error?.details["error_code"], .number(10012))
        XCTAssertEqual(try client(plan: .pro).marketChartRange(id: "ethereum", request).prices.count, 24)
    }

    func testAnUnknownCoinIsNotFoundAndAKnownCoinWithoutPointsIsEmpty() throws {
        let day = dayStart(daysAgo: 5)
        assertThrows(.notFound) { try self.client().marketChartRange(id: "no-such-coin", MarketChartRangeRequest(from: day, to: day + 60)) }
        let empty = try client().marketChartRange(id: "boringdao-[old]", MarketChartRangeRequest(from: day, to: day + 86_400))
        XCTAssertEqual(empty, MarketChart())
        XCTAssertEqual(try server?.requests(to: "/api/v3/coins/boringdao-%5Bold%5D/market_chart/range").count, 1)
    }

    func testBadInputIsRefusedAndSendsNothing() throws {
        let client = try client()
        for bad in [
            #"{"from":-1,"to":10}"#, #"{"from":10,"to":253402300800}"#, #"{"from":20,"to":10}"#, #"{"from":1.5,"to":10}"#,
            #"{"from":"yesterday","to":10}"#, #"{"to":10}"#, #"{"from":10}"#, #"{"from":true,"to":10}"#, #"{"from":1e400,"to":10}"#,
            #"{"from":"1969-12-31T23:59:59Z","to":10}"#, #"{"from":10,"to":20,"vs_currency":"u$d"}"#,
            #"{"from":10,"to":20,"vs_currency":1}"#,
            "[]", "{", "",
        ] {
            assertThrows(.invalidArgument) { try client.marketChartRange(id: "ethereum", MarketChartRangeRequest(json: bad)) }
        }
        XCTAssertEqual(
            assertThrows(.invalidArgument) { try MarketChartRangeRequest(json: #"{"from":20,"to":10}"#) }?.details["field"], .string("from")
        )
        for id in ["a/b", "", "..", "bit\u{1}coin"] {
            assertThrows(.invalidArgument) { try client.marketChartRange(id: id, MarketChartRangeRequest(from: 0, to: 10)) }
        }
        XCTAssertEqual(try server?.log().count, 0)
        XCTAssertEqual(client.requestCounts[.marketChartRange] ?? 0, 0)
    }

    func testTheServerCountsRequestsPerEndpoint() throws {
        let day = dayStart(daysAgo: 2)
        let client = try client()
        for _ in 0..<3 { _ = try client.marketChartRange(id: "tether", MarketChartRangeRequest(from: day, to: day + 600)) }
        _ = try client.global()
        XCTAssertEqual(try server?.counts(), ["market_chart_range": 3, "global": 1])
        XCTAssertEqual(client.requestCounts[.marketChartRange], 3)
    }
}
