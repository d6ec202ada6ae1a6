import XCTest

@testable import Coinfolio

/// `performance`'s twr (SPEC §19): each flow buys or sells units at the value just before it, the
/// portfolio valued at the flow's time (earlier rows of its day included, prices by the
/// `price_at` rule over the stored points). Worked by hand; the random differential against a
/// Fraction reference is `test_breaker57.py`.
final class PerformanceTimeWeightedTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    /// 00:00 UTC of day `n` after 2024-01-01, plus `hour` hours.
    private func day(_ n: Int, hour: Int = 0) -> Int64 { Int64(n) * 86_400_000 + 1_704_067_200_000 + Int64(hour) * 3_600_000 }

    private func entry(_ id: Int64, _ kind: TransactionKind, _ amount: String, day n: Int, hour: Int = 0, price: String? = nil)
        -> LedgerEntry
    {
        LedgerEntry(id: id, timestamp: day(n, hour: hour), kind: kind, amount: ExactDecimal(amount)!, price: price.map(p))
    }

    private func report(_ coins: [PerformanceReport.Coin], to: Int) -> PerformanceReport {
        PerformanceReport.compute(portfolio: "main", vsCurrency: "usd", from: day(0), to: day(to), endsNow: false, coins: coins)
    }

    /// A sell inside a day whose price moved after 00:00 (a 12:00 point), priced under that point.
    /// Price 1 at days 0 and 1 00:00, 2 at day 1 12:00, 1 at days 2 and 3. Buy 100 @ 1 at day 0:
    /// 100 units at 1. Sell 50 @ 1.8 at day 1 18:00 (price there 2, the 12:00 point): the 50 left
    /// are worth 100 and 90 leaves, so the value just before is 190, unit value 1.9; 90 ÷ 1.9 units
    /// leave and 100 × 100 ÷ 190 stay (worth 100, 1.9 each). Day 3: 50 coins × 1 = 50 over
    /// 10,000 ÷ 190 units = 0.95 → twr −5. (The old rule, outflows at the next 00:00: (50 + 90) ÷
    /// 100 = 1.4 → 40.) The same with points through day 60 (many points, few days with
    /// transactions: the intraday point is found by search, not by a walk over every point).
    func testAnOutflowAtTheValueJustBeforeIt() {
        for last in [3, 60] {
            let points: [(Int64, Double)] = [(day(0), 1), (day(1), 1), (day(1, hour: 12), 2)] + (2...last).map { (day($0), 1) }
            let coin = PerformanceReport.Coin(
                coinID: "x", entries: [entry(1, .buy, "100", day: 0, price: "1"), entry(2, .sell, "50", day: 1, hour: 18, price: "1.8")],
                prices: PriceSeries(points: points.map { PricePoint(time: $0.0, price: $0.1) }))
            let result = report([coin], to: 3)
            XCTAssertEqual(result.endValue, p("50"))
            XCTAssertEqual(result.netFlows, p("10"))
            XCTAssertEqual(result.gain, p("40"))
            XCTAssertEqual(result.twr ?? .nan, -5, accuracy: 1e-9, "points through day \(last)")
        }
    }

    /// Income alone (stop 58's breaker: F8): nothing at `from` and no flow issue no unit, so there is
    /// no money in to weigh and twr is null, as roi (gain 60 over 0 in) and mwr are. Price 10 × day
    /// + 10 on days 0–5; income 1 at day 1 12:00 (price 20): end value 60, gain 60.
    func testIncomeAloneHasNoTimeWeightedReturn() {
        let prices = PriceSeries(points: (0...5).map { PricePoint(time: day($0), price: Double(10 * $0 + 10)) })
        let coin = PerformanceReport.Coin(
            coinID: "x", entries: [entry(1, .income, "1", day: 1, hour: 12, price: "20")], prices: prices)
        let result = report([coin], to: 5)
        XCTAssertEqual(result.endValue, p("60"))
        XCTAssertEqual(result.netFlows, p("0"))
        XCTAssertEqual(result.gain, p("60"))
        XCTAssertNil(result.roi)
        XCTAssertNil(result.twr)
    }

    /// Income before the first flow, then several flows in one day. Price 1 on days 0–1, 2 on day
    /// 2, 3 on day 3. Income 10 at day 0 06:00 (no flow, no units). Buy 90 @ 1 at day 1 12:00: the
    /// value just before is 10, units are issued at the first flow at unit value 1: 100 units. Day
    /// 2 12:00: buy 100 @ 2, value just before 100 × 2 = 200, unit value 2, 100 units more; 18:00:
    /// sell 50 @ 2, value just before 150 × 2 left + 100 leaving = 400 over 200 units = 2, 50
    /// units leave. Day 3: 150 × 3 = 450 over 150 units = 3 → twr 200. (The old rule, a day's
    /// inflows at its 00:00 and outflows at the next: 200 ÷ (10 + 90) × (450 + 100) ÷ (200 + 200)
    /// = 2.75 → 175.)
    func testIncomeFirstThenSeveralFlowsInADay() {
        let prices = PriceSeries(points: [1.0, 1, 2, 3].enumerated().map { PricePoint(time: day($0.offset), price: $0.element) })
        let coin = PerformanceReport.Coin(
            coinID: "x",
            entries: [
                entry(1, .income, "10", day: 0, hour: 6, price: "1"), entry(2, .buy, "90", day: 1, hour: 12, price: "1"),
                entry(3, .buy, "100", day: 2, hour: 12, price: "2"), entry(4, .sell, "50", day: 2, hour: 18, price: "2"),
            ], prices: prices)
        let result = report([coin], to: 3)
        XCTAssertEqual(result.endValue, p("450"))
        XCTAssertEqual(result.netFlows, p("190"))
        XCTAssertEqual(result.twr ?? .nan, 200, accuracy: 1e-9)
    }

    /// A flow whose value just before is unknown (a held coin without a price that day) joins the
    /// periods around it, as a point without a value does. y: 1 bought @ 100 at day 0, priced 100,
    /// 100, none, 110, 121 on days 0–4; x: 100 bought @ 1 at day 2 12:00, priced 1. Unit value 1
    /// at day 0 (100 units), 1 at day 1; day 2 and the buy unknown: from day 1 to day 3 the unit
    /// value grows by 210 ÷ (100 + 100) = 1.05, then 221 ÷ 210 → 1.105 → twr 10.5; coverage 4/5.
    func testAFlowWithoutAValueJoinsItsPeriods() {
        let y = PerformanceReport.Coin(
            coinID: "y", entries: [entry(1, .buy, "1", day: 0, price: "100")],
            prices: PriceSeries(points: [(0, 100.0), (1, 100), (3, 110), (4, 121)].map { PricePoint(time: day($0.0), price: $0.1) }))
        let x = PerformanceReport.Coin(
            coinID: "x", entries: [entry(2, .buy, "100", day: 2, hour: 12, price: "1")],
            prices: PriceSeries(points: (0...4).map { PricePoint(time: day($0), price: 1) }))
        let result = report([x, y], to: 4)
        XCTAssertEqual(result.coverage, 0.8)
        XCTAssertEqual(result.endValue, p("221"))
        XCTAssertEqual(result.twr ?? .nan, 10.5, accuracy: 1e-9)
    }
}
