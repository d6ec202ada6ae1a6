import XCTest

@testable import Coinfolio

/// Issue 27: `HoldingPeriod.isPast` answers without the calendar when the days held fall outside
/// 365·years − 1 … 366·years; it must answer what the anniversary answers, for every pair.
final class HoldingPeriodTests: XCTestCase {
    func testIsPastAnswersWhatTheAnniversaryAnswers() {
        func check(_ years: Int, _ acquired: Int, _ disposed: Int, line: UInt = #line) {
            XCTAssertEqual(
                HoldingPeriod.isPast(years: years, acquiredDay: acquired, disposedDay: disposed),
                disposed > HoldingPeriod.anniversary(of: acquired, years: years), "\(years) \(acquired) \(disposed)", line: line)
        }
        // Every acquisition day of 1996–2004 (leap days, 2000), every disposal near each anniversary.
        let start = CivilDate.days(year: 1996, month: 1, day: 1)
        let end = CivilDate.days(year: 2005, month: 1, day: 1)
        for years in 0...9 {
            for acquired in start..<end {
                for offset in -3...3 { check(years, acquired, acquired + 365 * years + offset) }
                for offset in -3...3 { check(years, acquired, acquired + 366 * years + offset) }
                check(years, acquired, acquired)
            }
        }
        var state: UInt64 = 44
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let acquired = Int(state >> 40) % 200_000 - 100_000
            let years = Int(state >> 20 & 15)
            let disposed = acquired + Int(state & 0x1FFF) - 800
            check(years, acquired, disposed)
        }
    }
}
