import Foundation
import XCTest

@testable import Coinfolio

/// Hostile chart inputs: extreme times and values still draw on the page; absurd times from
/// `/simple/price` are unknown, not dates 500 000 years away.
final class ChartHostileInputTests: XCTestCase {
    private var server: TestServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    /// The `d` attribute of the line.
    private func path(_ svg: String) -> String? {
        guard let start = svg.range(of: " d=\"") else { return nil }
        return String(svg[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Before: times ±1.7e308 apart made the span infinite, and the last point was drawn at x 0,
    /// left of the plot (its x was NaN).
    func testTimesAtTheEndsOfADoubleStillSpanThePlot() throws {
        let svg = try ChartSVG.render(json: #"{"points":[[-1.7e308,5],[1.7e308,6]]}"#)
        XCTAssertEqual(path(svg), "M49.2,300L634,12")
        XCTAssertEqual(try RenderedSVG.render(svg, in: self).texts.suffix(2), ["n/a", "n/a"])
    }

    func testValuesAtTheEndsOfADoubleAndASinglePointStayOnThePage() throws {
        let extremes = try ChartSVG.render(json: #"{"points":[[0,1.7e308],[1,-1.7e308]]}"#)
        XCTAssertEqual(path(extremes), "M324,12L634,300")
        // A single point is a dot (no segment), in the middle of the plot and of its ticks.
        let single = try ChartSVG.render(json: #"{"points":[[1734000000000,5]]}"#)
        XCTAssertNil(path(single))
        XCTAssertTrue(single.contains(##"<circle cx="341.6" cy="156" r="1.5" fill="#16c784"/>"##))
        let level = try ChartSVG.render(json: #"{"points":[[1,5],[2,5]]}"#)
        XCTAssertEqual(path(level), "M49.2,156L634,156")
    }

    /// Before: `last_updated_at` 1e300 was saved as "506713-02-07T00:00:00Z", -1e300 as
    /// "-4712-01-01T12:00:00Z".
    func testRefreshPricesTakesOnlyTimesFrom1970To9999() throws {
        let server = try TestServer()
        self.server = server
        let engine = try PortfolioEngine(
            configuration: EngineConfiguration(api: try ClientConfiguration(baseURL: server.baseURL, timeout: 5, maxRetries: 0)))
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        for id in ["bitcoin", "ethereum", "tether", "hive_dollar"] { try engine.setHolding(coinID: id, amount: 1) }
        try server.route([
            "path": "/api/v3/simple/price",
            "body": #"{"bitcoin":{"usd":1,"last_updated_at":1e300},"ethereum":{"usd":2,"last_updated_at":-1e300},"#
                + #""tether":{"usd":3,"last_updated_at":253402300799},"hive_dollar":{"usd":4,"last_updated_at":253402300800}}"#,
        ])
        XCTAssertEqual(try engine.refreshPrices().coins, 4)
        let coins = Dictionary(uniqueKeysWithValues: try engine.coins().coins.map { ($0.id, $0) })
        XCTAssertEqual(coins["bitcoin"]?.currentPrice, 1)
        XCTAssertNil(coins["bitcoin"]?.lastUpdated)
        XCTAssertNil(coins["ethereum"]?.lastUpdated)
        XCTAssertEqual(coins["tether"]?.lastUpdated, "9999-12-31T23:59:59Z")
        XCTAssertNil(coins["hive_dollar"]?.lastUpdated)
    }

    /// Before: a lone surrogate read as U+FFFD (or, before another escape, was refused as
    /// malformed). Now the chart reader is the strict reader: a surrogate escape outside a
    /// high-low pair is refused as `lone_surrogate` wherever it stands, a pair is read.
    func testALoneSurrogateIsRefusedAndAPairIsRead() throws {
        for body in [#"{"note":"\ud800\u0059","prices":[[1,2]]}"#, #"{"prices":[[1,"\udc00"]]}"#, #"{"note":"\ud800x"}"#] {
            let error = assertThrows(.invalidArgument) { try CoinGeckoBody.marketChart(Data(body.utf8)) }
            XCTAssertEqual(error?.reason, .loneSurrogate, body)
        }
        let chart = try CoinGeckoBody.marketChart(Data(#"{"note":"\ud83d\ude00","prices":[[1,2]]}"#.utf8))
        XCTAssertEqual(chart.prices, [ChartPoint(time: 1, value: 2)])
        XCTAssertNoThrow(try ChartSVG.render(json: #"{"note":"\udbff\udc00","points":[[1,2]]}"#))
        for json in [#"{"note":"\udbff\udbff\udc00","points":[[1,2]]}"#, #"{"note":"\ud800\u00","points":[]}"#] {
            assertThrows(.invalidArgument) { try ChartSVG.render(json: json) }
        }
    }

    /// Before: points out of time order were drawn in array order (the line ran backwards) and
    /// coloured by the first and last of the array: green here, though the price fell from 5 to 1.
    func testPointsOutOfOrderAreDrawnInTimeOrder() throws {
        let svg = try ChartSVG.render(json: #"{"points":[[2000,1],[1000,5],[3000,null]]}"#)
        XCTAssertTrue(svg.contains("stroke=\"\(ChartSVG.fallingColour)\""))
        XCTAssertEqual(path(svg), "M49.2,12L341.6,300")
    }
}
