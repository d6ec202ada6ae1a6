import XCTest

@testable import Coinfolio

/// UK share pooling (method `uk`, SPEC §19) on the pure calculator, worked by hand from HMRC's
/// Cryptoassets Manual (https://www.gov.uk/hmrc-internal-manuals/cryptoassets-manual, CRYPTO22250
/// onwards: the same-day rule of TCGA 1992 s105, the thirty-day "bed and breakfast" rule of
/// s106A, the Section 104 pool) and its Capital Gains Manual CG51560. HMRC rounds its published
/// allowable costs up to the pound (£937.50 is "£938"); Coinfolio keeps every digit, so where the
/// exact figure has pence the test states it and the published one beside it.
final class UKSharePoolingTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }

    /// A day's entries: `(kind, amount, total consideration, "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM")`.
    private func ledger(_ rows: [(TransactionKind, String, String?, String)], fees: [Int: String] = [:]) -> [LedgerEntry] {
        rows.enumerated().map { index, row in
            let (kind, amount, total, when) = row
            let units = PreciseDecimal(amount)!
            let price = total.map { PreciseDecimal($0)!.divided(by: units)! }
            let time = LedgerTimestamp.parse(when.count == 10 ? when : when + ":00Z")!
            var entry = LedgerEntry(id: Int64(index + 1), timestamp: time, kind: kind, amount: ExactDecimal(amount)!, fee: .zero)
            entry.price = price
            if let fee = fees[index] { entry.fee = p(fee) }
            return entry
        }
    }

    private func pnl(_ entries: [LedgerEntry]) -> CoinPnL {
        PnLReport.compute(portfolio: "main", vsCurrency: "gbp", method: .uk, ledger: [("token", entries)], price: { _ in nil }).coins[0]
    }

    private func realized(_ entries: [LedgerEntry]) -> RealizedReport {
        RealizedReport.compute(
            portfolios: [("main", [("token", entries)])], reported: [0], vsCurrency: "gbp", options: RealizedOptions(method: .uk))
    }

    /// Σ cost and Σ gain of one disposal's rows.
    private func figures(_ report: RealizedReport, disposal id: Int64) -> (cost: PreciseDecimal, gain: PreciseDecimal) {
        var cost = PreciseDecimal.zero
        var gain = PreciseDecimal.zero
        for row in report.rows where row.disposalID == id {
            cost += row.cost ?? .zero
            gain += row.gain ?? .zero
        }
        return (cost, gain)
    }

    /// Rounded to 18 fraction digits (the ledger's places): a sum of 38-digit shares is exact there.
    private func ledgerPlaces(_ value: PreciseDecimal?) -> String? { value?.roundedToLedger?.description }

    // MARK: - SPEC §19

    /// buy 1000 @ 4 fee 150 (2024-01-01) → pool 1000 costing 4,150; sell 700 @ 4.80 fee 100
    /// (2024-03-01); buy 100 @ 4.50 (2024-03-10). Proceeds 3,260 net: 100 units match the
    /// 2024-03-10 buy (cost 450, proceeds 465.71, gain 15.71); 600 come from the pool (cost
    /// 2,490, proceeds 2,794.29, gain 304.29); total gain 320.00; the pool keeps 400 costing 1,660.
    func testTheSpecExample() {
        let entries = ledger(
            [(.buy, "1000", "4000", "2024-01-01"), (.sell, "700", "3360", "2024-03-01"), (.buy, "100", "450", "2024-03-10")],
            fees: [0: "150", 1: "100"])
        let coin = pnl(entries)
        XCTAssertEqual(coin.realizedPnL, p("320"))
        XCTAssertEqual(coin.amount, p("400"))
        XCTAssertEqual(coin.costBasis, p("1660"))
        let report = realized(entries)
        XCTAssertEqual(report.rows.count, 2)
        let (matched, pooled) = (report.rows[0], report.rows[1])
        XCTAssertEqual(matched.amount, p("100"))
        XCTAssertEqual(matched.cost, p("450"))
        XCTAssertEqual(matched.proceeds, p("465.7142857142857142857142857142857143"))
        XCTAssertEqual(matched.gain, p("15.7142857142857142857142857142857143"))
        XCTAssertEqual(matched.acquiredAt, LedgerTimestamp.parse("2024-03-10"))
        XCTAssertEqual(matched.holdingDays, 0, "acquired after the disposal")
        XCTAssertEqual(pooled.amount, p("600"))
        XCTAssertEqual(pooled.cost, p("2490"))
        XCTAssertEqual(pooled.proceeds, p("2794.2857142857142857142857142857142857"))
        XCTAssertEqual(pooled.gain, p("304.2857142857142857142857142857142857"))
        XCTAssertEqual(pooled.acquiredAt, LedgerTimestamp.parse("2024-01-01"), "the pool's first acquisition")
        XCTAssertEqual(report.totals.proceeds, p("3260"))
        XCTAssertEqual(report.totals.cost, p("2940"))
        XCTAssertEqual(report.totals.gain, p("320"))
    }

    // MARK: - HMRC's examples

    /// CRYPTO22251 (Victoria): 100 token A for £1,000, then 50 for £125,000; sells 50 for
    /// £300,000 → allowable cost £126,000 × 50/150 = £42,000, gain £258,000; the pool keeps 100
    /// costing £84,000.
    func testCRYPTO22251SectionOnlyPool() {
        let entries = ledger([
            (.buy, "100", "1000", "2024-01-01"), (.buy, "50", "125000", "2024-09-18"), (.sell, "50", "300000", "2024-12-01"),
        ])
        XCTAssertEqual(figures(realized(entries), disposal: 3).cost, p("42000"))
        let coin = pnl(entries)
        XCTAssertEqual(coin.realizedPnL, p("258000"))
        XCTAssertEqual(coin.amount, p("100"))
        XCTAssertEqual(coin.costBasis, p("84000"))
        // fifo on the same ledger answers differently: 50 of the first lot at £10 each.
        XCTAssertEqual(
            PnLReport.compute(portfolio: "main", vsCurrency: "gbp", method: .fifo, ledger: [("token", entries)], price: { _ in nil })
                .coins[0].realizedPnL, p("299500"))
    }

    /// CRYPTO22252 (Martyn): 5,000 token B pooled at £500; on one day sells 1,000 for £800, buys
    /// 1,600 for £1,000, sells 500 for £600. The day's disposals are one disposal of 1,500 for
    /// £1,400 matched with the day's acquisition: cost £1,000 × 1,500/1,600 = £937.50 (HMRC: £938),
    /// gain £462.50 (HMRC: £462); the 100 units left join the pool: 5,100 costing £562.50 (£562).
    /// Both disposals take the day's unit cost, the morning one included (it came before the buy).
    func testCRYPTO22252SameDay() {
        let entries = ledger([
            (.buy, "5000", "500", "2024-01-01"), (.sell, "1000", "800", "2024-06-23T09:00"), (.buy, "1600", "1000", "2024-06-23T14:00"),
            (.sell, "500", "600", "2024-06-23T20:00"),
        ])
        let report = realized(entries)
        XCTAssertEqual(figures(report, disposal: 2).cost, p("625"))
        XCTAssertEqual(figures(report, disposal: 4).cost, p("312.5"))
        XCTAssertEqual(
            report.rows.map(\.acquiredAt), [LedgerTimestamp.parse("2024-06-23T14:00:00Z"), LedgerTimestamp.parse("2024-06-23T14:00:00Z")])
        XCTAssertEqual(report.totals.gain, p("462.5"))
        let coin = pnl(entries)
        XCTAssertEqual(coin.amount, p("5100"))
        XCTAssertEqual(coin.costBasis, p("562.5"))
    }

    /// CRYPTO22253 (Rachel): 2,000 token C pooled at £1,000; sells 1,000 on 31 March for £400 and
    /// 500 on 20 April for £150; buys 700 on 21 April for £175, 500 on 28 April for £100 and 500
    /// on 1 May for £150. The earlier disposal matches first: 31 March takes the 700 of 21 April
    /// (£175) and 300 of 28 April (£60), gain £165 — 1 May is day 31, out of its reach; 20 April
    /// takes the other 200 of 28 April (£40) and 300 of 1 May (£90), gain £20. The pool gains the
    /// last 200 of 1 May (£60): 2,200 costing £1,060.
    func testCRYPTO22253ThirtyDays() {
        let entries = ledger([
            (.buy, "2000", "1000", "2024-01-01"), (.sell, "1000", "400", "2024-03-31"), (.sell, "500", "150", "2024-04-20"),
            (.buy, "700", "175", "2024-04-21"), (.buy, "500", "100", "2024-04-28"), (.buy, "500", "150", "2024-05-01"),
        ])
        let report = realized(entries)
        XCTAssertEqual(figures(report, disposal: 2).cost, p("235"))
        XCTAssertEqual(figures(report, disposal: 2).gain, p("165"))
        XCTAssertEqual(figures(report, disposal: 3).cost, p("130"))
        XCTAssertEqual(figures(report, disposal: 3).gain, p("20"))
        XCTAssertEqual(
            report.rows.filter { $0.disposalID == 2 }.map(\.acquiredAt),
            [LedgerTimestamp.parse("2024-04-21"), LedgerTimestamp.parse("2024-04-28")])
        XCTAssertEqual(report.rows.filter { $0.disposalID == 2 }.map(\.amount), [p("700"), p("300")])
        XCTAssertEqual(report.rows.filter { $0.disposalID == 3 }.map(\.amount), [p("200"), p("300")])
        let coin = pnl(entries)
        XCTAssertEqual(coin.realizedPnL, p("185"))
        XCTAssertEqual(coin.amount, p("2200"))
        XCTAssertEqual(coin.costBasis, p("1060"))
    }

    /// CRYPTO22254 (Daniel): 8,000 token D pooled at £1,000; on 31 January sells 5,000 for £500,
    /// buys 4,000 for £320, 1,000 for £75 and 1,000 for £70, sells 2,000 for £142, buys 500 for
    /// £35. The day: disposals 7,000 for £642, acquisitions 6,500 for £500, all 6,500 matched;
    /// the other 500 come from the pool at £1,000 × 500/8,000 = £62.50 (HMRC: £63); gain £79.50
    /// (HMRC: £79); the pool keeps 7,500 costing £937.50.
    func testCRYPTO22254SameDayAndThePool() {
        let entries = ledger([
            (.buy, "8000", "1000", "2024-01-01"), (.sell, "5000", "500", "2024-01-31T10:00"), (.buy, "4000", "320", "2024-01-31T11:00"),
            (.buy, "1000", "75", "2024-01-31T12:00"), (.buy, "1000", "70", "2024-01-31T13:00"), (.sell, "2000", "142", "2024-01-31T14:00"),
            (.buy, "500", "35", "2024-01-31T15:00"),
        ])
        let report = realized(entries)
        // Exactly, not only to the ledger's places: the day's two disposals take their 500 from
        // the pool as one (UKShareLots), so their pool costs add up to 62.5, not 62.4999…9.
        XCTAssertEqual(report.totals.cost, p("562.5"))
        XCTAssertEqual(report.totals.gain, p("79.5"))
        XCTAssertEqual(report.totals.proceeds, p("642"))
        // Each disposal has its share of the day's match (6,500 × its units ÷ 7,000) and of the pool.
        XCTAssertEqual(ledgerPlaces(report.rows[0].amount), "4642.857142857142857143")
        XCTAssertEqual(ledgerPlaces(report.rows[1].amount), "357.142857142857142857")
        XCTAssertEqual(report.rows.filter { $0.disposalID == 2 }.reduce(PreciseDecimal.zero) { $0 + $1.amount }, p("5000"))
        let coin = pnl(entries)
        XCTAssertEqual(coin.amount, p("7500"))
        XCTAssertEqual(coin.costBasis, p("937.5"))
    }

    /// CRYPTO22255 (Melanie): 14,000 token E pooled at £200,000; sells 4,000 on 30 August for
    /// £160,000, buys 500 on 11 September for £17,500. 500 match the later buy (£17,500), 3,500
    /// come from the pool (£50,000): gain £92,500; the pool keeps 10,500 costing £150,000.
    func testCRYPTO22255ThirtyDaysAndThePool() {
        let entries = ledger([
            (.buy, "14000", "200000", "2024-01-01"), (.sell, "4000", "160000", "2024-08-30"), (.buy, "500", "17500", "2024-09-11"),
        ])
        let report = realized(entries)
        XCTAssertEqual(report.rows.map(\.amount), [p("500"), p("3500")])
        XCTAssertEqual(report.rows.map(\.cost), [p("17500"), p("50000")])
        XCTAssertEqual(report.rows.map(\.proceeds), [p("20000"), p("140000")])
        XCTAssertEqual(report.totals.gain, p("92500"))
        let coin = pnl(entries)
        XCTAssertEqual(coin.amount, p("10500"))
        XCTAssertEqual(coin.costBasis, p("150000"))
    }

    /// CRYPTO22256 (Gulferaz): 100,000 token F pooled at £300,000; 31 July buys 10,000 for £45,000
    /// and sells 30,000 for £150,000; 5 August sells 20,000 for £100,000; 6 August buys 50,000 for
    /// £225,000; 7 August sells 100,000 for £150,000. 31 July: 10,000 same day (£45,000) and
    /// 20,000 of 6 August (£90,000), gain £15,000; 5 August: 20,000 of 6 August (£90,000), gain
    /// £10,000; the last 10,000 of 6 August join the pool: 110,000 costing £345,000; 7 August
    /// takes £345,000 × 100,000/110,000 = £313,636.36 (HMRC: £313,637), loss £163,636.36.
    func testCRYPTO22256AllThreeRules() {
        let entries = ledger([
            (.buy, "100000", "300000", "2024-01-01"), (.buy, "10000", "45000", "2024-07-31T10:00"),
            (.sell, "30000", "150000", "2024-07-31T12:00"),
            (.sell, "20000", "100000", "2024-08-05"), (.buy, "50000", "225000", "2024-08-06"), (.sell, "100000", "150000", "2024-08-07"),
        ])
        let report = realized(entries)
        XCTAssertEqual(figures(report, disposal: 3).cost, p("135000"))
        XCTAssertEqual(figures(report, disposal: 3).gain, p("15000"))
        XCTAssertEqual(report.rows.filter { $0.disposalID == 3 }.map(\.amount), [p("10000"), p("20000")])
        XCTAssertEqual(figures(report, disposal: 4).cost, p("90000"))
        XCTAssertEqual(figures(report, disposal: 4).gain, p("10000"))
        XCTAssertEqual(figures(report, disposal: 6).cost, p("313636.36363636363636363636363636363636"))
        XCTAssertEqual(figures(report, disposal: 6).gain, p("-163636.36363636363636363636363636363636"))
        let coin = pnl(entries)
        XCTAssertEqual(coin.amount, p("10000"))
        XCTAssertEqual(coin.costBasis, p("31363.63636363636363636363636363636364"))
    }

    /// CG51560 example 3: 10,000 held at £10,000; 2,000 sold on 28 February 2009 for £6,000; a
    /// buy of 3,000 for £18,000 on 31 March 2009 is 31 days later and falls to the pool (cost
    /// £2,000, gain £4,000); on 30 March, day 30, it matches (cost £12,000, loss £6,000).
    func testCG51560DayThirtyMatchesAndDayThirtyOneDoesNot() {
        for (day, cost, gain) in [("2009-03-31", "2000", "4000"), ("2009-03-30", "12000", "-6000")] {
            let entries = ledger([
                (.buy, "10000", "10000", "2008-06-02"), (.sell, "2000", "6000", "2009-02-28"), (.buy, "3000", "18000", day),
            ])
            XCTAssertEqual(figures(realized(entries), disposal: 2).cost, p(cost), day)
            XCTAssertEqual(figures(realized(entries), disposal: 2).gain, p(gain), day)
        }
    }

    /// Worked by hand under CG51560–CG51590 (s105 same day, s106A thirty days, s104 pool): 1,000
    /// bought for £2,000 (10 January 2023); on 1 May two sales, 300 for £1,200 and 100 for £400,
    /// are one disposal of 400, and a buy of 100 for £350 the same day; 15 May sells 200 for £700;
    /// 20 May buys 250 for £1,000; 5 June buys 200 for £900; 1 July sells 500 for £2,500. 1 May:
    /// 100 same day (£350), then 250 of 20 May (£1,000, day 19; 5 June is day 35, too late), 50
    /// from the pool (£100); shared 3 : 1, the 300 take 75 (£262.50), 187.5 (£750) and 37.5 (£75):
    /// cost £1,087.50, gain £112.50; the 100 take 25 (£87.50), 62.5 (£250) and 12.5 (£25): cost
    /// £362.50, gain £37.50. 15 May: 200 of 5 June (day 21, £900), loss £200. Every later buy
    /// matched, so the pool holds 950 costing £1,900: 1 July takes 500 at £2 (£1,000), gain
    /// £1,500; 450 left costing £900.
    func testTwoSalesOfOneDayShareTheSameDayAndThirtyDayMatches() {
        let entries = ledger([
            (.buy, "1000", "2000", "2023-01-10"), (.sell, "300", "1200", "2023-05-01T10:00"), (.sell, "100", "400", "2023-05-01T11:00"),
            (.buy, "100", "350", "2023-05-01T12:00"), (.sell, "200", "700", "2023-05-15"), (.buy, "250", "1000", "2023-05-20"),
            (.buy, "200", "900", "2023-06-05"), (.sell, "500", "2500", "2023-07-01"),
        ])
        let report = realized(entries)
        XCTAssertEqual(report.rows.filter { $0.disposalID == 2 }.map(\.amount), [p("75"), p("187.5"), p("37.5")])
        XCTAssertEqual(report.rows.filter { $0.disposalID == 3 }.map(\.amount), [p("25"), p("62.5"), p("12.5")])
        for (id, cost, gain) in [(Int64(2), "1087.5", "112.5"), (3, "362.5", "37.5"), (5, "900", "-200"), (8, "1000", "1500")] {
            XCTAssertEqual(figures(report, disposal: id).cost, p(cost), "\(id)")
            XCTAssertEqual(figures(report, disposal: id).gain, p(gain), "\(id)")
        }
        let coin = pnl(entries)
        XCTAssertEqual(coin.amount, p("450"))
        XCTAssertEqual(coin.costBasis, p("900"))
    }

    // MARK: - Transfers, unknown costs, fee rows

    /// A move is no acquisition: on the day of the move the receiving portfolio's transfer in
    /// does not match its sale; the moved units keep the pool's cost (40 units at £1 each).
    func testAMovedLotCarriesThePoolCostAndIsNoAcquisition() {
        let main =
            ledger([(.buy, "100", "100", "2024-01-02")]) + [
                LedgerEntry(id: 10, timestamp: LedgerTimestamp.parse("2024-06-01T10:00:00Z")!, kind: .transferOut, amount: 40, group: 1)
            ]
        let cold = [
            LedgerEntry(id: 11, timestamp: LedgerTimestamp.parse("2024-06-01T10:00:00Z")!, kind: .transferIn, amount: 40, group: 1),
            LedgerEntry(id: 12, timestamp: LedgerTimestamp.parse("2024-06-01T12:00:00Z")!, kind: .sell, amount: 20, price: 10),
        ]
        let report = RealizedReport.compute(
            portfolios: [("main", [("token", main)]), ("cold", [("token", cold)])], reported: [1], vsCurrency: "gbp",
            options: RealizedOptions(method: .uk))
        XCTAssertEqual(report.rows.map(\.cost), [p("20")])
        XCTAssertEqual(report.rows.map(\.gain), [p("180")])
        XCTAssertEqual(report.rows.map(\.acquiredAt), [LedgerTimestamp.parse("2024-01-02")], "the first acquisition time")
        let coin = PnLReport.compute(portfolio: "main", vsCurrency: "gbp", method: .uk, ledger: [("token", main)], price: { _ in nil })
            .coins[0]
        XCTAssertEqual(coin.costBasis, p("60"))
    }

    /// Units transferred in (unknown cost) sit in the pool beside the known ones and leave in
    /// proportion: their share of a disposal has a null cost and gain, never 0.
    func testUnknownCostUnitsLeaveThePoolInProportion() {
        var entries = ledger([(.buy, "100", "100", "2024-01-02"), (.sell, "50", "100", "2024-03-01")])
        entries.insert(LedgerEntry(id: 9, timestamp: LedgerTimestamp.parse("2024-01-03")!, kind: .transferIn, amount: 100), at: 1)
        let report = realized(entries)
        XCTAssertEqual(report.rows.map(\.amount), [p("25"), p("25")])
        XCTAssertEqual(report.rows.map(\.cost), [p("25"), nil])
        XCTAssertEqual(report.rows.map(\.gain), [p("25"), nil])
        XCTAssertEqual(report.totals.coverage, 0.5)
        let coin = pnl(entries)
        XCTAssertEqual(coin.costBasisCoverage, 0.5)
        XCTAssertEqual(coin.costBasis, p("75"))
    }

    /// A fee row is a disposal: it matches a same-day buy first (HMRC treats tokens spent on fees
    /// as disposed of).
    func testAFeeRowIsADisposalThatMatchesTheDay() {
        let entries = ledger([
            (.buy, "10", "10", "2024-01-02"), (.buy, "10", "30", "2024-02-01T10:00"), (.fee, "1", "5", "2024-02-01T11:00"),
        ])
        let report = realized(entries)
        XCTAssertEqual(report.rows.map(\.cost), [p("3")])
        XCTAssertEqual(report.rows.map(\.gain), [p("2")])
        XCTAssertEqual(pnl(entries).costBasis, p("37"))
    }

    /// A transfer out after a same-day buy that a later sale of the day claims finds the pool
    /// short: the units it lacks leave at an unknown cost, the next units to arrive make up for
    /// them, and the holding and the pool agree again.
    func testATransferOutTheSameDayMatchTookFindsThePoolShort() {
        let day = "2024-05-01T"
        let entries = [
            LedgerEntry(id: 1, timestamp: LedgerTimestamp.parse(day + "09:00:00Z")!, kind: .buy, amount: 10, price: 2),
            LedgerEntry(id: 2, timestamp: LedgerTimestamp.parse(day + "10:00:00Z")!, kind: .transferOut, amount: 10),
            LedgerEntry(id: 3, timestamp: LedgerTimestamp.parse(day + "11:00:00Z")!, kind: .transferIn, amount: 10),
            LedgerEntry(id: 4, timestamp: LedgerTimestamp.parse(day + "12:00:00Z")!, kind: .sell, amount: 10, price: 3),
        ]
        let report = realized(entries)
        XCTAssertEqual(report.rows.map(\.cost), [p("20")], "the sale matches the day's buy")
        let coin = pnl(entries)
        XCTAssertEqual(coin.amount, .zero)
        XCTAssertEqual(coin.costBasis, .zero)
        XCTAssertEqual(coin.realizedPnL, p("10"))
    }
}
