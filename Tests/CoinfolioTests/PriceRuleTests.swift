import XCTest

@testable import Coinfolio

/// SPEC §17's pure parts: the `price_at` rule's choice among candidates and the fill planner's
/// requests (one per coin, currency and 365 days of times). Times are worked by hand:
/// 2024-03-01T00:00:00Z is 1,709,251,200,000 ms.
final class PriceRuleTests: XCTestCase {
    private let march1: Int64 = 1_709_251_200_000
    private let hour: Int64 = 3_600_000
    private let day: Int64 = 86_400_000

    func testUTCDaysCountBackBefore1970() {
        XCTAssertEqual(UTCDay.start(of: march1 + 5 * hour), march1)
        XCTAssertEqual(UTCDay.end(of: march1 + 5 * hour), march1 + day)
        XCTAssertEqual(UTCDay.start(of: march1), march1)
        XCTAssertEqual(UTCDay.start(of: -1), -day)
        XCTAssertEqual(UTCDay.end(of: -day), 0)
    }

    func testThePointAtOrBeforeWinsThenThePointAfterWithinTheDay() {
        let time = march1 + 12 * hour
        let before = PricePoint(time: march1 + 11 * hour, price: 1)
        let after = PricePoint(time: march1 + 13 * hour, price: 2)
        XCTAssertEqual(PriceRule.pick(atOrBefore: before, after: after, time: time, timeOf: \.time), before)
        XCTAssertEqual(PriceRule.pick(atOrBefore: nil, after: after, time: time, timeOf: \.time), after)
        // A point exactly at the time counts as "at or before"; one at 00:00 of the day too.
        let exact = PricePoint(time: time, price: 3)
        XCTAssertEqual(PriceRule.pick(atOrBefore: exact, after: after, time: time, timeOf: \.time), exact)
        XCTAssertEqual(
            PriceRule.pick(atOrBefore: PricePoint(time: march1, price: 4), after: nil, time: time, timeOf: \.time)?.price, 4)
        // Yesterday's last point and tomorrow's first are outside the day.
        let yesterday = PricePoint(time: march1 - 1, price: 5)
        let tomorrow = PricePoint(time: march1 + day, price: 6)
        XCTAssertNil(PriceRule.pick(atOrBefore: yesterday, after: tomorrow, time: time, timeOf: \.time))
        XCTAssertEqual(PriceRule.pick(atOrBefore: yesterday, after: after, time: time, timeOf: \.time), after)
    }

    /// `performance` asks a coin's series at its daily points in order, walking a cursor over the
    /// CoinGecko points instead of searching them each time: at every time, in order (repeated,
    /// skipped, between points, on days without one, before and after all), the walk answers
    /// what the search answers, manual points first.
    func testTheCursorWalkAnswersAsTheSearch() {
        let points = [0, 5, 24, 30, 31, 72, 80].map { PricePoint(time: march1 + Int64($0) * hour, price: 100 + Double($0) * 0.05) }
        let manual = [ManualPrice(coinID: "x", vsCurrency: "usd", time: march1 + 30 * hour, price: ExactDecimal("7.5")!)]
        for series in [PriceSeries(points: points), PriceSeries(points: points, manual: manual), PriceSeries()] {
            var cursor = 0
            var preciseCursor = 0
            var times: [Int64] = [march1 - day, march1 - 1, march1, march1, march1 + 3 * hour, march1 + 24 * hour]
            times += [march1 + 29 * hour, march1 + 31 * hour, march1 + 2 * day, march1 + 79 * hour, march1 + 5 * day]
            for time in times {
                XCTAssertEqual(series.price(at: time, cursor: &cursor), series.price(at: time), "at \(time)")
                // `performance`'s form of it: the same price as a PreciseDecimal.
                let precise = series.precisePrice(at: time, cursor: &preciseCursor)
                XCTAssertEqual(precise, series.price(at: time).map { PreciseDecimal($0.price) }, "at \(time)")
            }
        }
        // A point is taken by its shortest text (100.35000000000001), rounded to 18 places.
        XCTAssertEqual(
            PriceSeries(points: [PricePoint(time: march1, price: 100.35000000000001)]).price(at: march1)?.price,
            ExactDecimal("100.35000000000001"))
        XCTAssertEqual(ExactDecimal(0.1 + 0.2), ExactDecimal("0.30000000000000004"))
        XCTAssertEqual(ExactDecimal(1e-19), ExactDecimal("0"))
        XCTAssertEqual(ExactDecimal(-2.5e-18), ExactDecimal("-0.000000000000000002"))
    }

    func testAmongADaysPointsTheLatestAtOrBeforeWinsElseTheEarliestAfter() {
        let points = [9, 3, 14, 11].map { PricePoint(time: march1 + $0 * hour, price: Double($0)) }
        XCTAssertEqual(PriceRule.pick(among: points, time: march1 + 10 * hour, timeOf: \.time)?.price, 9)
        XCTAssertEqual(PriceRule.pick(among: points, time: march1 + 2 * hour, timeOf: \.time)?.price, 3)
        XCTAssertEqual(PriceRule.pick(among: points, time: march1 + 23 * hour, timeOf: \.time)?.price, 14)
        XCTAssertNil(PriceRule.pick(among: [PricePoint](), time: march1, timeOf: \.time))
    }

    func testTheSnapshotPricesWithinAnHourEitherSide() {
        XCTAssertTrue(PriceRule.snapshotPrices(lastUpdated: march1, time: march1 + hour))
        XCTAssertTrue(PriceRule.snapshotPrices(lastUpdated: march1 + hour, time: march1))
        XCTAssertFalse(PriceRule.snapshotPrices(lastUpdated: march1, time: march1 + hour + 1))
        XCTAssertFalse(PriceRule.snapshotPrices(lastUpdated: march1 + hour + 1, time: march1))
    }

    func testStorablePointsDropGapsNegativesAndFractionsAndKeepTheLastOfATime() {
        let points = PricePoint.storable([
            ChartPoint(time: 2000, value: 2), ChartPoint(time: 1000, value: 1), ChartPoint(time: 3000, value: nil),
            ChartPoint(time: 4000, value: -1), ChartPoint(time: 5000.5, value: 5), ChartPoint(time: -1, value: 5),
            ChartPoint(time: .infinity, value: 5), ChartPoint(time: 6000, value: .nan), ChartPoint(time: 2000, value: 2.5),
            ChartPoint(time: 253_402_300_800_000, value: 1),
        ])
        XCTAssertEqual(points, [PricePoint(time: 1000, price: 1), PricePoint(time: 2000, price: 2.5)])
    }

    // MARK: - The fill planner

    /// 300 times over 3 coins spread over 200 days: 3 requests, each from its first day's 00:00
    /// to the end of its last day.
    func testThreeHundredTimesOverThreeCoinsAndTwoHundredDaysAreThreeRequests() {
        let now = march1 + 250 * day
        var needs: [FillPlanner.Need] = []
        for index in 0..<300 {
            let coin = ["bitcoin", "ethereum", "dogecoin"][index % 3]
            needs.append(FillPlanner.Need(coinID: coin, vsCurrency: "usd", time: march1 + Int64(index) * 16 * hour + 7 * hour))
        }
        let (requests, unpriceable) = FillPlanner.plan(needs, plan: .public, now: now)
        XCTAssertTrue(unpriceable.isEmpty)
        XCTAssertEqual(requests.map(\.coinID), ["bitcoin", "dogecoin", "ethereum"])
        XCTAssertEqual(requests.map(\.needs.count), [100, 100, 100])
        XCTAssertEqual(Set(requests.flatMap(\.needs)), Set(0..<300))
        // bitcoin: the first time is 2024-03-01T07:00Z; the last (index 297, 4,759 hours later)
        // 2024-09-15T07:00Z, 198 days on: the range ends at 2024-09-16T00:00Z.
        XCTAssertEqual(requests[0].from, march1 / 1000)
        XCTAssertEqual(requests[0].to, (march1 + 199 * day) / 1000)
    }

    func testAYearAndMoreIsCutEvery365DaysOnPro() {
        let now = march1 + 1000 * day
        let needs = [0, 200, 364, 365, 700].map { FillPlanner.Need(coinID: "bitcoin", vsCurrency: "usd", time: march1 + $0 * day + hour) }
        let (requests, _) = FillPlanner.plan(needs, plan: .pro, now: now)
        XCTAssertEqual(requests.map(\.needs), [[0, 1, 2], [3, 4]])
        XCTAssertEqual(requests[0].from, march1 / 1000)
        XCTAssertEqual(requests[0].to, (march1 + 365 * day) / 1000)
        XCTAssertEqual(requests[1].from, (march1 + 365 * day) / 1000)
        XCTAssertEqual(requests[1].to, (march1 + 701 * day) / 1000)
    }

    func testOnePerCurrencyAndNothingForTheFutureOrBeyondThePlan() {
        let now = march1 + 400 * day + 12 * hour
        let needs = [
            FillPlanner.Need(coinID: "bitcoin", vsCurrency: "usd", time: march1 + 390 * day),
            FillPlanner.Need(coinID: "bitcoin", vsCurrency: "eur", time: march1 + 390 * day),
            FillPlanner.Need(coinID: "bitcoin", vsCurrency: "usd", time: now + 1),
            FillPlanner.Need(coinID: "bitcoin", vsCurrency: "usd", time: march1 + 30 * day),
            // Today: the request ends now, not at midnight.
            FillPlanner.Need(coinID: "tether", vsCurrency: "usd", time: now - hour),
        ]
        let (requests, unpriceable) = FillPlanner.plan(needs, plan: .demo, now: now)
        XCTAssertEqual(unpriceable.map(\.need), [2, 3])
        XCTAssertEqual(unpriceable.map(\.gap), [.noPoint, .historyLimit])
        XCTAssertEqual(
            requests.map { "\($0.coinID) \($0.vsCurrency) \($0.needs)" }, ["bitcoin eur [1]", "bitcoin usd [0]", "tether usd [4]"])
        XCTAssertEqual(requests[2].from, (march1 + 400 * day) / 1000)
        XCTAssertEqual(requests[2].to, now / 1000)
        // On pro the old time is asked for.
        XCTAssertEqual(FillPlanner.plan([needs[3]], plan: .pro, now: now).requests.count, 1)
    }

    func testARunStartingBeforeThePlanLimitIsAskedFromTheLimit() {
        let now = march1 + 400 * day
        let limit = now / 1000 - 365 * 86_400 + FillPlanner.planLimitSlack
        // A time an hour after the limit: its day starts before it.
        let need = FillPlanner.Need(coinID: "bitcoin", vsCurrency: "usd", time: limit * 1000 + hour)
        let (requests, unpriceable) = FillPlanner.plan([need], plan: .public, now: now)
        XCTAssertTrue(unpriceable.isEmpty)
        XCTAssertEqual(requests.first?.from, limit)
    }
}
