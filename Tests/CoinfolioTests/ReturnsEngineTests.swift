import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §19 through the engine, on SQLite and (make test-postgres) PostgreSQL: realized rows and
/// performance from stored transactions, every example with its numbers, and bad options refused.
final class ReturnsEngineTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    private func e(_ text: String) -> ExactDecimal { ExactDecimal(text)! }
    private func t(_ text: String) -> Int64 { LedgerTimestamp.parse(text)! }

    private func engine() throws -> PortfolioEngine { try TestDatabase.fresh(self).offlineEngine() }

    private func add(_ engine: PortfolioEngine, _ json: String) throws { try engine.addTransaction(json: json) }

    // MARK: - realized

    /// SPEC §19's UK example: gain 320.00; the pool keeps 400 costing 1,660.
    func testTheUKExample() throws {
        let engine = try self.engine()
        try add(engine, #"{"coin_id":"token","kind":"buy","amount":1000,"price":4,"fee":150,"timestamp":"2024-01-01"}"#)
        try add(engine, #"{"coin_id":"token","kind":"sell","amount":700,"price":"4.80","fee":100,"timestamp":"2024-03-01"}"#)
        try add(engine, #"{"coin_id":"token","kind":"buy","amount":100,"price":"4.50","timestamp":"2024-03-10"}"#)
        let report = try engine.realized(RealizedOptions(method: .uk))
        XCTAssertEqual(report.rows.map(\.amount), [p("100"), p("600")])
        XCTAssertEqual(report.rows.map(\.cost), [p("450"), p("2490")])
        XCTAssertEqual(report.rows.map { $0.proceeds?.roundedToLedger }, [e("465.714285714285714286"), e("2794.285714285714285714")])
        XCTAssertEqual(report.rows.map { $0.gain?.roundedToLedger }, [e("15.714285714285714286"), e("304.285714285714285714")])
        XCTAssertEqual(report.totals.gain, p("320"))
        XCTAssertEqual(report.totals.proceeds, p("3260"))
        let pnl = try engine.pnl(PnLOptions(method: .uk))
        XCTAssertEqual(pnl.coins[0].realizedPnL, p("320"))
        XCTAssertEqual(pnl.coins[0].amount, p("400"))
        XCTAssertEqual(pnl.coins[0].costBasis, p("1660"))
        // fifo on the same ledger: 700 of the first lot (cost 2,905), gain 355.
        XCTAssertEqual(try engine.realized().totals.gain, p("355"))
    }

    /// A lot bought 2020-02-29 and sold in three pieces on 2021-02-28, 2021-03-01 and 2021-03-02
    /// with tax_free_after_years 1: taxable, tax-free, tax-free; terms short, long, long.
    func testTheLeapDayLot() throws {
        let engine = try self.engine()
        try add(engine, #"{"coin_id":"bitcoin","kind":"buy","amount":3,"price":100,"timestamp":"2020-02-29T12:00:00Z"}"#)
        for date in ["2021-02-28", "2021-03-01", "2021-03-02"] {
            try add(engine, #"{"coin_id":"bitcoin","kind":"sell","amount":1,"price":150,"timestamp":"\#(date)T12:00:00Z"}"#)
        }
        let report = try engine.realized(RealizedOptions(taxFreeAfterYears: 1))
        XCTAssertEqual(report.rows.map(\.taxFree), [false, true, true])
        XCTAssertEqual(report.rows.map(\.term), [.short, .long, .long])
        XCTAssertEqual(report.rows.map(\.holdingDays), [365, 366, 367])
        XCTAssertEqual(report.totals.taxableGain, p("50"))
        XCTAssertEqual(report.totals.gain, p("150"))
        XCTAssertEqual(report.totals.longTermGain, p("100"))
        XCTAssertEqual(report.totals.shortTermGain, p("50"))
    }

    /// A moved lot keeps its first acquisition time (§16's move: cold's row acquired at t1).
    func testAMovedLotKeepsItsFirstAcquisitionTime() throws {
        let engine = try self.engine()
        try engine.createPortfolio(name: "cold")
        try add(engine, #"{"coin_id":"bitcoin","kind":"buy","amount":2,"price":100,"timestamp":"2023-03-10"}"#)
        try add(engine, #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":300,"timestamp":"2023-06-01"}"#)
        try engine.move(
            json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":1.5,"received_amount":1.4,"timestamp":"2024-01-04"}"#)
        try add(engine, #"{"portfolio":"cold","coin_id":"bitcoin","kind":"sell","amount":1.4,"price":400,"timestamp":"2024-03-11"}"#)
        let report = try engine.realized(RealizedOptions(portfolio: "cold"))
        XCTAssertEqual(report.rows.count, 1)
        XCTAssertEqual(report.rows[0].acquiredAt, t("2023-03-10"))
        XCTAssertEqual(report.rows[0].cost, p("150"))
        XCTAssertEqual(report.rows[0].gain, p("410"))
        XCTAssertEqual(report.rows[0].term, .long)
        XCTAssertEqual(try engine.realized(RealizedOptions(portfolio: nil)).rows.map(\.portfolio), ["cold"])
        XCTAssertTrue(try engine.realized(RealizedOptions(portfolio: "main")).rows.isEmpty, "a move is no disposal")
    }

    /// A sell with a fee split over two lots by units; units of unknown cost give null cost and
    /// gain; the year option; CSV; income with its type.
    func testRowsIncomeAndCSV() throws {
        let engine = try self.engine()
        try add(engine, #"{"coin_id":"bitcoin","kind":"transfer_in","amount":0.5,"timestamp":"2023-01-01"}"#)
        try add(engine, #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":100,"timestamp":"2024-01-01"}"#)
        try add(engine, #"{"coin_id":"bitcoin","kind":"buy","amount":3,"price":200,"timestamp":"2024-01-02"}"#)
        try add(engine, #"{"coin_id":"bitcoin","kind":"sell","amount":0.5,"price":300,"timestamp":"2024-01-05"}"#)
        try add(engine, #"{"coin_id":"bitcoin","kind":"sell","amount":4,"price":300,"fee":12,"timestamp":"2024-02-01"}"#)
        try add(
            engine, #"{"coin_id":"ethereum","kind":"income","income_type":"staking","amount":0.5,"price":2000,"timestamp":"2024-03-01"}"#)
        try add(engine, #"{"coin_id":"ethereum","kind":"income","income_type":"airdrop","amount":1,"timestamp":"2024-03-02"}"#)
        let report = try engine.realized(RealizedOptions(from: t("2024-01-01"), to: t("2025-01-01")))
        XCTAssertEqual(report.rows.map(\.amount), [p("0.5"), p("1"), p("3")])
        XCTAssertEqual(report.rows.map(\.cost), [nil, p("100"), p("600")])
        XCTAssertEqual(report.rows.map(\.gain), [nil, p("197"), p("291")])
        XCTAssertEqual(report.rows.map(\.proceeds), [p("150"), p("297"), p("891")])
        XCTAssertEqual(report.income.map(\.incomeType), [.staking, .airdrop])
        XCTAssertEqual(report.income.map(\.value), [p("1000"), nil])
        XCTAssertEqual(report.incomeTotal, p("1000"))
        XCTAssertEqual(report.totals.coverage, 2.0 / 3)
        let csv = String(decoding: report.csv, as: UTF8.self)
        XCTAssertEqual(
            csv,
            "description,acquired,disposed,proceeds,cost,gain,term\r\n0.5 bitcoin,2023-01-01,2024-01-05,150,,,long\r\n"
                + "1 bitcoin,2024-01-01,2024-02-01,297,100,197,short\r\n3 bitcoin,2024-01-02,2024-02-01,891,600,291,short\r\n")
        XCTAssertTrue(try engine.realized(RealizedOptions(from: t("2025-01-01"))).rows.isEmpty)
    }

    /// Bad options and portfolios: clear statuses; nothing changes (the reports only read).
    func testRefusals() throws {
        let engine = try self.engine()
        try engine.createPortfolio(name: "euro", vsCurrency: "eur")
        try add(engine, #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":100,"timestamp":"2024-01-01"}"#)
        let before = try engine.transactions().json
        assertThrows(.notFound) { try engine.realized(RealizedOptions(portfolio: "nowhere")) }
        assertThrows(.notFound) { try engine.performance(PerformanceOptions(portfolio: "nowhere")) }
        for call in [
            { _ = try engine.realized(RealizedOptions(portfolio: nil)) },
            { _ = try engine.performance(PerformanceOptions(portfolio: nil)) },
        ] {
            XCTAssertThrowsError(try call()) { error in
                XCTAssertEqual((error as? CoinfolioError)?.code, .invalidArgument)
                XCTAssertEqual((error as? CoinfolioError)?.reason, .currency)
            }
        }
        XCTAssertEqual(try engine.transactions().json, before)
        // One currency: every portfolio together works.
        try engine.deletePortfolio("euro")
        XCTAssertEqual(try engine.realized(RealizedOptions(portfolio: nil)).vsCurrency, "usd")
    }

    // MARK: - performance

    /// Without stored price points a past value is unknown: listed, never
    /// guessed; the last value of a range ending now comes from the snapshot.
    func testPerformanceListsMissingPricesAndEndsWithTheSnapshot() throws {
        let engine = try self.engine()
        let now = LedgerTimestamp.now()
        let threeDaysAgo = LedgerTimestamp.format(now - 3 * 86_400_000)
        try add(engine, #"{"coin_id":"bitcoin","kind":"buy","amount":2,"price":100,"fee":1,"timestamp":"\#(threeDaysAgo)"}"#)
        try engine.load(marketsBody: Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":150}]"#.utf8), globalBody: nil)
        let report = try engine.performance(PerformanceOptions(range: .last(days: 7), benchmark: "bitcoin"))
        XCTAssertEqual(report.startValue, .zero)
        XCTAssertEqual(report.endValue, p("300"))
        XCTAssertEqual(report.netFlows, p("201"))
        XCTAssertEqual(report.gain, p("99"))
        XCTAssertEqual(report.points.first?.value, .zero)
        XCTAssertEqual(report.points.last?.value, p("300"))
        XCTAssertLessThan(report.coverage, 1)
        XCTAssertFalse(report.missing.isEmpty)
        XCTAssertTrue(report.missing.allSatisfy { $0.coinIDs == ["bitcoin"] })
        // The values in between are unknown: twr joins those days into one period, 300 ÷ 201.
        XCTAssertEqual(report.twr ?? .nan, (300.0 / 201 - 1) * 100, accuracy: 1e-9)
        XCTAssertEqual(report.benchmark?.coinID, "bitcoin")
        XCTAssertNil(report.benchmark?.change, "no stored price at the start")
    }
}
