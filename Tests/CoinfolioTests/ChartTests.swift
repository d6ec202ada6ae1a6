import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// SPEC §11: market charts, simple prices, the portfolio's week and the SVG renderer.
final class ChartTests: XCTestCase {
    private var server: TestServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func engine(plan: ClientConfiguration.Plan = .public, chartTTL: Double = 300, windows: [Coin.ChangeWindow] = [.h24]) throws
        -> PortfolioEngine
    {
        let server = try self.server ?? TestServer()
        self.server = server
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                chartTTL: chartTTL, priceChangePercentage: windows,
                api: try ClientConfiguration(
                    baseURL: server.baseURL, plan: plan, apiKey: plan == .public ? nil : "test-key-123456", timeout: 5, maxRetries: 0)))
    }

    private func client() throws -> CoinGeckoClient {
        let server = try self.server ?? TestServer()
        self.server = server
        return CoinGeckoClient(configuration: try server.configuration())
    }

    // MARK: - Decoding

    func testNullPointsStayGapsAndEmptySeriesAreValid() throws {
        let chart = try CoinGeckoBody.marketChart(
            Data(
                #"{"prices":[[1000,1.5],[2000,null],[3000,"2.25"],[4000,true],["x",1],[5000]],"market_caps":[[1000,null]],"total_volumes":[]}"#
                    .utf8))
        XCTAssertEqual(
            chart.prices,
            [
                .init(time: 1000, value: 1.5), .init(time: 2000, value: nil), .init(time: 3000, value: 2.25), .init(time: 4000, value: nil),
                .init(time: 5000, value: nil),
            ])
        XCTAssertEqual(chart.marketCaps, [.init(time: 1000, value: nil)])
        XCTAssertEqual(chart.totalVolumes, [])
        XCTAssertEqual(chart.warnings.map(\.index), [3, 4])
        XCTAssertTrue(
            chart.json.hasPrefix(
                #"{"prices":[[1000,1.5],[2000,null],[3000,2.25],[4000,null],[5000,null]],"market_caps":[[1000,null]],"total_volumes":[]"#))
        let empty = try CoinGeckoBody.marketChart(Data(#"{"prices":[],"market_caps":[],"total_volumes":[]}"#.utf8))
        XCTAssertEqual(empty, MarketChart())
    }

    func testMarketChartRefusesWhatIsNotAChart() throws {
        assertThrows(.invalidArgument) { try CoinGeckoBody.marketChart(Data(#"{"prices":[[1,2],]}"#.utf8)) }
        assertThrows(.decode) { try CoinGeckoBody.marketChart(Data("[]".utf8)) }
        assertThrows(.decode) { try CoinGeckoBody.marketChart(Data(#"{"prices":{"a":1}}"#.utf8)) }
    }

    func testEmptyObjectIdIsNullsNotAnError() throws {
        let prices = try CoinGeckoBody.simplePrice(Data(#"{"bitcoin":{}}"#.utf8), vsCurrency: .usd, ids: ["bitcoin", "ethereum"])
        XCTAssertEqual(prices.prices, ["bitcoin": SimplePrice(), "ethereum": SimplePrice()])
        XCTAssertEqual(
            prices.json,
            #"{"prices":{"bitcoin":{"price":null,"change_24h":null,"last_updated_at":null},"ethereum":{"price":null,"change_24h":null,"last_updated_at":null}}}"#
        )
    }

    func testRecordedChartsAndPricesDecode() throws {
        let folder = Repository.corpus
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw XCTSkip("recorded CoinGecko corpus not found at \(folder.path) (../shared/fixtures/coingecko beside the checkout)")
        }
        let charts = try FileManager.default.contentsOfDirectory(
            at: folder.appendingPathComponent("market-chart"), includingPropertiesForKeys: nil)
        XCTAssertFalse(charts.isEmpty)
        for url in charts {
            let body = try Data(contentsOf: url)
            let raw = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: [Any]])
            let chart = try CoinGeckoBody.marketChart(body)
            XCTAssertEqual(chart.prices.count, raw["prices"]?.count, url.lastPathComponent)
            XCTAssertEqual(chart.marketCaps.count, raw["market_caps"]?.count, url.lastPathComponent)
            XCTAssertTrue(chart.warnings.isEmpty, url.lastPathComponent)
            // The SVG of every recorded chart renders.
            let rendered = try RenderedSVG.render(
                PriceChart(coinID: "bitcoin", vsCurrency: .usd, days: .days(30), points: chart.prices).svg(), in: self)
            XCTAssertGreaterThan(rendered.count(ChartSVG.risingColour) + rendered.count(ChartSVG.fallingColour), 100, url.lastPathComponent)
        }
        let empty = try CoinGeckoBody.simplePrice(
            Data(contentsOf: folder.appendingPathComponent("simple-price/ruby-vcr-btc-vs-invalid-currency-empty-object.json")),
            vsCurrency: try VsCurrency("ethereum"))
        XCTAssertEqual(empty.prices["bitcoin"], SimplePrice())
        let usd = try CoinGeckoBody.simplePrice(
            Data(contentsOf: folder.appendingPathComponent("simple-price/ruby-vcr-btc-usd.json")), vsCurrency: .usd)
        XCTAssertEqual(usd.prices["bitcoin"]?.price, 49326)
    }

    // MARK: - Client

    func testMarketChartSendsItsQuery() throws {
        let chart = try client().marketChart(
            id: "bitcoin", MarketChartRequest(vsCurrency: try VsCurrency("eur"), days: .days(90), interval: .daily))
        XCTAssertEqual(chart.prices.count, 6)
        XCTAssertNil(chart.prices[2].value)
        XCTAssertNil(chart.marketCaps[1].value)
        let query = try XCTUnwrap(server?.requests(to: "/api/v3/coins/bitcoin/market_chart").first?["query"] as? [String: String])
        XCTAssertEqual(query, ["vs_currency": "eur", "days": "90", "interval": "daily"])
    }

    func testMoreThan365DaysIsUnauthorizedSayingThePlanLimit() throws {
        let error = assertThrows(.unauthorized) { try self.client().marketChart(id: "bitcoin", MarketChartRequest(days: .days(400))) }
        XCTAssertEqual(error?.details["error_code"], .number(10012))
        XCTAssertTrue(error?.message.contains("365 days") ?? false, error?.message ?? "")
    }

    func testSimplePriceSplitsBeyond250IDs() throws {
        let ids = ["bitcoin", "tether"] + (0..<300).map { "unknown-\($0)" } + ["ethereum"]
        let prices = try client().simplePrice(SimplePriceRequest(ids: ids))
        XCTAssertEqual(prices.prices.count, 303)
        XCTAssertEqual(prices.prices["bitcoin"], SimplePrice(price: 58000.5, change24h: 3.25, lastUpdatedAt: 1_734_602_400))
        XCTAssertEqual(prices.prices["ethereum"], SimplePrice(price: 3900.25, change24h: nil, lastUpdatedAt: 1_734_602_460))
        XCTAssertEqual(prices.prices["tether"], SimplePrice())
        XCTAssertEqual(prices.prices["unknown-7"], SimplePrice())
        let calls = try XCTUnwrap(server?.requests(to: "/api/v3/simple/price"))
        XCTAssertEqual(calls.compactMap { ($0["query"] as? [String: String])?["ids"]?.split(separator: ",").count }, [250, 53])
        let query = try XCTUnwrap(calls.first?["query"] as? [String: String])
        XCTAssertEqual(query["vs_currencies"], "usd")
        XCTAssertEqual(query["include_24hr_change"], "true")
        XCTAssertEqual(query["include_last_updated_at"], "true")
    }

    func testSimplePriceRefusesAnIDWithAComma() throws {
        assertThrows(.invalidArgument) { try SimplePriceRequest(ids: ["bitcoin,ethereum"]) }
        XCTAssertEqual(try client().simplePrice(SimplePriceRequest(ids: [])).prices, [:])
        XCTAssertEqual(try server?.log().count, 0)
    }

    // MARK: - Engine chart

    func testChartSummary() throws {
        let chart = try engine().chart(coinID: "bitcoin")
        XCTAssertEqual(chart.days, .days(7))
        XCTAssertFalse(chart.clamped)
        XCTAssertEqual(chart.points.count, 6)
        XCTAssertNil(chart.points[2].value)
        let s = chart.summary
        XCTAssertEqual(s.first, 100000)
        XCTAssertEqual(s.last, 103500.75)
        XCTAssertEqual(s.min, 99500.25)
        XCTAssertEqual(s.minAt, 1_734_010_800_000)
        XCTAssertEqual(s.max, 103500.75)
        XCTAssertEqual(s.maxAt, 1_734_018_000_000)
        XCTAssertEqual(s.change, 3500.75)
        XCTAssertEqual(try XCTUnwrap(s.percentageChange), 3.50075, accuracy: 1e-12)
        XCTAssertTrue(
            chart.json.hasPrefix(
                #"{"coin_id":"bitcoin","vs_currency":"usd","days":7,"interval":null,"clamped":false,"points":[[1734000000000,100000],[1734003600000,101000.5],[1734007200000,null],"#
            ))
        XCTAssertTrue(
            chart.json.hasSuffix(
                #""summary":{"first":100000,"last":103500.75,"min":99500.25,"max":103500.75,"min_at":1734010800000,"max_at":1734018000000,"change":3500.75,"percentage_change":3.50075}}"#
            ),
            chart.json)
    }

    func testEmptySeriesHasANullSummary() throws {
        let chart = try engine().chart(coinID: "boringdao-[old]")
        XCTAssertEqual(chart.points, [])
        XCTAssertEqual(chart.summary, ChartSummary(points: []))
        XCTAssertTrue(
            chart.json.hasSuffix(
                #""points":[],"summary":{"first":null,"last":null,"min":null,"max":null,"min_at":null,"max_at":null,"change":null,"percentage_change":null}}"#
            ))
    }

    func testDaysBeyondThePlanAreClampedAndMaxShares365() throws {
        let engine = try engine()
        let chart = try engine.chart(coinID: "bitcoin", ChartOptions(days: .days(400)))
        XCTAssertEqual(chart.days, .days(365))
        XCTAssertTrue(chart.clamped)
        XCTAssertTrue(chart.json.contains(#""days":365,"interval":null,"clamped":true"#))
        let max = try engine.chart(coinID: "bitcoin", ChartOptions(days: .max))
        XCTAssertTrue(max.clamped)
        XCTAssertFalse(try engine.chart(coinID: "bitcoin", ChartOptions(days: .days(365))).clamped)
        let calls = try XCTUnwrap(server?.requests(to: "/api/v3/coins/bitcoin/market_chart"))
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual((calls.first?["query"] as? [String: String])?["days"], "365")
        XCTAssertEqual(engine.metrics().chartCacheHits, 2)
    }

    func testProPlanAsksForMax() throws {
        let chart = try engine(plan: .pro).chart(coinID: "bitcoin", ChartOptions(days: .max))
        XCTAssertEqual(chart.days, .max)
        XCTAssertFalse(chart.clamped)
        XCTAssertTrue(chart.json.contains(#""days":"max""#))
    }

    func testChartsAreCachedPerDaysAndInterval() throws {
        let engine = try engine()
        _ = try engine.chart(coinID: "bitcoin")
        _ = try engine.chart(coinID: "bitcoin")
        _ = try engine.chart(coinID: "bitcoin", ChartOptions(days: .days(30)))
        _ = try engine.chart(coinID: "bitcoin", ChartOptions(days: .days(30), interval: .daily))
        XCTAssertEqual(engine.metrics().httpRequests[.marketChart], 3)
        XCTAssertEqual(engine.metrics().chartCacheHits, 1)
        XCTAssertTrue(engine.metrics().json.contains(#""market_chart":3"#))
    }

    func testChartTTLZeroAsksEveryTime() throws {
        let engine = try engine(chartTTL: 0)
        _ = try engine.chart(coinID: "bitcoin")
        _ = try engine.chart(coinID: "bitcoin")
        XCTAssertEqual(engine.metrics().httpRequests[.marketChart], 2)
    }

    func testConcurrentAsksForOneChartShareOneRequest() throws {
        let engine = try engine()
        try server?.fault(["path": "/api/v3/coins/bitcoin/market_chart", "delay_ms": 300])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do { _ = try engine.chart(coinID: "bitcoin") } catch { XCTFail("\(error)") }
        }
        XCTAssertEqual(try server?.requests(to: "/api/v3/coins/bitcoin/market_chart").count, 1)
    }

    func testChartOfAnUnknownCoinIsNotFoundAndBadIDsMakeNoRequest() throws {
        let engine = try engine()
        assertThrows(.notFound) { try engine.chart(coinID: "no-such-coin") }
        assertThrows(.invalidArgument) { try engine.chart(coinID: "../global") }
        assertThrows(.invalidArgument) { try ChartOptions(json: #"{"days":0}"#) }
        assertThrows(.invalidArgument) { try ChartOptions(json: #"{"days":1.5}"#) }
        assertThrows(.invalidArgument) { try ChartOptions(json: #"{"days":"all"}"#) }
        assertThrows(.invalidArgument) { try ChartOptions(json: #"{"interval":"hourly"}"#) }
        assertThrows(.invalidArgument) { try ChartOptions(json: #"{"days":true}"#) }
        XCTAssertEqual(try ChartOptions(json: #"{"days":"max","interval":"daily"}"#), ChartOptions(days: .max, interval: .daily))
        XCTAssertEqual(try server?.requests(to: "/api/v3/coins/..%2Fglobal/market_chart").count, 0)
    }

    // MARK: - Portfolio history

    func testPortfolioHistoryAlignsSparklinesAtTheirEnd() throws {
        let engine = try engine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)  // 170 points
        try engine.setHolding(coinID: "tether", amount: 100)  // 24 points
        try engine.setHolding(coinID: "compound-usdt", amount: 5)  // no price: left out
        let history = try engine.portfolioHistory()
        XCTAssertEqual(history.points.count, 170)
        let last = try XCTUnwrap(history.points.last)
        XCTAssertEqual(last.time, 1_734_605_095_946)  // bitcoin's last_updated 2024-12-19T10:44:55.946Z
        XCTAssertEqual(try XCTUnwrap(last.value), 28600.0815, accuracy: 1e-9)
        XCTAssertFalse(last.partial)
        XCTAssertEqual(history.points[0].time, 1_733_996_695_946)
        XCTAssertEqual(try XCTUnwrap(history.points[0].value), 28397.96405, accuracy: 1e-9)
        XCTAssertTrue(history.points[0].partial)
        XCTAssertTrue(history.points[145].partial)
        XCTAssertFalse(history.points[146].partial)
        XCTAssertEqual(try XCTUnwrap(history.points[146].value), 28544.2667, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(history.summary.min), 27819.0772, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(history.summary.max), 28748.24825, accuracy: 1e-9)
        XCTAssertTrue(
            history.json.hasPrefix(#"{"vs_currency":"usd","points":[[1733996695946,28397.96405,true],"#),
            history.json.prefix(80).description)
        XCTAssertEqual(try server?.log().count, 0)
    }

    func testPortfolioHistoryWithoutPricedHoldingsIsEmpty() throws {
        let engine = try engine()
        XCTAssertEqual(try engine.portfolioHistory().points, [])
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "boringdao-[old]", amount: 3)  // priced, empty sparkline
        let history = try engine.portfolioHistory()
        XCTAssertEqual(history.points, [])
        XCTAssertNil(history.summary.first)
        assertThrows(.notFound) { try engine.portfolioHistory(PortfolioHistoryOptions(portfolio: "savings")) }
    }

    // MARK: - Refresh prices

    func testRefreshPricesIsOneRequestForHeldCoins() throws {
        let engine = try engine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        for id in ["bitcoin", "ethereum", "tether", "hive_dollar"] { try engine.setHolding(coinID: id, amount: 1) }
        let summary = try engine.refreshPrices()
        XCTAssertEqual(summary.coins, 2)
        let calls = try XCTUnwrap(server?.log())
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual((calls.first?["query"] as? [String: String])?["ids"], "bitcoin,ethereum,hive_dollar,tether")
        let coins = Dictionary(uniqueKeysWithValues: try engine.coins().coins.map { ($0.id, $0) })
        XCTAssertEqual(coins["bitcoin"]?.currentPrice, 58000.5)
        XCTAssertEqual(coins["bitcoin"]?.priceChangePercentage24h, 3.25)
        XCTAssertEqual(coins["bitcoin"]?.lastUpdated, "2024-12-19T10:00:00Z")
        XCTAssertEqual(try XCTUnwrap(coins["bitcoin"]?.priceChange24h), 58000.5 - 58000.5 / 1.0325, accuracy: 1e-9)
        XCTAssertEqual(coins["ethereum"]?.currentPrice, 3900.25)
        XCTAssertNil(coins["ethereum"]?.priceChangePercentage24h)  // the answer's null change is taken
        XCTAssertEqual(coins["tether"]?.currentPrice, 1.0002)  // {}: keeps its price and change
        XCTAssertEqual(coins["tether"]?.priceChangePercentage24h, 0.01)
        XCTAssertEqual(coins["hive_dollar"]?.currentPrice, 0.9871)
        XCTAssertEqual(coins["dogecoin"]?.currentPrice, 0.1623)  // not held: untouched
        XCTAssertEqual(engine.metrics().httpRequests, [.simplePrice: 1])
    }

    func testRefreshPricesNeedsASnapshotAndKeepsItOnFailure() throws {
        let engine = try engine()
        assertThrows(.noData) { try engine.refreshPrices() }
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 1)
        try server?.fault(["path": "/api/v3/simple/price", "status": 500, "body": "<html>oops</html>"])
        assertThrows(.http) { try engine.refreshPrices() }
        XCTAssertEqual(try engine.coins().coins.first?.currentPrice, 57000.123)
    }

    func testRefreshAsksForTheConfiguredChangeWindows() throws {
        let engine = try engine(windows: [.h1, .h24, .d7])
        try engine.refresh()
        let query = try XCTUnwrap(server?.requests(to: "/api/v3/coins/markets").first?["query"] as? [String: String])
        XCTAssertEqual(query["price_change_percentage"], "1h,24h,7d")
        XCTAssertEqual(try EngineConfiguration(json: #"{"price_change_percentage":["7d","1y"]}"#).priceChangePercentage, [.d7, .y1])
        assertThrows(.invalidArgument) { try EngineConfiguration(json: #"{"price_change_percentage":["2h"]}"#) }
        XCTAssertEqual(try EngineConfiguration(json: #"{"chart_ttl_s":5}"#).chartTTL, 5)
    }

    // MARK: - SVG

    private let rising = PriceChart(
        coinID: "bitcoin", vsCurrency: .usd, days: .days(1),
        points: [
            .init(time: 1_734_000_000_000, value: 100000), .init(time: 1_734_003_600_000, value: 101000.5),
            .init(time: 1_734_007_200_000, value: nil),
            .init(time: 1_734_010_800_000, value: 99500.25), .init(time: 1_734_014_400_000, value: 102000),
            .init(time: 1_734_018_000_000, value: 103500.75),
        ])

    func testRisingChartIsGreenWithPriceAndDateLabels() throws {
        let svg = rising.svg(try ChartSVGOptions(width: 640, height: 320, title: "Bitcoin"))
        let rendered = try RenderedSVG.render(svg, in: self)
        XCTAssertEqual(rendered.width, 640)
        XCTAssertEqual(
            rendered.texts,
            [
                "Bitcoin", "$104,000.00", "$103,000.00", "$102,000.00", "$101,000.00", "$100,000.00", "$99,000.00", "2024-12-12 10:40",
                "12:00", "13:00", "14:00", "2024-12-12 15:40",
            ])
        XCTAssertGreaterThan(rendered.count(ChartSVG.risingColour), 100)
        XCTAssertEqual(rendered.count(ChartSVG.fallingColour), 0)
        // The line starts low on the left and ends at the top on the right.
        let green = try XCTUnwrap(rendered.columns[ChartSVG.risingColour])
        let left = try XCTUnwrap(green.keys.min()), right = try XCTUnwrap(green.keys.max())
        XCTAssertLessThan(try XCTUnwrap(green[right]).0, try XCTUnwrap(green[left]).0)
        XCTAssertLessThan(try XCTUnwrap(green[right]).0, 60)
    }

    func testGapsBreakTheLine() throws {
        let svg = rising.svg()
        let green = try XCTUnwrap(RenderedSVG.render(svg, in: self).columns[ChartSVG.risingColour])
        // Points 1 and 3 sit at 1/5 and 3/5 of the width; between them (the gap) no line.
        let xs = green.keys.sorted()
        let span = Double(try XCTUnwrap(xs.last) - xs[0])
        let gap = (xs[0] + Int(span * 0.27))...(xs[0] + Int(span * 0.53))
        XCTAssertTrue(gap.allSatisfy { green[$0] == nil }, "line pixels inside the gap \(gap)")
        XCTAssertNotNil(green[xs[0] + Int(span * 0.1)])
        XCTAssertNotNil(green[xs[0] + Int(span * 0.7)])
    }

    func testFallingChartIsRedInTheDarkTheme() throws {
        let falling = PriceChart(
            coinID: "ethereum", vsCurrency: try VsCurrency("eur"), days: .days(30),
            points: [.init(time: 1_734_000_000_000, value: 4000), .init(time: 1_734_259_200_000, value: 3800.5)])
        let svg = falling.svg(try ChartSVGOptions(width: 300, height: 120, theme: .dark))
        XCTAssertTrue(svg.contains("#111418"))
        let rendered = try RenderedSVG.render(svg, in: self)
        XCTAssertEqual(
            rendered.texts, ["€4,000.00", "€3,950.00", "€3,900.00", "€3,850.00", "€3,800.00", "2024-12-12", "Dec 14", "2024-12-15"])
        XCTAssertGreaterThan(rendered.count(ChartSVG.fallingColour), 50)
        XCTAssertEqual(rendered.count(ChartSVG.risingColour), 0)
    }

    func testEmptySeriesSaysNoDataAndDrawsNoLine() throws {
        let svg = PriceChart(coinID: "boringdao-[old]", vsCurrency: .usd, days: .days(7), points: []).svg()
        let rendered = try RenderedSVG.render(svg, in: self)
        XCTAssertEqual(rendered.texts, ["No data"])
        XCTAssertEqual(rendered.count(ChartSVG.risingColour) + rendered.count(ChartSVG.fallingColour), 0)
        let gapsOnly = try ChartSVG.render(json: #"{"points":[[1,null],[2,null]]}"#)
        XCTAssertEqual(try RenderedSVG.render(gapsOnly, in: self).texts, ["No data"])
    }

    func testTitlesAreEscapedText() throws {
        let title = "<script>alert(\"x\")</script> & 'co' \u{1}"
        let svg = rising.svg(try ChartSVGOptions(title: title))
        XCTAssertFalse(svg.contains("<script>"))
        XCTAssertEqual(try RenderedSVG.render(svg, in: self).texts.first, "<script>alert(\"x\")</script> & 'co' \u{FFFD}")
    }

    func testSVGOptionsAreChecked() throws {
        XCTAssertNoThrow(try ChartSVGOptions(width: 64, height: 4096))
        assertThrows(.invalidArgument) { try ChartSVGOptions(width: 63, height: 100) }
        assertThrows(.invalidArgument) { try ChartSVGOptions(json: #"{"height":4097}"#) }
        assertThrows(.invalidArgument) { try ChartSVGOptions(json: #"{"theme":"blue"}"#) }
        assertThrows(.invalidArgument) { try ChartSVGOptions(json: #"{"title":5}"#) }
        assertThrows(.invalidArgument) { try ChartSVG.render(json: #"{"coins":[]}"#) }
        assertThrows(.invalidArgument) { try ChartSVG.render(json: #"{"points":[[1,"a"]]}"#) }
        let tiny = try ChartSVG.render(json: rising.json, options: ChartSVGOptions(json: #"{"width":64,"height":64}"#))
        XCTAssertGreaterThan(try RenderedSVG.render(tiny, in: self).count(ChartSVG.risingColour), 0)
    }

    func testPortfolioHistorySVGRenders() throws {
        let engine = try engine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        let svg = try ChartSVG.render(json: try engine.portfolioHistory().json, options: ChartSVGOptions(title: "Portfolio"))
        let rendered = try RenderedSVG.render(svg, in: self)
        XCTAssertEqual(rendered.texts.suffix(7), ["2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19"])
        XCTAssertGreaterThan(rendered.count(ChartSVG.risingColour), 100)
    }
}

extension ChartTests {
    func testChartJSONIsReadStrictly() throws {
        // portfolio_history points carry a third member; other keys are skipped but checked.
        let history =
            #"{"vs_currency":"e\u0075r","extra":{"a":[1,2,{"b":"\"x\""}],"c":-1.5e-3},"points":[[1000,1,true],[2000,null,false],[3000,2,true]]}"#
        XCTAssertTrue(try ChartSVG.render(json: history).contains("€2.00"))
        for bad in [
            #"{"points":[[1,2]],}"#, #"{"points":[[1,2]]} x"#, #"{"points":[[1,1e400]]}"#, #"{"points":[[1,2],]}"#,
            #"{"points":[["1",2]]}"#, #"{"points":[[1]]}"#, #"{"points":{}}"#, #"{"extra":[1,2,],"points":[]}"#,
            #"{"extra":tru,"points":[]}"#,
            #"{"vs_currency":5,"points":[]}"#, #"{"vs_currency":"us d","points":[]}"#, "[]", "", "{", #"{"points":[[-,2]]}"#,
        ] {
            assertThrows(.invalidArgument) { try ChartSVG.render(json: bad) }
        }
    }
}

extension ChartTests {
    func testANullMarketCapInsideA2000PointSeriesStaysAGap() throws {
        let points = (0..<2000).map { i in "[\(1_700_000_000_000 + i * 300_000),\(i == 1234 ? "null" : String(1e9 + Double(i)))]" }
        let body = #"{"prices":[\#(points.joined(separator: ","))],"market_caps":[\#(points.joined(separator: ","))],"total_volumes":[]}"#
        let chart = try CoinGeckoBody.marketChart(Data(body.utf8))
        XCTAssertEqual(chart.marketCaps.count, 2000)
        XCTAssertNil(chart.marketCaps[1234].value)
        XCTAssertEqual(chart.marketCaps[1233].value, 1e9 + 1233)
        XCTAssertEqual(chart.marketCaps.filter { $0.value == nil }.count, 1)
        XCTAssertTrue(chart.warnings.isEmpty)
    }
}

extension ChartTests {
    func testChartDownloadsReportProgressAndCachedAnswersDoNot() throws {
        let engine = try engine()
        let reports = Mutex<[WorkProgress]>([])
        engine.setProgressHandler { report in reports.withLock { $0.append(report) } }
        _ = try engine.chart(coinID: "bitcoin")
        _ = try engine.chart(coinID: "bitcoin")  // cached: no request, no report
        XCTAssertEqual(
            reports.withLock { $0 }, [WorkProgress(phase: .chart, done: 0, total: 1), WorkProgress(phase: .chart, done: 1, total: 1)])
        XCTAssertEqual(reports.withLock { $0 }.first?.json, #"{"phase":"chart","done":0,"total":1}"#)
    }
}

extension ChartTests {
    func testAnIDWithACommaIsRefusedAsAHolding() throws {
        let engine = try engine()
        let error = assertThrows(.invalidArgument) { try engine.setHolding(coinID: "bitcoin,ethereum", amount: 1) }
        XCTAssertEqual(error?.details["reason"], .string("comma"))
        XCTAssertEqual(try engine.store.holdings(), [])
    }
}

extension ChartTests {
    func testMarketChartBodiesAreReadStrictlyAndTolerantly() throws {
        let chart = try CoinGeckoBody.marketChart(
            Data(
                "\u{FEFF}{\"id\":\"x\",\"prices\":[[1,\"1e2\"],[2,{\"a\":[1]}],[],7,[3,4,\"extra\"]],\"market_caps\":null,\"other\":[[[]]]}"
                    .utf8))
        XCTAssertEqual(chart.prices, [.init(time: 1, value: 100), .init(time: 2, value: nil), .init(time: 3, value: 4)])
        XCTAssertEqual(chart.warnings.map(\.index), [1, 2, 3])
        XCTAssertEqual(chart.marketCaps, [])
        for bad in [
            #"{"prices":[[1,2]]"#, #"{"prices":[[1,2]]}}"#, #"{"prices":[[1,2.]]}"#, #"{"prices":[[01,2]]}"#, #"{"a":"\x"}"#,
            "{\"a\":\"\u{1}\"}",
        ] {
            assertThrows(.invalidArgument) { try CoinGeckoBody.marketChart(Data(bad.utf8)) }
        }
        assertThrows(.invalidArgument) { try CoinGeckoBody.marketChart(Data(String(repeating: "[", count: 600).utf8)) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.marketChart(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])) }
        assertThrows(.decode) { try CoinGeckoBody.marketChart(Data(#"{"prices":"none"}"#.utf8)) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.marketChart(Data(#"{"prices":"none",}"#.utf8)) }
    }
}
