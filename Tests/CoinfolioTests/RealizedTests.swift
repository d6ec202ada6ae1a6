import XCTest

@testable import Coinfolio

/// `realized` (SPEC §19) on the pure calculator: one row per (disposal, lot), holding periods by
/// the anniversary rule, proceeds split by units, unknown costs, income, periods, CSV. The same
/// cases run through the engine (RealizedEngineTests), C (test_returns.c) and Python
/// (test_returns.py).
///
/// Holding periods are worked by hand from IRS Publication 544 / Form 8949's instructions (count
/// from the day after the acquisition through the day of the disposal; "more than one year" is
/// long term, and a lot bought on a month's last day is held a month on each later month's last
/// day) and from §23 EStG with §188 BGB for the German one-year rule.
final class RealizedTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    private func t(_ text: String) -> Int64 { LedgerTimestamp.parse(text)! }

    private func entry(
        _ id: Int64, _ kind: TransactionKind, _ amount: String, _ when: String, price: String? = nil, fee: String? = "0", group: Int32 = 0
    ) -> LedgerEntry {
        LedgerEntry(
            id: id, timestamp: t(when), kind: kind, amount: ExactDecimal(amount)!, price: price.map(p), fee: fee.map(p), group: group)
    }

    private func realized(_ entries: [LedgerEntry], _ options: RealizedOptions = RealizedOptions()) -> RealizedReport {
        RealizedReport.compute(portfolios: [("main", [("bitcoin", entries)])], reported: [0], vsCurrency: "usd", options: options)
    }

    // MARK: - The anniversary rule

    /// Bought 2020-02-29 (a leap day), one year reaches 2021-02-28: sold 2021-02-28 taxable,
    /// 2021-03-01 and 2021-03-02 tax-free with tax_free_after_years 1 (§23 EStG, §188(2),(3) BGB);
    /// held 365, 366 and 367 days; short, long, long.
    func testALeapDayLotWithTaxFreeAfterOneYear() {
        let expected: [(String, Bool, Int, Term)] = [
            ("2021-02-28", false, 365, .short), ("2021-03-01", true, 366, .long), ("2021-03-02", true, 367, .long),
        ]
        for (sold, taxFree, days, term) in expected {
            let report = realized(
                [entry(1, .buy, "1", "2020-02-29T15:00:00Z", price: "100"), entry(2, .sell, "1", sold + "T09:00:00Z", price: "150")],
                RealizedOptions(taxFreeAfterYears: 1))
            XCTAssertEqual(report.rows.count, 1, sold)
            XCTAssertEqual(report.rows[0].taxFree, taxFree, sold)
            XCTAssertEqual(report.rows[0].holdingDays, days, sold)
            XCTAssertEqual(report.rows[0].term, term, sold)
            XCTAssertEqual(report.totals.taxableGain, taxFree ? .zero : p("50"), sold)
            XCTAssertEqual(report.totals.gain, p("50"), sold)
        }
    }

    /// Without tax_free_after_years every row's tax_free is null and all of the gain is taxable.
    func testTaxFreeIsNullWithoutTheOption() {
        let report = realized([entry(1, .buy, "1", "2020-01-01", price: "100"), entry(2, .sell, "1", "2024-01-01", price: "150")])
        XCTAssertNil(report.rows[0].taxFree)
        XCTAssertEqual(report.totals.taxableGain, p("50"))
        XCTAssertTrue(report.json.contains(#""tax_free":null"#))
    }

    /// Short on the anniversary, long the day after: bought 2023-03-10 (29 February 2024 in
    /// between: 366 days to the anniversary) and bought 2021-03-10 (no leap day: 365); the SPEC's
    /// 2020-02-29 case; J.K. Lasser's example (bought 2012-09-19: long from 2013-09-20).
    func testTermIsShortOnTheAnniversaryAndLongTheDayAfter() {
        let cases: [(bought: String, sold: String, term: Term, days: Int)] = [
            ("2023-03-10", "2024-03-10", .short, 366), ("2023-03-10", "2024-03-11", .long, 367),
            ("2021-03-10", "2022-03-10", .short, 365), ("2021-03-10", "2022-03-11", .long, 366),
            ("2020-02-29", "2021-02-28", .short, 365), ("2020-02-29", "2021-03-01", .long, 366),
            ("2012-09-19", "2013-09-19", .short, 365), ("2012-09-19", "2013-09-20", .long, 366),
        ]
        for (bought, sold, term, days) in cases {
            let row = realized([
                entry(1, .buy, "1", bought + "T23:59:59Z", price: "1"), entry(2, .sell, "1", sold + "T00:00:00Z", price: "2"),
            ]).rows[0]
            XCTAssertEqual(row.term, term, "\(bought) → \(sold)")
            XCTAssertEqual(row.holdingDays, days, "\(bought) → \(sold)")
        }
        // long_term_after_years 2: two anniversaries later.
        let two = RealizedOptions(longTermAfterYears: 2)
        XCTAssertEqual(
            realized([entry(1, .buy, "1", "2020-02-29", price: "1"), entry(2, .sell, "1", "2022-02-28", price: "2")], two).rows[0].term,
            .short)
        XCTAssertEqual(
            realized([entry(1, .buy, "1", "2020-02-29", price: "1"), entry(2, .sell, "1", "2022-03-01", price: "2")], two).rows[0].term,
            .long)
        XCTAssertEqual(HoldingPeriod.anniversary(of: HoldingPeriod.day(t("2020-02-29")), years: 4), HoldingPeriod.day(t("2024-02-29")))
    }

    // MARK: - Rows

    /// Buy 1 @ 100, buy 3 @ 200, sell 4 @ 300 fee 12 (fifo): proceeds 1,188 net, split by units:
    /// the first lot's row 1 unit, proceeds 297, cost 100, gain 197; the second's 3 units, 891,
    /// 600, 291.
    func testASellsFeeIsSplitOverItsLotsByUnits() {
        let report = realized([
            entry(1, .buy, "1", "2024-01-01", price: "100"), entry(2, .buy, "3", "2024-01-02", price: "200"),
            entry(3, .sell, "4", "2024-02-01", price: "300", fee: "12"),
        ])
        XCTAssertEqual(report.rows.map(\.amount), [p("1"), p("3")])
        XCTAssertEqual(report.rows.map(\.proceeds), [p("297"), p("891")])
        XCTAssertEqual(report.rows.map(\.cost), [p("100"), p("600")])
        XCTAssertEqual(report.rows.map(\.gain), [p("197"), p("291")])
        XCTAssertEqual(report.rows.map(\.acquiredAt), [t("2024-01-01"), t("2024-01-02")])
        XCTAssertEqual(report.rows.map(\.disposalID), [3, 3])
        XCTAssertEqual(report.totals.proceeds, p("1188"))
        XCTAssertEqual(report.totals.cost, p("700"))
        XCTAssertEqual(report.totals.gain, p("488"))
        XCTAssertEqual(report.totals.shortTermGain, p("488"))
        XCTAssertEqual(report.totals.longTermGain, .zero)
    }

    /// Units transferred in have no known cost: their row's cost and gain are null, never 0, and
    /// the totals leave them out (coverage says how many rows are known).
    func testUnknownCostUnitsGiveNullCostAndGain() {
        let report = realized([
            entry(1, .transferIn, "1", "2024-01-01"), entry(2, .buy, "1", "2024-01-02", price: "100"),
            entry(3, .sell, "2", "2024-02-01", price: "300"),
        ])
        XCTAssertEqual(report.rows.map(\.cost), [nil, p("100")])
        XCTAssertEqual(report.rows.map(\.gain), [nil, p("200")])
        XCTAssertEqual(report.rows.map(\.proceeds), [p("300"), p("300")])
        XCTAssertEqual(report.totals.gain, p("200"))
        XCTAssertEqual(report.totals.cost, p("100"))
        XCTAssertEqual(report.totals.coverage, 0.5)
        XCTAssertTrue(report.json.contains(#""cost":null,"gain":null"#), report.json)
        // A pending sale price: proceeds and gain unknown, cost known.
        let pending = realized([entry(1, .buy, "1", "2024-01-01", price: "100"), entry(2, .sell, "1", "2024-02-01", price: nil)])
        XCTAssertEqual(pending.rows.map(\.proceeds), [nil])
        XCTAssertEqual(pending.rows.map(\.cost), [p("100")])
        XCTAssertEqual(pending.rows.map(\.gain), [nil])
    }

    /// SPEC §16's move (fifo): main buys 2 @ 100 (t1) and 1 @ 300 (t2), moves 1.5 to cold
    /// (1.4 received, t3), cold sells 1.4 @ 400 (t4): cold's row is 1.4 units acquired at t1,
    /// costing 150, gain 410 — the moved lot keeps its first acquisition time, and so its term.
    func testAMovedLotKeepsItsFirstAcquisitionTime() {
        let main = [
            entry(1, .buy, "2", "2023-03-01", price: "100"), entry(2, .buy, "1", "2023-06-01", price: "300"),
            entry(3, .transferOut, "1.5", "2024-01-10", group: 7),
        ]
        let cold = [entry(4, .transferIn, "1.4", "2024-01-10", group: 7), entry(5, .sell, "1.4", "2024-03-02", price: "400")]
        let report = RealizedReport.compute(
            portfolios: [("main", [("bitcoin", main)]), ("cold", [("bitcoin", cold)])], reported: [1], vsCurrency: "usd",
            options: RealizedOptions(portfolio: "cold"))
        XCTAssertEqual(report.rows.count, 1)
        XCTAssertEqual(report.rows[0].acquiredAt, t("2023-03-01"))
        XCTAssertEqual(report.rows[0].cost, p("150"))
        XCTAssertEqual(report.rows[0].gain, p("410"))
        XCTAssertEqual(report.rows[0].term, .long)
        XCTAssertEqual(report.rows[0].holdingDays, 367)
        XCTAssertEqual(report.rows[0].portfolio, "cold")
        // Both portfolios: main realized nothing (a move is no disposal).
        let both = RealizedReport.compute(
            portfolios: [("main", [("bitcoin", main)]), ("cold", [("bitcoin", cold)])], reported: [0, 1], vsCurrency: "usd",
            options: RealizedOptions(portfolio: nil))
        XCTAssertEqual(both.rows.map(\.portfolio), ["cold"])
    }

    /// A fee paid in the coin is a disposal of its own: its row's proceeds are the fee's value.
    func testAFeeRowIsADisposal() {
        let report = realized([entry(1, .buy, "1", "2024-01-01", price: "300"), entry(2, .fee, "0.01", "2024-01-02", price: "310")])
        XCTAssertEqual(report.rows.map(\.proceeds), [p("3.1")])
        XCTAssertEqual(report.rows.map(\.cost), [p("3")])
        XCTAssertEqual(report.rows.map(\.gain), [p("0.1")])
    }

    // MARK: - Periods, income, CSV

    /// year 2024 keeps the disposals and income of [2024-01-01, 2025-01-01); a lot bought before
    /// still has its cost; income lists its type and value (null while pending).
    func testAYearAndItsIncome() throws {
        let entries = [
            entry(1, .buy, "2", "2023-06-01", price: "100"), entry(2, .sell, "1", "2023-12-31T23:59:59.999Z", price: "150"),
            entry(3, .income, "0.5", "2024-02-01", price: "120"), entry(4, .income, "0.25", "2024-03-01", price: nil),
            entry(5, .sell, "1", "2024-06-01", price: "200"), entry(6, .income, "1", "2025-01-01", price: "1"),
        ]
        let types: [Int64: IncomeType] = [3: .staking, 4: .airdrop, 6: .mining]
        let (from, to) = try RealizedOptions.year(2024)
        let report = RealizedReport.compute(
            portfolios: [("main", [("bitcoin", entries)])], reported: [0], vsCurrency: "usd", options: RealizedOptions(from: from, to: to),
            incomeType: { types[$0] })
        XCTAssertEqual(report.rows.map(\.disposalID), [5])
        XCTAssertEqual(report.rows.map(\.cost), [p("100")])
        XCTAssertEqual(report.income.map(\.transactionID), [3, 4])
        XCTAssertEqual(report.income.map(\.incomeType), [.staking, .airdrop])
        XCTAssertEqual(report.income.map(\.value), [p("60"), nil])
        XCTAssertEqual(report.incomeTotal, p("60"))
        XCTAssertTrue(
            report.json.contains(#""income_type":"staking","amount":0.5,"value":60,"timestamp":"2024-02-01T00:00:00Z""#), report.json)
    }

    /// CSV in Form 8949-like columns: description, acquired, disposed, proceeds, cost, gain,
    /// term; UTC dates; an unknown value is an empty cell.
    func testCSV() {
        let report = realized([
            entry(1, .transferIn, "0.5", "2022-01-01"), entry(2, .buy, "1", "2023-03-10T12:00:00Z", price: "100"),
            entry(3, .sell, "1.5", "2024-03-11T01:00:00Z", price: "300", fee: "3"),
        ])
        XCTAssertEqual(
            String(decoding: report.csv, as: UTF8.self),
            "description,acquired,disposed,proceeds,cost,gain,term\r\n0.5 bitcoin,2022-01-01,2024-03-11,149,,,long\r\n"
                + "1 bitcoin,2023-03-10,2024-03-11,298,100,198,long\r\n")
    }

    // MARK: - Options

    func testOptionsFromJSON() throws {
        let options = try RealizedOptions(
            json: #"{"portfolio":null,"method":"uk","year":2024,"long_term_after_years":2,"tax_free_after_years":1,"format":"csv"}"#)
        XCTAssertNil(options.portfolio)
        XCTAssertEqual(options.method, .uk)
        XCTAssertEqual(options.from, t("2024-01-01"))
        XCTAssertEqual(options.to, t("2025-01-01"))
        XCTAssertEqual(options.longTermAfterYears, 2)
        XCTAssertEqual(options.taxFreeAfterYears, 1)
        XCTAssertEqual(options.format, .csv)
        XCTAssertEqual(try RealizedOptions(json: "{}"), RealizedOptions())
        XCTAssertEqual(try RealizedOptions(json: nil), RealizedOptions())
        XCTAssertEqual(try RealizedOptions(json: #"{"from":"2024-01-01","to":"2024-07-01"}"#).to, t("2024-07-01"))
        let bad: [(String, String)] = [
            (#"{"method":"fofi"}"#, "method"), (#"{"year":2024,"from":"2024-01-01"}"#, "year"), (#"{"year":1969}"#, "year"),
            (#"{"year":"2024"}"#, "year"), (#"{"year":2024.5}"#, "year"), (#"{"from":"yesterday"}"#, "from"),
            (#"{"from":"2024-02-01","to":"2024-01-01"}"#, "to"), (#"{"long_term_after_years":-1}"#, "long_term_after_years"),
            (#"{"tax_free_after_years":1001}"#, "tax_free_after_years"), (#"{"format":"xml"}"#, "format"),
            (#"{"portfolio":3}"#, "portfolio"),
        ]
        for (json, field) in bad {
            XCTAssertThrowsError(try RealizedOptions(json: json), json) { error in
                XCTAssertEqual((error as? CoinfolioError)?.code, .invalidArgument, json)
                XCTAssertEqual((error as? CoinfolioError)?.details["field"], .string(field), json)
            }
        }
        XCTAssertThrowsError(try RealizedOptions(json: "{"))
        // A fraction says so, without the bounds of a 64-bit integer (`year` has its own rule).
        XCTAssertThrowsError(try RealizedOptions(json: #"{"year":2024.5}"#)) { error in
            XCTAssertEqual((error as? CoinfolioError)?.message, "year must be a whole number, not 2024.5")
        }
    }
}
