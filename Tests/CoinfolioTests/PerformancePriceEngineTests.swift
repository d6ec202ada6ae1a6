import Foundation
import XCTest

@testable import Coinfolio

/// `performance` (SPEC §19) over the price points §17's calls store: CoinGecko's points that
/// `fill_prices` fetched from the loopback server (daily at 00:00 for a range over 90 days:
/// bitcoin 40,000 usd) and the owner's manual points of `set_price`. On SQLite and, in the
/// PostgreSQL pass, on a database of its own (points are shared by every owner of a database).
///
/// Worked by hand (F is 00:00 UTC 300 days ago; both buys pending until the fill prices them at
/// their day's 00:00 point, 40,000): values 0 at F, 40,000 each day to F+150 except F+100, where
/// the manual point of 06:00 beats CoinGecko's 00:00 point (50,000), and 2 × 48,400 = 96,800 at
/// F+151 (a manual point at 00:00). Flows 40,000 at F and at F+150: net 80,000, gain 16,800, roi
/// 16,800 ÷ 80,000 = 21 %. twr: 40,000 units at 1; unit value 1 again at F+150, where 40,000
/// more buy 40,000 units; 96,800 ÷ 80,000 = 1.21: 21.00 %. mwr: 40,000 (1+r)^(151/365) + 40,000
/// (1+r)^(1/365) = 96,800 gives r = 132.49 % (bisection). Benchmark bitcoin: 48,400 ÷ 40,000 − 1.
final class PerformancePriceEngineTests: PriceServerTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    private func at(_ time: Int64) -> String { LedgerTimestamp.format(time) }

    func testPerformanceReadsFilledAndManualPoints() throws {
        let engine = try engine()
        defer { engine.close() }
        let first = dayStart(300)
        let buyTime = 12 * hour + 30 * minute
        for offset in [0, 150] as [Int64] {
            try engine.addTransaction(
                json: #"{"coin_id":"bitcoin","kind":"buy","amount":"1","timestamp":"\#(at(first + offset * day + buyTime))"}"#)
        }
        let fill = try engine.fillPrices()
        XCTAssertEqual(fill.filled, 2)
        XCTAssertEqual(fill.requests, 1)
        try engine.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"\#(at(first + 100 * day + 6 * hour))","price":"50000"}"#)
        try engine.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"\#(at(first + 151 * day))","price":"48400"}"#)
        let requests = try rangeRequests()

        let report = try engine.performance(
            PerformanceOptions(
                json: #"{"range":{"from":"\#(at(first))","to":"\#(at(first + 151 * day))"},"benchmark":"bitcoin"}"#))
        XCTAssertEqual(try rangeRequests(), requests, "performance never sends a request")
        XCTAssertEqual(report.points.count, 152)
        XCTAssertEqual(report.coverage, 1)
        XCTAssertEqual(report.missing, [])
        XCTAssertEqual(report.points[0].value, .zero)
        XCTAssertEqual(report.points[1].value, p("40000"))
        XCTAssertEqual(report.points[100].value, p("50000"), "the manual point of the day beats CoinGecko's")
        XCTAssertEqual(report.points[150].value, p("40000"))
        XCTAssertEqual(report.points[151].value, p("96800"))
        XCTAssertEqual(report.startValue, .zero)
        XCTAssertEqual(report.endValue, p("96800"))
        XCTAssertEqual(report.netFlows, p("80000"))
        XCTAssertEqual(report.gain, p("16800"))
        XCTAssertEqual(report.roi ?? .nan, 21, accuracy: 1e-9)
        XCTAssertEqual(report.twr ?? .nan, 21, accuracy: 1e-9)
        XCTAssertEqual(report.mwr ?? .nan, 132.49, accuracy: 0.005)
        XCTAssertEqual(report.benchmark?.change ?? .nan, 21, accuracy: 1e-9)

        // Removing the manual point of F+100 brings back CoinGecko's 40,000 there.
        try engine.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"\#(at(first + 100 * day + 6 * hour))","price":null}"#)
        let without = try engine.performance(
            PerformanceOptions(
                json: #"{"range":{"from":"\#(at(first))","to":"\#(at(first + 151 * day))"}}"#))
        XCTAssertEqual(without.points[100].value, p("40000"))
        XCTAssertEqual(without.twr ?? .nan, 21, accuracy: 1e-9)
    }

    /// A report asked again over the same days reads its points from what the store kept
    /// (`PriceStore.series`), and still sees every point stored since: by another engine on the
    /// same database (another connection's commit) and by its own. Values by hand: 1 bitcoin held
    /// from D−5, manual points at 00:00 of D−4, D−3, D−2: 100, 200, 300; then D−3 set to 250 by
    /// the other engine, then D−2 to 350 by this one.
    func testPerformanceSeesPointsStoredSinceItsLastAnswer() throws {
        let database = try database()
        let engine = try engine(database)
        defer { engine.close() }
        let other = try self.engine(database)
        defer { other.close() }
        try engine.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"buy","amount":"1","price":"90","timestamp":"\#(at(dayStart(5) + 12 * hour))"}"#)
        for (days, price) in [(4, "100"), (3, "200"), (2, "300")] as [(Int64, String)] {
            try other.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"\#(at(dayStart(days)))","price":"\#(price)"}"#)
        }
        let options = try PerformanceOptions(json: #"{"range":{"from":"\#(at(dayStart(4)))","to":"\#(at(dayStart(2)))"}}"#)
        func values() throws -> [PreciseDecimal?] { try engine.performance(options).points.map(\.value) }
        XCTAssertEqual(try values(), [p("100"), p("200"), p("300")])
        XCTAssertEqual(try values(), [p("100"), p("200"), p("300")], "asked again: the same answer")
        try other.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"\#(at(dayStart(3)))","price":"250"}"#)
        XCTAssertEqual(try values(), [p("100"), p("250"), p("300")], "another engine's point")
        try engine.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"\#(at(dayStart(2)))","price":"350"}"#)
        XCTAssertEqual(try values(), [p("100"), p("250"), p("350")], "this engine's own point")
    }

    /// What the store keeps: a series only under the stamp it was read at; a new stamp, or a
    /// series that would pass `pointLimit`, drops everything kept before; a series over the limit
    /// alone is not kept.
    func testKeptPriceSeriesFollowsTheStampAndTheLimit() {
        let key = KeptPriceSeries.Key(coinID: "bitcoin", vsCurrency: "usd", from: 0, to: day - 1)
        let other = KeptPriceSeries.Key(coinID: "ethereum", vsCurrency: "usd", from: 0, to: day - 1)
        let (first, second) = (DatabaseChangeStamp(othersCommits: 1, ownChanges: 5), DatabaseChangeStamp(othersCommits: 2, ownChanges: 5))
        let series = PriceSeries(points: [PricePoint(time: 0, price: 1)])
        var kept = KeptPriceSeries()
        kept.keep(series, as: key, at: first)
        XCTAssertEqual(kept.series(key, at: first)?.points.count, 1)
        XCTAssertNil(kept.series(key, at: second), "another connection committed")
        XCTAssertNil(kept.series(key, at: DatabaseChangeStamp(othersCommits: 1, ownChanges: 6)), "this connection changed a row")
        kept.keep(series, as: other, at: second)
        XCTAssertNil(kept.series(key, at: second), "kept under the old stamp: dropped")
        XCTAssertEqual(kept.series(other, at: second)?.points.count, 1)
        let big = PriceSeries(points: (0..<Int64(KeptPriceSeries.pointLimit)).map { PricePoint(time: $0, price: 1) })
        kept.keep(big, as: key, at: second)
        XCTAssertNil(kept.series(other, at: second), "past the limit: everything before dropped")
        XCTAssertEqual(kept.series(key, at: second)?.points.count, KeptPriceSeries.pointLimit)
        kept.keep(PriceSeries(points: [PricePoint(time: 0, price: 1), PricePoint(time: 1, price: 1)]), as: other, at: second)
        XCTAssertNil(kept.series(key, at: second))
        kept.keep(PriceSeries(points: big.points + [PricePoint(time: -1, price: 1)]), as: key, at: second)
        XCTAssertNil(kept.series(key, at: second), "over the limit alone: not kept")
    }

    /// The rule is one: `PriceSeries` (what `performance` and `fill_prices` read a coin's points
    /// into) gives every time of four days the price and point `price_at`'s store lookup gives
    /// — hourly CoinGecko points at hh:02, the owner's manual points on one day, days with none.
    func testPriceSeriesAnswersAsTheStoreLookup() throws {
        let engine = try engine()
        defer { engine.close() }
        let first = dayStart(10)
        for offset in [0, 2] as [Int64] {
            let when = at(first + offset * day + 12 * hour)
            try engine.addTransaction(
                json: #"{"coin_id":"bitcoin","kind":"income","income_type":"staking","amount":"1","timestamp":"\#(when)"}"#)
        }
        XCTAssertEqual(try engine.fillPrices().filled, 2)
        for (time, price) in [(first + day + 6 * hour, "41000.5"), (first + day + 18 * hour, "42000")] {
            try engine.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"\#(at(time))","price":"\#(price)"}"#)
        }
        let (from, to) = (first - day, first + 4 * day)
        let series = try engine.priceSeries(coinID: "bitcoin", vsCurrency: "usd", from: from, to: to)
        let times = Array(stride(from: from, to: to, by: Int(17 * minute)))
        var priced = 0
        for time in times {
            let expected = try engine.storedPrice(coinID: "bitcoin", vsCurrency: "usd", time: time)
            let found = series.price(at: time)
            XCTAssertEqual(found?.price, expected?.exactPrice, "at \(at(time))")
            XCTAssertEqual(found?.at, expected?.at, "at \(at(time))")
            XCTAssertEqual(found?.source == .manual, expected?.source == .manual, "at \(at(time))")
            if found != nil { priced += 1 }
        }
        XCTAssertEqual(priced, times.filter { $0 >= first && $0 < first + 3 * day }.count, "the three filled days, none before or after")
        XCTAssertEqual(series.price(at: first + day)?.price, ExactDecimal("41000.5"), "the day's manual point at its 00:00")
        XCTAssertEqual(series.price(at: first)?.price, 40_000, "CoinGecko's 00:02 point at 00:00")
    }

    /// A token CoinGecko does not list, bought 3 days ago at 0.25, its current price set by hand at
    /// 0.5: a range ending now ends at 100 × 0.5 = 50, as `pnl` values it; the days before have no
    /// point and are listed.
    func testARangeEndingNowEndsAtTheManualCurrentPrice() throws {
        let engine = try engine()
        defer { engine.close() }
        let now = PortfolioEngine.nowMilliseconds()
        let bought = at(now - 3 * day)
        try engine.addTransaction(json: #"{"coin_id":"my-token","kind":"buy","amount":100,"price":"0.25","timestamp":"\#(bought)"}"#)
        try engine.setPrice(json: #"{"coin_id":"my-token","price":"0.5"}"#)
        let report = try engine.performance(PerformanceOptions(range: .last(days: 7)))
        XCTAssertEqual(report.endValue, p("50"))
        XCTAssertEqual(report.points.last?.value, p("50"))
        XCTAssertLessThan(report.coverage, 1)
        XCTAssertTrue(report.missing.allSatisfy { $0.coinIDs == ["my-token"] })
        XCTAssertEqual(try engine.pnl().coins.first?.currentValue, p("50"))
        try engine.setPrice(json: #"{"coin_id":"my-token","price":null}"#)
        XCTAssertNil(try engine.performance(PerformanceOptions(range: .last(days: 7))).endValue)
    }
}
