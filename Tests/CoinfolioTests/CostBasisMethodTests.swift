import XCTest

@testable import Coinfolio

/// SPEC §16's cost basis rules on the pure calculator (no store): lot methods, fee rows, income,
/// moves, pending prices; every example of §16 with its numbers. The same examples run through the
/// engine, the C ABI and Python in LedgerHistoryTests, test_ledger_history.c and
/// test_ledger_history.py.
final class CostBasisMethodTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    private func e(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

    /// An entry at day `day` (ms), id `id`.
    private func entry(
        _ id: Int64, _ kind: TransactionKind, _ amount: String, at day: Int64, price: String? = nil, fee: String? = "0",
        group: Int32 = 0
    ) -> LedgerEntry {
        LedgerEntry(
            id: id, timestamp: day * 86_400_000, kind: kind, amount: e(amount), price: price.map(p), fee: fee.map(p), group: group)
    }

    private func report(
        _ method: CostBasisMethod, _ ledger: [(coinID: String, entries: [LedgerEntry])], prices: [String: String] = [:],
        linked: [String: [[LedgerEntry]]] = [:]
    ) -> PnLReport {
        PnLReport.compute(
            portfolio: "main", vsCurrency: "usd", method: method, ledger: ledger, others: { linked[$0] ?? [] },
            price: { prices[$0].map(self.p) })
    }

    // MARK: - §16 "More lot methods"

    /// Lots 2 @ 3 then 5 @ 1; sell 1 @ 4 → realized fifo 1, lifo 3, hifo 1, lofo 3.
    func testLotOrdersOfTheFourMethods() {
        let entries = [
            entry(1, .buy, "2", at: 1, price: "3"), entry(2, .buy, "5", at: 2, price: "1"), entry(3, .sell, "1", at: 3, price: "4"),
        ]
        let expected: [CostBasisMethod: String] = [.fifo: "1", .lifo: "3", .hifo: "1", .lofo: "3"]
        for (method, realized) in expected {
            let coin = report(method, [("x", entries)]).coins[0]
            XCTAssertEqual(coin.realizedPnL, p(realized), method.rawValue)
            XCTAssertEqual(coin.amount, p("6"), method.rawValue)
        }
        // What stays: fifo and hifo took from the 2 @ 3 lot (cost 3 + 5 = 8 left), lifo and lofo
        // from the 5 @ 1 lot (6 + 4 = 10 left).
        XCTAssertEqual(report(.hifo, [("x", entries)]).coins[0].costBasis, p("8"))
        XCTAssertEqual(report(.lofo, [("x", entries)]).coins[0].costBasis, p("10"))
    }

    /// hifo takes lots of unknown cost last and lofo first; equal unit costs go in ledger order.
    func testUnknownCostRanksAsZeroAndTiesGoInLedgerOrder() {
        let entries = [
            entry(1, .transferIn, "1", at: 1), entry(2, .buy, "1", at: 2, price: "5"), entry(3, .buy, "2", at: 3, price: "5"),
            entry(4, .sell, "1", at: 4, price: "6"),
        ]
        let hifo = report(.hifo, [("x", entries)]).coins[0]
        XCTAssertEqual(hifo.realizedPnL, p("1"), "the first 5-lot, not the later one or the unknown")
        XCTAssertEqual(hifo.realizedCoverage, 1)
        let lofo = report(.lofo, [("x", entries)]).coins[0]
        XCTAssertEqual(lofo.realizedPnL, .zero, "the unknown-cost lot realizes nothing")
        XCTAssertEqual(lofo.realizedCoverage, 0)
        XCTAssertEqual(lofo.costBasis, p("15"))
    }

    // MARK: - §16 "Fees in any coin"

    /// buy 1 BNB @ 300 at t1; at t2 buy 1 BTC @ 40,000 with fee 0.01 BNB at 310 → the BTC lot
    /// costs 40,003.10; 0.99 BNB left; realized on the fee 0.01 × 310 − 0.01 × 300 = 0.10; the
    /// BTC coin's fees 3.10.
    func testAFeePaidInBNBIsADisposalAndAddsToTheLotsCost() {
        let parents = [
            Transaction(coinID: "binancecoin", kind: .buy, amount: 1, price: 300, timestamp: 1),
            Transaction(
                coinID: "bitcoin", kind: .buy, amount: 1, price: 40_000, fee: e("0.01"), timestamp: 2, feeCoinID: "binancecoin",
                feePrice: 310),
        ]
        let rows = LedgerGroup.rows([parents[1]], prices: .none, vsCurrency: "usd")
        XCTAssertEqual(rows.map(\.kind), [.buy, .fee])
        XCTAssertEqual(rows[1].coinID, "binancecoin")
        XCTAssertEqual(rows[1].amount, e("0.01"))
        XCTAssertEqual(rows[1].price, 310)
        XCTAssertEqual(rows[1].priceSource, .user)
        // The entries the store reads: the BTC buy carries its fee row's value (0.01 × 310).
        let ledger = [
            ("binancecoin", [entry(1, .buy, "1", at: 1, price: "300"), entry(3, .fee, "0.01", at: 2, price: "310")]),
            ("bitcoin", [entry(2, .buy, "1", at: 2, price: "40000", fee: "3.1")]),
        ]
        let result = report(.fifo, ledger, prices: ["bitcoin": "40000", "binancecoin": "310"])
        let bnb = result.coins[0]
        let btc = result.coins[1]
        XCTAssertEqual(btc.costBasis, p("40003.10"))
        XCTAssertEqual(btc.fees, p("3.10"))
        XCTAssertEqual(bnb.amount, p("0.99"))
        XCTAssertEqual(bnb.realizedPnL, p("0.10"))
        XCTAssertEqual(bnb.costBasis, p("297"))
        XCTAssertEqual(bnb.fees, .zero, "the fee's value counts for the bitcoin it bought")
        XCTAssertEqual(result.totalFees, p("3.1"))
    }

    /// A fee in the transaction's own coin is a separate disposal; without fee_price it is valued
    /// at the transaction's price.
    func testAFeeInTheSameCoinTakesTheTransactionsPrice() {
        let buy = Transaction(
            coinID: "binancecoin", kind: .buy, amount: 2, price: 300, fee: e("0.01"), timestamp: 1, feeCoinID: "binancecoin")
        let rows = LedgerGroup.rows([buy], prices: .none, vsCurrency: "usd")
        XCTAssertEqual(rows[1].price, 300)
        let ledger = [("binancecoin", [entry(1, .buy, "2", at: 1, price: "300", fee: "3"), entry(2, .fee, "0.01", at: 1, price: "300")])]
        let coin = report(.fifo, ledger).coins[0]
        XCTAssertEqual(coin.amount, p("1.99"))
        XCTAssertEqual(coin.costBasis, p("599.985"), "603 less the 0.01 units (3.015) the fee took at 301.5 each")
        XCTAssertEqual(coin.realizedPnL, p("-0.015"), "0.01 × 300 − 0.01 × 301.5")
    }

    /// A fee whose coin has no price yet leaves the fee row pending and the parent's cost unknown.
    func testAPendingFeeLeavesTheParentsCostUnknownNeverZero() {
        let buy = Transaction(coinID: "bitcoin", kind: .buy, amount: 1, price: 100, fee: 1, timestamp: 1, feeCoinID: "binancecoin")
        let rows = LedgerGroup.rows([buy], prices: .none, vsCurrency: "usd")
        XCTAssertNil(rows[1].price)
        XCTAssertEqual(rows[1].priceSource, .pending)
        let point = StoredPrices { coin, _, _ in coin == "binancecoin" ? StoredPrice(price: 250, source: .coingecko, at: 7) : nil }
        let priced = LedgerGroup.rows([buy], prices: point, vsCurrency: "usd")
        XCTAssertEqual(priced[1].price, 250)
        XCTAssertEqual(priced[1].priceSource, .coingecko)
        XCTAssertEqual(priced[1].priceAt, 7)
        let ledger = [
            ("binancecoin", [entry(1, .buy, "5", at: 0, price: "200"), entry(3, .fee, "1", at: 1)]),
            ("bitcoin", [entry(2, .buy, "1", at: 1, price: "100", fee: nil)]),
        ]
        let result = report(.fifo, ledger, prices: ["bitcoin": "120"])
        let btc = result.coins[1]
        XCTAssertNil(btc.costBasis, "cost unknown while the fee's value is pending")
        XCTAssertEqual(btc.costBasisCoverage, 0)
        XCTAssertNil(btc.unrealizedPnL)
        XCTAssertNil(btc.fees)
        XCTAssertNil(result.totalFees)
        let bnb = result.coins[0]
        XCTAssertEqual(bnb.realizedPnL, .zero)
        XCTAssertEqual(bnb.realizedCoverage, 0, "a disposal at a pending price realizes nothing known")
        XCTAssertEqual(bnb.costBasis, p("800"))
    }

    // MARK: - §16 "Income"

    func testIncomeLotsCostTheirValueAndPendingIncomeShowsInItsCoverage() {
        let ledger = [
            (
                "ethereum",
                [
                    entry(1, .income, "2", at: 1, price: "5"), entry(2, .income, "1", at: 2),
                    entry(3, .sell, "2", at: 3, price: "8"),
                ]
            )
        ]
        let coin = report(.fifo, ledger).coins[0]
        XCTAssertEqual(coin.income, p("10"))
        XCTAssertEqual(coin.incomeCoverage, 2.0 / 3.0)
        XCTAssertEqual(coin.realizedPnL, p("6"), "income realizes nothing when received; its lot costs 2 × 5")
        XCTAssertNil(coin.costBasis, "the pending income lot is of unknown cost")
        let none = report(.fifo, [("x", [entry(1, .buy, "1", at: 1, price: "1")])])
        XCTAssertEqual(none.coins[0].incomeCoverage, 1)
        XCTAssertEqual(none.totalIncomeCoverage, 1)
        XCTAssertEqual(report(.fifo, ledger).totalIncomeCoverage, 0.5, "one of two income rows priced")
    }

    func testPendingBuyAndSellPricesAreUnknownNeverZero() {
        let ledger = [("x", [entry(1, .buy, "1", at: 1), entry(2, .buy, "1", at: 2, price: "10"), entry(3, .sell, "1", at: 3)])]
        let coin = report(.fifo, ledger, prices: ["x": "20"]).coins[0]
        XCTAssertEqual(coin.realizedPnL, .zero)
        XCTAssertEqual(coin.realizedCoverage, 0)
        XCTAssertEqual(coin.costBasis, p("10"))
        XCTAssertEqual(coin.costBasisCoverage, 1)
        XCTAssertEqual(coin.unrealizedPnL, p("10"))
    }

    // MARK: - §16 "Moves"

    /// main: buy 2 BTC @ 100 (t1), buy 1 @ 300 (t2); move 1.5 main → cold, received 1.4 (t3);
    /// cold sells 1.4 @ 400 (t4). fifo: main keeps 0.5 @ 100 and 1 @ 300 (cost 350); cold's lot is
    /// 1.4 units costing 150, acquired t1; its realized 560 − 150 = 410. hifo: the move removes 1 @
    /// 300 and 0.5 @ 100 (cost 350), main keeps 1.5 @ 100 (cost 150), cold realizes 560 − 350 = 210.
    func testAMoveCarriesItsLotsWithTheirCostAndTime() {
        let main = [
            entry(1, .buy, "2", at: 1, price: "100"), entry(2, .buy, "1", at: 2, price: "300"),
            entry(3, .transferOut, "1.5", at: 3, group: 7),
        ]
        let cold = [entry(4, .transferIn, "1.4", at: 3, group: 7), entry(5, .sell, "1.4", at: 4, price: "400")]
        let both = ["bitcoin": [main]]
        let fifoMain = report(.fifo, [("bitcoin", main)]).coins[0]
        XCTAssertEqual(fifoMain.costBasis, p("350"))
        XCTAssertEqual(fifoMain.amount, p("1.5"))
        XCTAssertEqual(fifoMain.realizedPnL, .zero, "a move realizes nothing")
        let fifoCold = report(.fifo, [("bitcoin", cold)], linked: both).coins[0]
        XCTAssertEqual(fifoCold.realizedPnL, p("410"))
        XCTAssertEqual(fifoCold.realizedCoverage, 1)
        XCTAssertEqual(fifoCold.amount, .zero)
        let hifoMain = report(.hifo, [("bitcoin", main)]).coins[0]
        XCTAssertEqual(hifoMain.costBasis, p("150"))
        let hifoCold = report(.hifo, [("bitcoin", cold)], linked: both).coins[0]
        XCTAssertEqual(hifoCold.realizedPnL, p("210"))
        // Without the other portfolio the transfer in is of unknown cost.
        XCTAssertEqual(report(.fifo, [("bitcoin", cold)]).coins[0].realizedCoverage, 0)
    }

    /// In the receiving portfolio the moved lots order by their first acquisition time: fifo in
    /// cold sells the moved t1 lot before cold's own t2 buy.
    func testMovedLotsOrderByFirstAcquisition() {
        let main = [entry(1, .buy, "1", at: 1, price: "100"), entry(3, .transferOut, "1", at: 3, group: 7)]
        let cold = [
            entry(2, .buy, "1", at: 2, price: "500"), entry(4, .transferIn, "1", at: 3, group: 7),
            entry(5, .sell, "1", at: 4, price: "600"),
        ]
        let coin = report(.fifo, [("bitcoin", cold)], linked: ["bitcoin": [main]]).coins[0]
        XCTAssertEqual(coin.realizedPnL, p("500"), "600 − 100: the lot acquired at t1 goes first")
        XCTAssertEqual(coin.costBasis, p("500"))
    }

    /// Scaled units are rounded half-even to 18 fraction digits and the last lot takes the
    /// remainder, so they sum to the received amount exactly.
    func testMovedUnitsSumToTheReceivedAmountExactly() {
        let pieces = [
            Lot(units: p("1"), cost: p("300"), acquired: (2, 2)), Lot(units: p("0.5"), cost: p("50"), acquired: (1, 1)),
        ]
        let scaled = MovedLots.scaled(pieces, to: p("1.4"))
        XCTAssertEqual(scaled.map(\.units), [p("0.933333333333333333"), p("0.466666666666666667")])
        XCTAssertEqual(scaled.map(\.cost), [p("300"), p("50")], "cost basis is conserved")
        let thirds = MovedLots.scaled(
            [Lot(units: p("1"), cost: nil, acquired: (1, 1)), Lot(units: p("2"), cost: nil, acquired: (2, 2))], to: p("1"))
        XCTAssertEqual(thirds.map(\.units), [p("0.333333333333333333"), p("0.666666666666666667")])
    }

    func testAverageMoveCarriesTheAverageCost() {
        let main = [
            entry(1, .buy, "1", at: 1, price: "100"), entry(2, .buy, "1", at: 2, price: "300"),
            entry(3, .transferOut, "1", at: 3, group: 7),
        ]
        let cold = [entry(4, .transferIn, "0.5", at: 3, group: 7)]
        let coin = report(.average, [("bitcoin", cold)], linked: ["bitcoin": [main]]).coins[0]
        XCTAssertEqual(coin.costBasis, p("200"), "one unit at the average 200, scaled to 0.5 units with its whole cost")
        XCTAssertEqual(coin.averageCost, p("400"))
        XCTAssertEqual(report(.average, [("bitcoin", main)]).coins[0].costBasis, p("200"))
    }

    // MARK: - Issue 31: exact derived money

    /// 1e-18 units at a price of 0.000002, now 0.000004: cost basis 2e-24, value 4e-24, unrealized 2e-24.
    func testDustKeepsItsDigitsInEveryFigure() {
        let coin = report(
            .fifo, [("dust", [entry(1, .buy, "0.000000000000000001", at: 1, price: "0.000002")])], prices: ["dust": "0.000004"]
        )
        .coins[0]
        XCTAssertEqual(coin.costBasis, p("2e-24"))
        XCTAssertEqual(coin.currentValue, p("4e-24"))
        XCTAssertEqual(coin.unrealizedPnL, p("2e-24"))
        XCTAssertEqual(coin.unrealizedPnLPercentage, 100)
        XCTAssertTrue(
            report(.fifo, [("dust", [entry(1, .buy, "0.000000000000000001", at: 1, price: "0.000002")])]).json
                .contains(#""cost_basis":2e-24"#))
    }

    /// Two buys of 1 at 8e19 with a fee of 8e19: cost basis 3.2e20, never clamped or wrapped negative.
    func testSumsPastTheInputLimitStayExact() {
        let entries = [
            entry(1, .buy, "1", at: 1, price: "80000000000000000000", fee: "80000000000000000000"),
            entry(2, .buy, "1", at: 2, price: "80000000000000000000", fee: "80000000000000000000"),
        ]
        let result = report(.fifo, [("x", entries)], prices: ["x": "80000000000000000000"])
        XCTAssertEqual(result.coins[0].costBasis, p("320000000000000000000"))
        XCTAssertEqual(result.totalCostBasis, p("320000000000000000000"))
        XCTAssertEqual(result.totalFees, p("160000000000000000000"))
        XCTAssertEqual(result.totalUnrealizedPnL, p("-160000000000000000000"))
        XCTAssertTrue(result.json.contains(#""cost_basis":320000000000000000000"#), result.json)
    }
}
