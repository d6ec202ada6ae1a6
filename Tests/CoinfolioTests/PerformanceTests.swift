import XCTest

@testable import Coinfolio

/// `performance` (SPEC §19) on the pure calculator: daily values, flows of each kind, moves within
/// and across the report, missing prices, twr by unit values, mwr and its roots, the benchmark.
/// The same cases run through the engine (PerformanceEngineTests), C (test_returns.c) and Python
/// (test_returns.py).
final class PerformanceTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    /// 00:00 UTC of day `n` after 2024-01-01.
    private func day(_ n: Int) -> Int64 { Int64(n) * 86_400_000 + 1_704_067_200_000 }

    private func entry(
        _ id: Int64, _ kind: TransactionKind, _ amount: String, day n: Int, hour: Int = 0, price: String? = nil, fee: String = "0",
        group: Int32 = 0, feeInCoin: Bool = false
    ) -> LedgerEntry {
        LedgerEntry(
            id: id, timestamp: day(n) + Int64(hour) * 3_600_000, kind: kind, amount: ExactDecimal(amount)!, price: price.map(p),
            fee: p(fee),
            group: group, feeInCoin: feeInCoin)
    }

    /// Daily points at 00:00 from day `first` through `last`, each priced `price(n)`.
    private func prices(_ first: Int, _ last: Int, _ price: (Int) -> Double?) -> PriceSeries {
        PriceSeries(points: (first...last).compactMap { n in price(n).map { PricePoint(time: day(n), price: $0) } })
    }

    private func report(
        _ coins: [PerformanceReport.Coin], from: Int, to: Int, endsNow: Bool = false, benchmark: PerformanceReport.Coin? = nil
    ) -> PerformanceReport {
        PerformanceReport.compute(
            portfolio: "main", vsCurrency: "usd", from: day(from), to: day(to), endsNow: endsNow, coins: coins, benchmark: benchmark)
    }

    // MARK: - The SPEC's example

    /// 100 in on day 0 at unit value 1, the value still 100 on day 151 when another 100 comes in,
    /// 220 at day 364 → twr 10.00, mwr 12.77.
    func testTheSpecExample() {
        let coin = PerformanceReport.Coin(
            coinID: "x", entries: [entry(1, .buy, "100", day: 0, price: "1"), entry(2, .buy, "100", day: 151, price: "1")],
            prices: prices(0, 364) { $0 == 364 ? 1.1 : 1 })
        let result = report([coin], from: 0, to: 364)
        XCTAssertEqual(result.startValue, .zero, "a transaction at from is a flow, not part of start_value")
        XCTAssertEqual(result.endValue, p("220"))
        XCTAssertEqual(result.netFlows, p("200"))
        XCTAssertEqual(result.gain, p("20"))
        XCTAssertEqual(result.roi ?? .nan, 10, accuracy: 1e-9)
        XCTAssertEqual(result.twr ?? .nan, 10, accuracy: 1e-9)
        XCTAssertEqual(((result.mwr ?? .nan) * 100).rounded() / 100, 12.77)
        XCTAssertEqual(result.coverage, 1)
        XCTAssertEqual(result.points.count, 365)
        XCTAssertEqual(result.points[0].value, .zero)
        XCTAssertEqual(result.points[0].netFlows, .zero)
        XCTAssertEqual(result.points[1].value, p("100"))
        XCTAssertEqual(result.points[1].netFlows, p("100"))
        XCTAssertEqual(result.points[151].value, p("100"), "the value just before the second flow")
        XCTAssertEqual(result.points[152].netFlows, p("200"))
        XCTAssertEqual(result.points[364].value, p("220"))
        XCTAssertTrue(result.missing.isEmpty)
        XCTAssertTrue(
            result.json.hasPrefix(
                #"{"portfolio":"main","vs_currency":"usd","from":"2024-01-01T00:00:00Z","to":"2024-12-30T00:00:00Z","start_value":0,"end_value":220,"net_flows":200,"gain":20,"#
            ), result.json)
    }

    /// Points: `from`, each UTC day's 00:00 strictly between, `to`.
    func testPointTimes() {
        let from = day(0) + 15 * 3_600_000
        XCTAssertEqual(PerformanceReport.pointTimes(from: from, to: day(2) + 60_000), [from, day(1), day(2), day(2) + 60_000])
        XCTAssertEqual(PerformanceReport.pointTimes(from: day(0), to: day(2)), [day(0), day(1), day(2)])
    }

    // MARK: - Flows

    /// A buy brings in amount × price + its fee; a fee paid in a coin is no money from outside; a
    /// sell takes out its proceeds net of fees; income is no flow (it is gain).
    func testFlowsOfEachKind() {
        let coin = PerformanceReport.Coin(
            coinID: "x",
            entries: [
                entry(1, .buy, "2", day: 1, price: "100", fee: "2"), entry(2, .buy, "1", day: 2, price: "100", fee: "5", feeInCoin: true),
                entry(3, .income, "1", day: 3, price: "100"), entry(4, .sell, "1", day: 4, price: "100", fee: "1"),
                entry(5, .fee, "0.5", day: 4, price: "100"),
            ], prices: prices(0, 6) { _ in 100 })
        let result = report([coin], from: 0, to: 6)
        // In: 202 + 100; out: 99. Held 2.5 at 100 = 250.
        XCTAssertEqual(result.netFlows, p("203"))
        XCTAssertEqual(result.endValue, p("250"))
        XCTAssertEqual(result.gain, p("47"))
        XCTAssertEqual(result.points.map(\.netFlows), [0, 0, 202, 302, 302, 203, 203].map { PreciseDecimal($0) })
        XCTAssertEqual(result.roi ?? .nan, 47.0 / 302 * 100, accuracy: 1e-9)
    }

    /// A move between two covered portfolios is no flow; with one side only, it is a flow at the
    /// market value of its time. An unlinked transfer is a flow at market value too.
    func testMovesWithinAndAcrossTheReport() {
        let main = [entry(1, .buy, "1", day: 1, price: "100"), entry(2, .transferOut, "1", day: 3, hour: 12, group: 9)]
        let cold = [entry(3, .transferIn, "1", day: 3, hour: 12, group: 9)]
        let series = prices(0, 5) { Double(100 + $0 * 10) }
        let both = report([PerformanceReport.Coin(coinID: "x", entries: main + cold, prices: series)], from: 0, to: 5)
        XCTAssertEqual(both.netFlows, p("100"))
        XCTAssertEqual(both.endValue, p("150"))
        let mainOnly = report([PerformanceReport.Coin(coinID: "x", entries: main, prices: series)], from: 0, to: 5)
        XCTAssertEqual(mainOnly.netFlows, p("-30"), "out at day 3's price, 130")
        XCTAssertEqual(mainOnly.endValue, .zero)
        XCTAssertEqual(mainOnly.gain, p("30"))
        let coldOnly = report([PerformanceReport.Coin(coinID: "x", entries: cold, prices: series)], from: 0, to: 5)
        XCTAssertEqual(coldOnly.netFlows, p("130"))
        XCTAssertEqual(coldOnly.gain, p("20"))
    }

    // MARK: - Missing prices

    /// A held coin without a point on a day: that point's value is null, coverage drops, the day
    /// is listed; twr joins the periods around it; start and end known keep gain and mwr.
    func testMissingPricesAreListedNeverGuessed() {
        let coin = PerformanceReport.Coin(
            coinID: "x", entries: [entry(1, .buy, "1", day: 0, price: "100")], prices: prices(0, 4) { $0 == 2 ? nil : Double(100 + $0) })
        let other = PerformanceReport.Coin(coinID: "y", entries: [], prices: .empty)
        let result = report([coin, other], from: 0, to: 4)
        XCTAssertEqual(result.points.map(\.value), [.zero, p("101"), nil, p("103"), p("104")])
        XCTAssertEqual(result.coverage, 0.8)
        XCTAssertEqual(result.missing, [MissingPrices(day: UTCDay.number(of: day(2)), coinIDs: ["x"])])
        XCTAssertEqual(result.gain, p("4"))
        XCTAssertEqual(result.twr ?? .nan, 4, accuracy: 1e-9)
        XCTAssertTrue(result.json.hasSuffix(#""missing":[{"date":"2024-01-03","coin_ids":["x"]}]}"#), result.json)
        // No price at the end: end_value, gain, roi, twr and mwr unknown.
        let endless = report([coin], from: 0, to: 2)
        XCTAssertNil(endless.endValue)
        XCTAssertNil(endless.gain)
        XCTAssertNil(endless.twr)
        XCTAssertNil(endless.mwr)
        XCTAssertNil(endless.roi)
    }

    /// A flow whose value is unknown (a pending price; a transfer without a price at its time):
    /// net flows and everything over them are unknown, from that point on; the day is listed.
    func testUnknownFlows() {
        let pending = PerformanceReport.Coin(
            coinID: "x", entries: [entry(1, .buy, "1", day: 1, price: "100"), entry(2, .buy, "1", day: 2, price: nil)],
            prices: prices(0, 4) { _ in 100 })
        let result = report([pending], from: 0, to: 4)
        XCTAssertNil(result.netFlows)
        XCTAssertNil(result.gain)
        XCTAssertEqual(result.endValue, p("200"))
        XCTAssertEqual(result.points.map(\.netFlows), [.zero, .zero, p("100"), nil, nil])
        XCTAssertEqual(result.missing.map(\.day), [UTCDay.number(of: day(2))])
    }

    // MARK: - Ends and benchmark

    /// A range ending now takes its last value from the current price; the benchmark change is
    /// (p_to ÷ p_from − 1) × 100.
    func testARangeEndingNowAndTheBenchmark() {
        let coin = PerformanceReport.Coin(
            coinID: "x", entries: [entry(1, .buy, "2", day: 0, price: "10")], prices: prices(0, 3) { _ in 10 }, currentPrice: p("12.5"))
        let bitcoin = PerformanceReport.Coin(coinID: "bitcoin", entries: [], prices: prices(0, 3) { _ in 40_000 }, currentPrice: p("50000"))
        let now = day(3) + 9 * 3_600_000
        let result = PerformanceReport.compute(
            portfolio: nil, vsCurrency: "usd", from: day(0), to: now, endsNow: true, coins: [coin], benchmark: bitcoin)
        XCTAssertEqual(result.endValue, p("25"))
        XCTAssertEqual(result.benchmark, BenchmarkChange(coinID: "bitcoin", change: 25))
        XCTAssertTrue(result.json.hasPrefix(#"{"portfolio":null,"#))
        XCTAssertTrue(result.json.contains(#""benchmark":{"coin_id":"bitcoin","change":25}"#), result.json)
        let unpriced = PerformanceReport.Coin(coinID: "nothing", entries: [], prices: .empty)
        let without = report([coin], from: 0, to: 3, benchmark: unpriced)
        XCTAssertEqual(without.benchmark, BenchmarkChange(coinID: "nothing", change: nil))
        XCTAssertEqual(without.missing.map(\.coinIDs), [["nothing"], ["nothing"]])
    }

    // MARK: - mwr

    /// x³ − 2.8x² + 2.47x − 0.66 = (x − 0.5)(x − 1.1)(x − 1.2): 100 in three years before the end,
    /// 280 out two years before, 247 in one year before, 66 at the end — three roots, no single
    /// rate: null. With 30 in instead, a single root (5.8614 %, bisection in Python) after a scan.
    func testMoneyWeightedReturnRoots() {
        XCTAssertNil(MoneyWeightedReturn.yearlyRate([(100, 3), (-280, 2), (247, 1)], end: 66))
        let single = MoneyWeightedReturn.yearlyRate([(100, 2), (-50, 1), (30, 182.0 / 365)], end: 90)
        XCTAssertEqual((single ?? .nan) * 100, 5.86143261683576, accuracy: 1e-9)
        // Everything lost: −100 %; no length: null; nothing in: null.
        XCTAssertEqual(MoneyWeightedReturn.yearlyRate([(100, 1)], end: 0), -1)
        XCTAssertNil(MoneyWeightedReturn.yearlyRate([(100, 0)], end: 100))
        XCTAssertNil(MoneyWeightedReturn.yearlyRate([], end: 0))
        // A 10 % gain in one year is 10 %; in half a year about 21 %.
        XCTAssertEqual(MoneyWeightedReturn.yearlyRate([(100, 1)], end: 110) ?? .nan, 0.1, accuracy: 1e-12)
        XCTAssertEqual(MoneyWeightedReturn.yearlyRate([(100, 0.5)], end: 110) ?? .nan, 0.21, accuracy: 1e-12)
        // A week's 50 % is a yearly rate beyond any bracket of doubles' sense, yet finite.
        XCTAssertEqual(
            MoneyWeightedReturn.yearlyRate([(100, 7.0 / 365)], end: 150) ?? .nan, pow(1.5, 365.0 / 7) - 1,
            accuracy: 1e-3 * pow(1.5, 365.0 / 7))
    }

    // MARK: - Options

    func testOptionsFromJSON() throws {
        XCTAssertEqual(try PerformanceOptions(json: nil), PerformanceOptions())
        XCTAssertEqual(try PerformanceOptions(json: #"{"range":"1y"}"#).range, .last(days: 365))
        XCTAssertEqual(
            try PerformanceOptions(json: #"{"range":"ytd","portfolio":null}"#), PerformanceOptions(portfolio: nil, range: .yearToDate))
        XCTAssertEqual(
            try PerformanceOptions(json: #"{"range":{"from":"2024-01-01","to":"2024-12-30"},"benchmark":"bitcoin"}"#),
            PerformanceOptions(range: .between(from: day(0), to: day(364)), benchmark: "bitcoin"))
        for (json, field) in [
            (#"{"range":"2y"}"#, "range"), (#"{"range":{"to":"2024-01-01"}}"#, "range.from"),
            (#"{"range":{"from":"2024-02-01","to":"2024-01-01"}}"#, "range.to"), (#"{"benchmark":"a/b"}"#, "benchmark"),
            (#"{"portfolio":1}"#, "portfolio"), (#"{"range":7}"#, "range"),
        ] {
            XCTAssertThrowsError(try PerformanceOptions(json: json), json) { error in
                XCTAssertEqual((error as? CoinfolioError)?.details["field"], .string(field), json)
            }
        }
        let now = day(10) + 5_000
        XCTAssertEqual(try PerformanceOptions(range: .last(days: 7)).resolve(now: now, firstTransaction: nil).from, now - 7 * 86_400_000)
        XCTAssertEqual(try PerformanceOptions(range: .yearToDate).resolve(now: now, firstTransaction: nil).from, day(0))
        XCTAssertEqual(try PerformanceOptions(range: .max).resolve(now: now, firstTransaction: day(3) + 77).from, day(3))
        let past = try PerformanceOptions(range: .between(from: day(0), to: day(4))).resolve(now: now, firstTransaction: nil)
        XCTAssertEqual(past.to, day(4))
        XCTAssertFalse(past.endsNow)
        XCTAssertTrue(try PerformanceOptions(range: .between(from: day(0), to: day(40))).resolve(now: now, firstTransaction: nil).endsNow)
        XCTAssertThrowsError(try PerformanceOptions(range: .between(from: day(20), to: nil)).resolve(now: now, firstTransaction: nil))
        XCTAssertThrowsError(try PerformanceOptions(range: .between(from: 0, to: nil)).resolve(now: day(40_000), firstTransaction: nil))
    }

    /// The ranges the CLI's `--range` names, read by the rules of the JSON form (same fields, same
    /// messages), and a benchmark set in Swift checked as the JSON one is.
    func testRangesByNameAndEndsAndTheBenchmarkRule() throws {
        XCTAssertEqual(try PerformanceOptions.Range(name: "90d"), .last(days: 90))
        XCTAssertEqual(try PerformanceOptions.Range(from: "2024-01-01", to: "2024-12-30"), .between(from: day(0), to: day(364)))
        XCTAssertEqual(try PerformanceOptions.Range(from: "2024-01-01", to: nil), .between(from: day(0), to: nil))
        for (make, field) in [
            ({ try PerformanceOptions.Range(name: "2y") }, "range"),
            ({ try PerformanceOptions.Range(from: "soon", to: nil) }, "range.from"),
            ({ try PerformanceOptions.Range(from: "2024-02-01", to: "2024-01-01") }, "range.to"),
        ] as [(() throws -> PerformanceOptions.Range, String)] {
            XCTAssertThrowsError(try make(), field) { error in
                XCTAssertEqual((error as? CoinfolioError)?.details["field"], .string(field))
                XCTAssertEqual((error as? CoinfolioError)?.code, .invalidArgument)
            }
        }
        XCTAssertThrowsError(try PerformanceOptions(benchmark: "a/b").resolve(now: day(10), firstTransaction: nil)) { error in
            XCTAssertEqual((error as? CoinfolioError)?.details["field"], .string("benchmark"))
        }
    }
}
