import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §21's async counterparts of SPEC §19's `performance` and `realized`, on SQLite and (make
/// test-postgres) PostgreSQL: the same answers as the blocking calls, with the values worked by
/// hand; a call from a cancelled task reads nothing, and a report whose work is cancelled while it
/// runs stops before its next coin or portfolio with `CancellationError`.
final class AsyncReturnsEngineTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }

    private func engine() throws -> PortfolioEngine { try TestDatabase.fresh(self).offlineEngine() }

    /// 2 bitcoin bought at 100 on 2024-01-01 12:00, manual points at 00:00 of 2024-01-01, 02 and
    /// 03: 100, 120, 150. Values 0, 240, 300; flows 200; gain 100; roi 100 ÷ 200 = 50 %; twr
    /// 240 ÷ 200 × 300 ÷ 240 − 1 = 50 %; every value known (coverage 1).
    private let performanceOptions = #"{"range":{"from":"2024-01-01T00:00:00Z","to":"2024-01-03T00:00:00Z"}}"#

    private func pricedLedger(_ engine: PortfolioEngine) throws {
        try engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":2,"price":100,"timestamp":"2024-01-01T12:00:00Z"}"#)
        for (day, price) in [("01", "100"), ("02", "120"), ("03", "150")] {
            try engine.setPrice(json: #"{"coin_id":"bitcoin","timestamp":"2024-01-\#(day)T00:00:00Z","price":"\#(price)"}"#)
        }
    }

    func testAsyncPerformanceAnswersAsTheBlockingOne() async throws {
        let engine = try engine()
        defer { engine.close() }
        try pricedLedger(engine)
        let options = try PerformanceOptions(json: performanceOptions)
        let report = try await engine.performance(options)
        XCTAssertEqual(report.points.map(\.value), [.zero, p("240"), p("300")])
        XCTAssertEqual(report.startValue, .zero)
        XCTAssertEqual(report.endValue, p("300"))
        XCTAssertEqual(report.netFlows, p("200"))
        XCTAssertEqual(report.gain, p("100"))
        XCTAssertEqual(report.roi ?? .nan, 50, accuracy: 1e-9)
        XCTAssertEqual(report.twr ?? .nan, 50, accuracy: 1e-9)
        XCTAssertEqual(report.coverage, 1)
        XCTAssertEqual(report.json, try blocking { try engine.performance(options) }.json)
    }

    /// SPEC §19's UK example awaited: gain 320 (uk), 355 (fifo), as the blocking call answers.
    func testAsyncRealizedAnswersAsTheBlockingOne() async throws {
        let engine = try engine()
        defer { engine.close() }
        try await engine.addTransaction(
            json: #"{"coin_id":"token","kind":"buy","amount":1000,"price":4,"fee":150,"timestamp":"2024-01-01"}"#)
        try await engine.addTransaction(
            json: #"{"coin_id":"token","kind":"sell","amount":700,"price":"4.80","fee":100,"timestamp":"2024-03-01"}"#)
        try await engine.addTransaction(json: #"{"coin_id":"token","kind":"buy","amount":100,"price":"4.50","timestamp":"2024-03-10"}"#)
        let uk = try await engine.realized(RealizedOptions(method: .uk))
        XCTAssertEqual(uk.rows.map(\.amount), [p("100"), p("600")])
        XCTAssertEqual(uk.totals.gain, p("320"))
        XCTAssertEqual(uk.totals.proceeds, p("3260"))
        XCTAssertEqual(uk.json, try blocking { try engine.realized(RealizedOptions(method: .uk)) }.json)
        let fifo = try await engine.realized()
        XCTAssertEqual(fifo.totals.gain, p("355"))
        XCTAssertEqual(fifo.json, try blocking { try engine.realized() }.json)
    }

    /// From a task cancelled before the call: `CancellationError`, nothing read.
    func testReportsFromACancelledTaskThrowCancellation() async throws {
        let engine = try engine()
        defer { engine.close() }
        try pricedLedger(engine)
        let options = try PerformanceOptions(json: performanceOptions)
        let performance = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await engine.performance(options)
        }
        await XCTAssertThrowsCancellation { _ = try await performance.value }
        let realized = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await engine.realized()
        }
        await XCTAssertThrowsCancellation { _ = try await realized.value }
    }

    /// Work cancelled while it runs (the worker thread's `WorkCancellation` already cancelled, as
    /// the awaiting task's cancellation leaves it): `performance` stops before its first coin's
    /// points, `realized` over every portfolio before its first ledger; the blocking calls, which
    /// have none, answer.
    func testReportsStopWhenTheirWorkIsCancelled() throws {
        let engine = try engine()
        defer { engine.close() }
        try pricedLedger(engine)
        try engine.createPortfolio(name: "cold")
        let options = try PerformanceOptions(json: performanceOptions)
        let cancelled = WorkCancellation()
        cancelled.cancel()
        XCTAssertThrowsError(try WorkCancellation.$current.withValue(cancelled) { try engine.performance(options) }) {
            XCTAssertTrue($0 is CancellationError, "\($0)")
        }
        XCTAssertThrowsError(
            try WorkCancellation.$current.withValue(cancelled) { try engine.realized(RealizedOptions(portfolio: nil)) }
        ) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        XCTAssertEqual(try engine.performance(options).endValue, p("300"))
        XCTAssertEqual(try engine.realized(RealizedOptions(portfolio: nil)).rows.count, 0)
    }
}
