import Foundation
import XCTest

@testable import Coinfolio

/// Issue 32: charts a person reads at a glance. Round value ticks (1, 2 or 5 × 10ⁿ, 3 to 6,
/// covering the data) written like values; round UTC time ticks; partial history points dashed
/// with a note, the scale from the complete points. The expected ticks are worked by hand from
/// the rule: the smallest step of 1, 2 or 5 × 10ⁿ whose multiples from ⌊low / step⌋ to
/// ⌈high / step⌉ are at most 6.
final class ChartAxisTests: XCTestCase {
    /// 2024-12-12T10:40:00Z.
    private let t0 = 1_734_000_000_000.0
    private let hour = 3_600_000.0
    private let day = 86_400_000.0

    private func axis(_ low: Double, _ high: Double, _ vs: String = "usd", most: Int = 6) throws -> ValueAxis {
        ValueAxis(low: low, high: high, vsCurrency: try VsCurrency(vs), maximumCount: most)
    }

    /// The texts of the SVG of `points` (`[t, v]` or `[t, v, partial]` JSON members).
    private func texts(_ points: [String], vs: String = "usd", options: String? = nil) throws -> [String] {
        let svg = try ChartSVG.render(
            json: #"{"vs_currency":"\#(vs)","points":[\#(points.joined(separator: ","))]}"#, options: ChartSVGOptions(json: options))
        return try XCTUnwrap(RenderedSVG.texts(of: svg), "not well-formed XML")
    }

    /// The value labels of a two-point series: the texts before the first date.
    private func valueLabels(_ low: Double, _ high: Double, vs: String = "usd") throws -> [String] {
        let all = try texts(["[\(Int(t0)),\(low)]", "[\(Int(t0 + hour)),\(high)]"], vs: vs)
        return Array(all.prefix { !$0.hasPrefix("2024-") })
    }

    // MARK: - Value ticks

    func testTicksForSeriesOfSeveralMagnitudes() throws {
        // 1.3e-6 apart: 1e-7 gives 14 ticks, 2e-7 gives 8, 5e-7 gives 4 (2.0 … 3.5 e-6).
        var ticks = try axis(0.0000021, 0.0000034)
        XCTAssertEqual(ticks.ticks, [0.000002, 0.0000025, 0.000003, 0.0000035])
        XCTAssertEqual(ticks.labels, ["$0.0000020", "$0.0000025", "$0.0000030", "$0.0000035"])
        // A stablecoin: 0.01 gives 0.98 … 1.02, five ticks (0.98 / 0.01 is 97.999…: still 98).
        ticks = try axis(0.98, 1.02)
        XCTAssertEqual(ticks.ticks, [0.98, 0.99, 1, 1.01, 1.02])
        XCTAssertEqual(ticks.labels, ["$0.98", "$0.99", "$1.00", "$1.01", "$1.02"])
        // Closer still: the step's third digit shows, on every tick.
        ticks = try axis(0.9985, 1.0012)
        XCTAssertEqual(ticks.labels, ["$0.998", "$0.999", "$1.000", "$1.001", "$1.002"])
        // The issue's portfolio: 2000 gives 8 ticks (28,000 … 42,000), 5000 gives 5.
        ticks = try axis(28368.19535, 40697.69215)
        XCTAssertEqual(ticks.ticks, [25000, 30000, 35000, 40000, 45000])
        XCTAssertEqual(ticks.labels, ["$25,000.00", "$30,000.00", "$35,000.00", "$40,000.00", "$45,000.00"])
        // A market cap: 2e10 gives 13, 5e10 gives 6 (1.00 … 1.25 e12).
        ticks = try axis(1e12, 1.23e12)
        XCTAssertEqual(ticks.ticks, [1e12, 1.05e12, 1.1e12, 1.15e12, 1.2e12, 1.25e12])
        XCTAssertEqual(
            ticks.labels,
            [
                "$1,000,000,000,000.00", "$1,050,000,000,000.00", "$1,100,000,000,000.00", "$1,150,000,000,000.00",
                "$1,200,000,000,000.00", "$1,250,000,000,000.00",
            ])
        XCTAssertEqual(ticks.low, 1e12)
        XCTAssertEqual(ticks.high, 1.25e12)
    }

    func testTickLabelsFollowTheCurrencysDigits() throws {
        // Crypto quotes keep their significant digits; jpy has none; kwd three.
        XCTAssertEqual(try axis(0.00000151, 0.00000162, "btc").labels, ["₿0.00000150", "₿0.00000155", "₿0.00000160", "₿0.00000165"])
        XCTAssertEqual(try axis(0.5, 1.5, "btc").labels, ["₿0.50", "₿1.00", "₿1.50"])
        XCTAssertEqual(
            try axis(14_800_000, 15_234_567, "jpy").labels,
            ["¥14,800,000", "¥14,900,000", "¥15,000,000", "¥15,100,000", "¥15,200,000", "¥15,300,000"])
        XCTAssertEqual(try axis(1.2346, 1.3, "kwd").labels, ["KWD 1.220", "KWD 1.240", "KWD 1.260", "KWD 1.280", "KWD 1.300"])
        XCTAssertEqual(try axis(-250, 120).labels, ["-$300.00", "-$200.00", "-$100.00", "$0.00", "$100.00", "$200.00"])
        // The formatter behind them is NumberFormat's, with the step's digits as a floor.
        XCTAssertEqual(NumberFormat.tick(40000, fractionDigits: 0), "$40,000.00")
        XCTAssertEqual(NumberFormat.tick(0.9800000000000001, fractionDigits: 2), "$0.98")
        XCTAssertEqual(NumberFormat.tick(-0.0, fractionDigits: 0), "$0.00")
        XCTAssertEqual(NumberFormat.tick(.nan, fractionDigits: 2), "n/a")
    }

    func testAFlatSeriesAndASinglePointGetThreeTicksAroundTheValue() throws {
        // One step of at least 1 % of the value either side: 5 → 0.05; 28,500.06 → 500; 0 → 1.
        XCTAssertEqual(try axis(5, 5).ticks, [4.95, 5, 5.05])
        XCTAssertEqual(try axis(5, 5).labels, ["$4.95", "$5.00", "$5.05"])
        XCTAssertEqual(try axis(1, 1).labels, ["$0.99", "$1.00", "$1.01"])
        XCTAssertEqual(try axis(28500.06, 28500.06).labels, ["$28,000.00", "$28,500.00", "$29,000.00"])
        XCTAssertEqual(try axis(0, 0).labels, ["-$1.00", "$0.00", "$1.00"])
        XCTAssertEqual(try axis(0.000002, 0.000002).labels, ["$0.00000198", "$0.00000200", "$0.00000202"])

        XCTAssertEqual(
            try texts(["[\(Int(t0)),5]", "[\(Int(t0 + hour)),5]", "[\(Int(t0 + 2 * hour)),5]"]),
            ["$5.05", "$5.00", "$4.95", "2024-12-12 10:40", "11:15", "11:30", "11:45", "12:00", "2024-12-12 12:40"])
        // A single point: its date once, under the point.
        XCTAssertEqual(try texts(["[\(Int(t0)),28500.06]"]), ["$29,000.00", "$28,500.00", "$28,000.00", "2024-12-12 10:40"])
    }

    func testLowChartsGetFewerTicksAndExtremesFallBackToTheDataExtremes() throws {
        XCTAssertEqual(try axis(0.98, 1.02, most: 3).ticks, [0.98, 1, 1.02])
        XCTAssertEqual(try axis(0.98, 1.02, most: 1).ticks.count, 3, "never fewer than 3")
        // A range no Double tick can express: the extremes and the middle, as prices.
        let huge = try axis(-1.7e308, 1.7e308)
        XCTAssertEqual(huge.ticks, [-1.7e308, 0, 1.7e308])
        XCTAssertEqual(huge.labels.first?.hasPrefix("-$170,000,000"), true)
        let fine = try axis(1e12, 1e12 + 0.000244140625)
        XCTAssertEqual(fine.ticks, [1e12, 1e12 + 0.0001220703125, 1e12 + 0.000244140625])
    }

    func testTicksAlwaysCoverTheDataInThreeToSixRoundSteps() throws {
        // Ranges over 30 decades, starting anywhere: a linear congruential sequence, fixed seed.
        var state: UInt64 = 0x2024_1212
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for _ in 0..<2000 {
            let scale = pow(10, (next() * 30).rounded(.down) - 12)
            let low = (next() - 0.5) * scale * 10
            let high = low + next() * scale
            let axis = try self.axis(low, high)
            guard let round = ValueAxis.round(low: low, high: high) else {
                XCTFail("no round ticks for \(low)…\(high)")
                continue
            }
            XCTAssertTrue((3...6).contains(axis.ticks.count), "\(low)…\(high): \(axis.ticks)")
            XCTAssertTrue([1, 2, 5].contains(round.step.mantissa), "\(low)…\(high)")
            XCTAssertLessThanOrEqual(axis.low, low, "\(low)…\(high)")
            XCTAssertGreaterThanOrEqual(axis.high, high, "\(low)…\(high)")
            XCTAssertEqual(Set(axis.labels).count, axis.labels.count, "labels differ: \(axis.labels)")
        }
    }

    // MARK: - Time ticks

    private func timeLabels(_ start: Double, _ end: Double, most: Int) -> [String] {
        TimeAxis.ticks(start: start, end: end) { _ in most }.map(\.label)
    }

    func testTimeTicksAreRoundUTCHoursDaysMonthsOrYears() throws {
        let midnight = 1_733_961_600_000.0  // 2024-12-12T00:00:00Z
        // 24 hours: 1 h gives 23 ticks, 2 h 11, 3 h 7; midnight is named by its date.
        XCTAssertEqual(
            timeLabels(midnight, midnight + 24 * hour, most: 8), ["03:00", "06:00", "09:00", "12:00", "15:00", "18:00", "21:00"])
        XCTAssertEqual(timeLabels(t0, t0 + 12 * hour, most: 8), ["12:00", "14:00", "16:00", "18:00", "20:00", "22:00"])
        // A week: days.
        XCTAssertEqual(timeLabels(t0, t0 + 7 * day, most: 8), ["Dec 13", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "Dec 19"])
        // 30 days: every 5th day from the 1st, never the 31st (it would crowd the 1st).
        XCTAssertEqual(timeLabels(t0, t0 + 30 * day, most: 8), ["Dec 16", "Dec 21", "Dec 26", "Jan 1", "Jan 6", "Jan 11"])
        // A year: months (January by its year), or every other month where fewer fit.
        let january15 = 1_705_276_800_000.0  // 2024-01-15T00:00:00Z
        XCTAssertEqual(
            timeLabels(january15, january15 + 365 * day, most: 12),
            ["Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "2025"])
        XCTAssertEqual(timeLabels(january15, january15 + 365 * day, most: 8), ["Mar", "May", "Jul", "Sep", "Nov", "2025"])
        // CoinGecko's max for bitcoin (2013-04-28 on): years.
        XCTAssertEqual(timeLabels(1_367_107_200_000, midnight, most: 8), ["2014", "2016", "2018", "2020", "2022", "2024"])
        // Across 1970 (negative times), and no ticks for one time or times beyond year ±9900.
        XCTAssertEqual(
            timeLabels(-4 * hour, 4 * hour, most: 8), ["21:00", "22:00", "23:00", "Jan 1", "01:00", "02:00", "03:00"])
        XCTAssertEqual(timeLabels(t0, t0, most: 8), [])
        XCTAssertEqual(timeLabels(-3e14, t0, most: 8), [])
        XCTAssertEqual(timeLabels(t0, t0 + day, most: 0), [])
    }

    func testTheRendererPicksDaysForAWeekAndMonthsForAYear() throws {
        let week = (0...168).map { "[\(Int(t0 + Double($0) * hour)),\(100 + $0 % 7)]" }
        // Dec 13 and Dec 19 would crowd the end dates: their grid lines stay, their labels go.
        XCTAssertEqual(
            try texts(week).suffix(7), ["2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19"])
        let january15 = 1_705_276_800_000.0
        let year = (0...365).map { "[\(Int(january15 + Double($0) * day)),\(40000 + $0 * 10)]" }
        // Feb 1 (and at 640 pixels Mar 1) would crowd the first date.
        XCTAssertEqual(
            try texts(year, options: #"{"width":1200}"#).suffix(12),
            ["2024-01-15", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "2025-01-14"])
        XCTAssertEqual(try texts(year).suffix(6), ["2024-01-15", "May", "Jul", "Sep", "Nov", "2025-01-14"])
    }

    // MARK: - Partial history points

    func testAPartialStartIsDashedNotedAndLeftOutOfTheScale() throws {
        // The issue's week: 0.5 BTC and 3 ETH; the first two hours price bitcoin only.
        let engine = try PortfolioEngine(configuration: EngineConfiguration())
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try engine.setHolding(coinID: "ethereum", amount: 3)
        let history = try engine.portfolioHistory()
        XCTAssertEqual(history.points.prefix(3).map(\.partial), [true, true, false])
        XCTAssertEqual(history.summary.min, 28368.19535)
        let expected = [
            "Portfolio", "Dashed: 2 of 170 points miss a holding\u{2019}s price", "$41,000.00", "$40,500.00", "$40,000.00", "$39,500.00",
            "2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19",
        ]
        let svg = history.svg(try ChartSVGOptions(title: "Portfolio"))
        XCTAssertEqual(RenderedSVG.texts(of: svg), expected)
        // The JSON answer draws the same document.
        XCTAssertEqual(try ChartSVG.render(json: history.json, options: ChartSVGOptions(title: "Portfolio")), svg)
        XCTAssertEqual(svg.components(separatedBy: "stroke-dasharray").count - 1, 2, "the note's sample and the partial segment")
        XCTAssertTrue(svg.contains("clip-path="), "the partial values below the scale are cut at the plot's edge")
        let rendered = try RenderedSVG.render(svg, in: self)
        XCTAssertEqual(rendered.texts, expected)
        // The solid line spans the plot from the third hour on; its lowest point is the lowest
        // complete value (39,588.96), near the bottom, not squeezed into the top by 28,368.
        let green = try XCTUnwrap(rendered.columns[ChartSVG.risingColour])
        let lowest = try XCTUnwrap(green.values.map(\.1).max())
        XCTAssertGreaterThan(lowest, 250)
        XCTAssertGreaterThan(green.count, 400)
    }

    func testAnAllPartialSeriesIsDashedAndScaledByItsOwnValues() throws {
        let points = ["[\(Int(t0)),3,true]", "[\(Int(t0 + hour)),4,true]", "[\(Int(t0 + 2 * hour)),2,true]"]
        XCTAssertEqual(
            try texts(points),
            [
                "Dashed: 3 of 3 points miss a holding\u{2019}s price", "$4.00", "$3.50", "$3.00", "$2.50", "$2.00", "2024-12-12 10:40",
                "11:15", "11:30", "11:45", "12:00", "2024-12-12 12:40",
            ])
        let svg = try ChartSVG.render(json: #"{"points":[\#(points.joined(separator: ","))]}"#)
        // One dashed path (and the note's sample), no solid one; red (4 → 2 is down... 3 → 2).
        XCTAssertEqual(svg.components(separatedBy: "stroke-dasharray").count - 1, 2)
        XCTAssertEqual(svg.components(separatedBy: "<path").count - 1, 2)
        XCTAssertTrue(svg.contains("stroke=\"\(ChartSVG.fallingColour)\""))
        XCTAssertFalse(svg.contains("clip-path="), "every value is inside its own scale")
        // Lighter: no pixel has the full line colour.
        let rendered = try RenderedSVG.render(svg, in: self)
        XCTAssertEqual(rendered.count(ChartSVG.fallingColour) + rendered.count(ChartSVG.risingColour), 0)
        // false, null or other third members are complete points, as before.
        XCTAssertEqual(try texts(["[\(Int(t0)),3,false]", "[\(Int(t0 + hour)),4,null]"]).first, "$4.00")
    }

    func testEveryTextIsEscapedAndNoTextDependsOnTheHostsZone() throws {
        let svg = try ChartSVG.render(
            json: #"{"vs_currency":"chf","points":[[\#(Int(t0)),1,true],[\#(Int(t0 + day / 2)),1.5],[\#(Int(t0 + day)),2]]}"#,
            options: ChartSVGOptions(title: "<b>&amp;</b>"))
        XCTAssertFalse(svg.contains("<b>"))
        XCTAssertEqual(
            RenderedSVG.texts(of: svg),
            [
                "<b>&amp;</b>", "Dashed: 1 of 3 points miss a holding\u{2019}s price", "CHF 2.00", "CHF 1.90", "CHF 1.80", "CHF 1.70",
                "CHF 1.60", "CHF 1.50", "2024-12-12 10:40", "18:00", "21:00", "Dec 13", "03:00", "2024-12-13 10:40",
            ])
        // Times are arithmetic on UTC milliseconds: the same document whatever TZ says.
        let before = svg
        let zone = ProcessInfo.processInfo.environment["TZ"]
        setenv("TZ", "Asia/Kathmandu", 1)
        tzset()
        defer {
            if let zone { setenv("TZ", zone, 1) } else { unsetenv("TZ") }
            tzset()
        }
        XCTAssertEqual(
            try ChartSVG.render(
                json: #"{"vs_currency":"chf","points":[[\#(Int(t0)),1,true],[\#(Int(t0 + day / 2)),1.5],[\#(Int(t0 + day)),2]]}"#,
                options: ChartSVGOptions(title: "<b>&amp;</b>")), before)
    }
}
