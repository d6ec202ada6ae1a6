import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// SPEC §12: transactions, cost basis and P&L, portfolios, CSV, the schema-1 migration.
final class LedgerTests: XCTestCase {
    /// A /coins/markets body pricing bitcoin at 400 (the worked example's "price now").
    static let marketsAt400 = Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":400}]"#.utf8)

    private func engine(_ database: String = ":memory:") throws -> PortfolioEngine {
        try PortfolioEngine(configuration: EngineConfiguration(database: database))
    }

    private func d(_ text: String) -> ExactDecimal { ExactDecimal(text)! }
    @_disfavoredOverload private func d(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }

    /// buy 1 BTC @ 100 fee 1; buy 1 @ 200; sell 1.5 @ 300 fee 3; price now 400.
    private func workedExample() throws -> PortfolioEngine {
        let engine = try self.engine()
        try engine.load(marketsBody: Self.marketsAt400, globalBody: nil)
        try engine.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":100,"fee":1,"timestamp":"2024-01-01T00:00:00Z"}"#)
        try engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":200,"timestamp":"2024-01-02T00:00:00Z"}"#)
        try engine.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"sell","amount":1.5,"price":300,"fee":3,"timestamp":"2024-01-03T00:00:00Z"}"#)
        return engine
    }

    func testWorkedExampleFIFO() throws {
        let report = try workedExample().pnl(PnLOptions(method: .fifo))
        let btc = try XCTUnwrap(report.coins.first)
        XCTAssertEqual(btc.realizedPnL, d("246"))
        XCTAssertEqual(btc.amount, d("0.5"))
        XCTAssertEqual(btc.costBasis, d("100"))
        XCTAssertEqual(btc.unrealizedPnL, d("100"))
        XCTAssertEqual(btc.currentValue, d("200"))
        XCTAssertEqual(btc.fees, d("4"))
        XCTAssertEqual(btc.averageCost, d("200"))
        XCTAssertEqual(btc.costBasisCoverage, 1)
        XCTAssertEqual(btc.realizedCoverage, 1)
        XCTAssertEqual(btc.unrealizedPnLPercentage, 100)
        XCTAssertEqual(report.totalRealizedPnL, d("246"))
        XCTAssertEqual(report.totalUnrealizedPnL, d("100"))
    }

    func testWorkedExampleAverage() throws {
        let btc = try XCTUnwrap(try workedExample().pnl(PnLOptions(method: .average)).coins.first)
        XCTAssertEqual(btc.realizedPnL, d("221.25"))
        XCTAssertEqual(btc.costBasis, d("75.25"))
        XCTAssertEqual(btc.unrealizedPnL, d("124.75"))
        XCTAssertEqual(btc.averageCost, d("150.5"))
    }

    func testWorkedExampleLIFO() throws {
        let btc = try XCTUnwrap(try workedExample().pnl(PnLOptions(method: .lifo)).coins.first)
        XCTAssertEqual(btc.realizedPnL, d("196.5"))
        XCTAssertEqual(btc.costBasis, d("50.5"))
        XCTAssertEqual(btc.unrealizedPnL, d("149.5"))
    }

    func testWorkedExampleJSONHasTheSpecKeys() throws {
        let json = try workedExample().pnl(PnLOptions()).json
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let coin = try XCTUnwrap((object["coins"] as? [[String: Any]])?.first)
        for key in [
            "coin_id", "amount", "cost_basis", "average_cost", "breakeven_price", "current_value", "unrealized_pnl",
            "unrealized_pnl_percentage", "realized_pnl", "realized_coverage", "fees", "cost_basis_coverage",
        ] {
            XCTAssertNotNil(coin[key], key)
        }
        XCTAssertTrue(json.contains(#""realized_pnl":246"#), json)
        XCTAssertTrue(json.contains(#""breakeven_price":-292"#), json)  // (100 − 246) ÷ 0.5
    }

    func testExactDecimalTextRoundTripsAndRounds() throws {
        XCTAssertEqual(d("0.1").description, "0.1")
        XCTAssertEqual(d("-2.50").description, "-2.5")
        XCTAssertEqual(d(".5").description, "0.5")
        XCTAssertEqual(d("1.186e-09").description, "0.000000001186")
        XCTAssertEqual(d("4.2e17").description, "420000000000000000")
        XCTAssertEqual(d("0.000000000000000001").description, "0.000000000000000001")
        XCTAssertEqual(d("0.10000000000000000000000").description, "0.1", "trailing zeros past 18 digits are exact")
        XCTAssertEqual(d("-0").description, "0")
        // Whole parts on both sides of 2^64 (written with 64-bit divisions below it, 128-bit above).
        XCTAssertEqual(d("18446744073709551615.5").description, "18446744073709551615.5")
        XCTAssertEqual(d("-18446744073709551616.25").description, "-18446744073709551616.25")
        XCTAssertEqual(d("80000000000000000000.000001").description, "80000000000000000000.000001")
        XCTAssertEqual(d("-30000.5").description, "-30000.5")
        for bad in ["", " 1", "1 ", "NaN", "inf", "1,5", "0x10", "1e", "--1", "1.2.3", "0.0000000000000000001", "1e21"] {
            XCTAssertNil(ExactDecimal(bad), bad)
        }
        XCTAssertEqual(ExactDecimal(rounding: "0.0000000000000000015")?.description, "0.000000000000000002")
        XCTAssertEqual(ExactDecimal(rounding: "0.0000000000000000025")?.description, "0.000000000000000002", "half to even")
        XCTAssertEqual(ExactDecimal(0.1), d("0.1"))
        XCTAssertEqual(ExactDecimal(1.7976931348623157e308), nil)
        // Products and quotients are PreciseDecimal's: 38 significant digits, never clamped.
        let p = { (text: String) in PreciseDecimal(ExactDecimal(text)!) }
        XCTAssertEqual(p("301").multiplied(by: p("1.5"), dividedBy: p("2")), PreciseDecimal("225.75"))
        XCTAssertEqual(
            p("123456789.123456789").multiplied(by: p("98765.4321"), dividedBy: p("0.5")), PreciseDecimal("24386526246913.5800225270538"))
        XCTAssertEqual(p("-7") * p("0.5"), PreciseDecimal("-3.5"))
        XCTAssertEqual(p("10000000000") * p("100000000000"), PreciseDecimal("1e21"), "no saturation at 8.5e19")
        XCTAssertNil(d("85000000000000000000").adding(d("0.000000000000000001")), "a sum past what the ledger keeps (8.5e19) is refused")
        XCTAssertEqual(d("84999999999999999999").adding(d("1"))?.description, "85000000000000000000", "8.5e19 itself is kept")
        XCTAssertNil(ExactDecimal("90000000000000000000"))
        XCTAssertEqual(d("1.5").double, 1.5)
    }

    func testExactDecimalsCloseAPositionToZero() throws {
        XCTAssertEqual(d("0.3") - d("0.1") - d("0.2"), .zero)
        let engine = try self.engine()
        for (kind, amount) in [("buy", "0.3"), ("sell", "0.1"), ("sell", "0.2")] {
            try engine.addTransaction(
                json: #"{"coin_id":"ethereum","kind":"\#(kind)","amount":\#(amount),"price":10,"timestamp":"2024-01-01"}"#)
        }
        let eth = try XCTUnwrap(try engine.pnl().coins.first)
        XCTAssertEqual(eth.amount, .zero)
        XCTAssertEqual(eth.costBasis, .zero)
        XCTAssertEqual(try engine.portfolio().entries.count, 0, "a closed coin is not held")
        XCTAssertEqual(try engine.pnl().coins.count, 1, "a closed coin stays listed with its realized P&L")
    }

    func testSellingMoreThanHeldIsRefusedWithDetailsAndWritesNothing() throws {
        let engine = try workedExample()
        let error = assertThrows(.invalidArgument) {
            try engine.addTransaction(
                json: #"{"coin_id":"bitcoin","kind":"sell","amount":0.75,"price":300,"timestamp":"2024-01-04T00:00:00Z"}"#)
        }
        XCTAssertEqual(error?.details["coin_id"], .string("bitcoin"))
        XCTAssertEqual(error?.details["timestamp"], .string("2024-01-04T00:00:00Z"))
        XCTAssertEqual(error?.details["short_by"], .number(0.25))
        XCTAssertEqual(try engine.transactions().total, 3)
        // A sell dated before the buys is short at its own time, even though more is held later.
        let early = assertThrows(.invalidArgument) {
            try engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"sell","amount":0.1,"price":1,"timestamp":"2023-06-01"}"#)
        }
        XCTAssertEqual(early?.details["short_by"], .number(0.1))
        // Selling exactly what is held is allowed.
        try engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"transfer_out","amount":0.5,"timestamp":"2024-01-05"}"#)
        XCTAssertEqual(try engine.pnl().coins.first?.amount, .zero)
    }

    func testDeletingABuyThatALaterSellNeedsIsRefused() throws {
        let engine = try workedExample()
        let first = try XCTUnwrap(try engine.transactions().transactions.first?.id)
        let error = assertThrows(.invalidArgument) { try engine.deleteTransaction(id: String(first)) }
        XCTAssertEqual(error?.details["short_by"], .number(0.5))
        XCTAssertEqual(try engine.transactions().total, 3)
        let sell = try XCTUnwrap(try engine.transactions().transactions.last?.id)
        try engine.deleteTransaction(id: String(sell))
        XCTAssertEqual(try engine.transactions().total, 2)
        assertThrows(.notFound) { try engine.deleteTransaction(id: String(sell)) }
        assertThrows(.invalidArgument) { try engine.deleteTransaction(id: "1; DROP TABLE ledger_transaction") }
    }

    func testBadInputsGetAClearStatusAndChangeNothing() throws {
        let engine = try workedExample()
        let bad = [
            #"{"coin_id":"bitcoin","kind":"buy","amount":"NaN","price":1}"#,
            #"{"coin_id":"bitcoin","kind":"buy","amount":-1,"price":1}"#,
            #"{"coin_id":"bitcoin","kind":"buy","amount":0,"price":1}"#,
            #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":-1}"#,
            #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1,"fee":-1}"#,
            #"{"coin_id":"bitcoin","kind":"income","amount":1}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"price":5}"#,
            #"{"coin_id":"bitcoin","kind":"gift","amount":1}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"03/01/2024"}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2024-02-30"}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1e400}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":0.0000000000000000001}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"portfolio":""}"#,
            #"{"coin_id":"a,b","kind":"transfer_in","amount":1}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"note":"\#(String(repeating: "x", count: 10_000_000))"}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1"#,
            #"[1]"#,
        ]
        for json in bad {
            let before = try engine.transactions().total
            _ = try? engine.addTransaction(json: json)
            XCTAssertEqual(try engine.transactions().total, before, String(json.prefix(90)))
            assertThrows(.invalidArgument) { try engine.addTransaction(json: json) }
        }
        XCTAssertEqual(try engine.transactions().total, 3)
        assertThrows(.notFound) {
            try engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"portfolio":"nope"}"#)
        }
        // SQL in a note is only text.
        let note = "'); DROP TABLE ledger_transaction; --"
        let stored = try engine.addTransaction(
            Transaction(coinID: "bitcoin", kind: .transferIn, amount: 1, timestamp: 0, note: note))
        XCTAssertEqual(try engine.transactions(TransactionQuery(coinID: "bitcoin", to: 0)).transactions.first, stored)
        XCTAssertEqual(try engine.transactions().total, 4)
    }

    func testTransactionJSONIsReadStrictlyAndExactly() throws {
        let ok = try Transaction(
            json:
                #"{"coin_id":"bitcoin","kind":"buy","amount":"0.1","price":1.23456789012345678,"note":"caf\u00e9 \ud83d\ude00","extra":{"a":[1,{"b":null}]}}"#
        )
        XCTAssertEqual(ok.amount, d("0.1"))
        XCTAssertEqual(ok.price, d("1.23456789012345678"), "17 significant digits, exact: never through a double")
        XCTAssertEqual(ok.note, "café 😀")
        for bad in [
            #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1,}"#, #"{"coin_id":"bitcoin","kind":"buy","amount":01,"price":1}"#,
            #"{"coin_id":"bitcoin","kind":"buy","amount":1.,"price":1}"#, #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1} x"#,
            #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1,"note":"\ud800"}"#,
            #"{"coin_id":"bitcoin","kind":"buy","amount":true,"price":1}"#, #"{"coin_id":7,"kind":"buy","amount":1,"price":1}"#,
            "{\"coin_id\":\"bit\u{1}coin\",\"kind\":\"buy\",\"amount\":1,\"price\":1}",
            String(repeating: "[", count: 600), #"{"a":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
            "", "  ", "[]", "null",
        ] {
            assertThrows(.invalidArgument) { try Transaction(json: bad) }
        }
    }

    func testTimestampsAreRFC3339NormalizedToUTCMilliseconds() throws {
        XCTAssertEqual(LedgerTimestamp.parse("2024-03-01T14:30:00+02:00"), LedgerTimestamp.parse("2024-03-01T12:30:00Z"))
        XCTAssertEqual(LedgerTimestamp.parse("2024-03-01T12:30:00.2509Z").map(LedgerTimestamp.format), "2024-03-01T12:30:00.250Z")
        XCTAssertEqual(LedgerTimestamp.parse("2024-03-01T12:30:00"), LedgerTimestamp.parse("2024-03-01T12:30:00Z"))
        XCTAssertEqual(LedgerTimestamp.parse("2024-03-01"), LedgerTimestamp.parse("2024-03-01T00:00:00Z"))
        XCTAssertEqual(LedgerTimestamp.parse("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(LedgerTimestamp.format(1_709_296_200_000), "2024-03-01T12:30:00Z")
        XCTAssertEqual(LedgerTimestamp.format(-1), "1969-12-31T23:59:59.999Z")
        for bad in ["", "2024", "2024-13-01", "2024-02-30", "2024-03-01T25:00:00Z", "2024-03-01T12:30:00+2", "yesterday", "1709296200"] {
            XCTAssertNil(LedgerTimestamp.parse(bad), bad)
        }
        let engine = try self.engine()
        let stored = try engine.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2024-03-01T14:30:00.123+02:00"}"#)
        XCTAssertTrue(stored.json.contains(#""timestamp":"2024-03-01T12:30:00.123Z""#), stored.json)
    }

    func testTransfersInBringLotsOfUnknownCost() throws {
        let engine = try self.engine()
        try engine.load(marketsBody: Self.marketsAt400, globalBody: nil)
        try engine.addTransaction(Transaction(coinID: "bitcoin", kind: .transferIn, amount: 1, timestamp: 1))
        try engine.addTransaction(Transaction(coinID: "bitcoin", kind: .buy, amount: 1, price: 100, timestamp: 2))
        try engine.addTransaction(Transaction(coinID: "bitcoin", kind: .sell, amount: 1, price: 150, timestamp: 3))
        // fifo sells the transferred lot: nothing realized, the bought lot remains.
        let fifo = try XCTUnwrap(try engine.pnl(PnLOptions(method: .fifo)).coins.first)
        XCTAssertEqual(fifo.realizedPnL, .zero)
        XCTAssertEqual(fifo.realizedCoverage, 0)
        XCTAssertEqual(fifo.costBasis, d("100"))
        XCTAssertEqual(fifo.costBasisCoverage, 1)
        // average takes from both pools in proportion.
        let average = try XCTUnwrap(try engine.pnl(PnLOptions(method: .average)).coins.first)
        XCTAssertEqual(average.realizedPnL, d("25"))
        XCTAssertEqual(average.realizedCoverage, 0.5)
        XCTAssertEqual(average.costBasis, d("50"))
        XCTAssertEqual(average.costBasisCoverage, 0.5)
        XCTAssertEqual(average.unrealizedPnL, d("150"))  // 0.5 known units × 400 − 50
        // lifo sells the bought lot: 50 realized, only unknown cost left.
        let lifo = try XCTUnwrap(try engine.pnl(PnLOptions(method: .lifo)).coins.first)
        XCTAssertEqual(lifo.realizedPnL, d("50"))
        XCTAssertNil(lifo.costBasis)
        XCTAssertNil(lifo.unrealizedPnL, "P&L over units of unknown cost is unknown, never 0")
        XCTAssertNil(lifo.averageCost)
        XCTAssertEqual(lifo.costBasisCoverage, 0)
        XCTAssertEqual(lifo.currentValue, d("400"))
        // The totals follow the coins: no held unit of known cost, so no total cost (it was 0, a
        // new user's finding); fifo's 100 is its one coin's.
        XCTAssertNil(try engine.pnl(PnLOptions(method: .lifo)).totalCostBasis)
        XCTAssertEqual(try engine.pnl(PnLOptions(method: .fifo)).totalCostBasis, d("100"))
        // Sold out, nothing held: the total cost is 0 again (known: nothing remains).
        try engine.addTransaction(Transaction(coinID: "bitcoin", kind: .sell, amount: 1, price: 150, timestamp: 4))
        XCTAssertEqual(try engine.pnl(PnLOptions(method: .lifo)).totalCostBasis, .zero)
    }

    func testUnknownPriceLeavesUnrealizedNull() throws {
        let engine = try self.engine()
        try engine.addTransaction(Transaction(coinID: "unlisted-coin", kind: .buy, amount: 2, price: 3, timestamp: 1))
        let coin = try XCTUnwrap(try engine.pnl().coins.first)
        XCTAssertNil(coin.currentValue)
        XCTAssertNil(coin.unrealizedPnL)
        XCTAssertEqual(coin.costBasis, d("6"))
    }

    func testSetHoldingRecordsTransfersOfTheDifference() throws {
        let engine = try self.engine()
        try engine.setHolding(coinID: "bitcoin", amount: 2)
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        let page = try engine.transactions()
        XCTAssertEqual(page.transactions.map(\.kind), [.transferIn, .transferOut])
        XCTAssertEqual(page.transactions.map(\.amount), [d("2"), d("1.5")])
        XCTAssertEqual(try engine.store.holdings(), [Holding(coinID: "bitcoin", amount: 0.5)])
        try engine.setHolding(coinID: "bitcoin", amount: 0)
        XCTAssertEqual(try engine.store.holdings(), [])
    }

    func testPortfoliosAreNamedAndSeparate() throws {
        let engine = try self.engine()
        try engine.createPortfolio(name: "cold wallet", vsCurrency: "eur")
        assertThrows(.invalidArgument) { try engine.createPortfolio(name: "cold wallet") }
        assertThrows(.invalidArgument) { try engine.createPortfolio(name: " padded") }
        try engine.addTransaction(Transaction(portfolio: "cold wallet", coinID: "bitcoin", kind: .buy, amount: 1, price: 9, timestamp: 0))
        XCTAssertEqual(
            try engine.portfolios(),
            [PortfolioInfo(name: "cold wallet", vsCurrency: "eur"), PortfolioInfo(name: "main", vsCurrency: "usd")])
        XCTAssertEqual(try engine.portfolio().entries.count, 0)
        XCTAssertEqual(try engine.portfolio(PortfolioQuery(portfolio: "cold wallet")).entries.map(\.coinID), ["bitcoin"])
        XCTAssertEqual(try engine.pnl(PnLOptions(portfolio: "cold wallet")).vsCurrency, "eur")
        try engine.renamePortfolio("cold wallet", to: "ledger")
        assertThrows(.notFound) { try engine.renamePortfolio("cold wallet", to: "x") }
        XCTAssertEqual(try engine.transactions(TransactionQuery(portfolio: "ledger")).total, 1)
        let refused = assertThrows(.invalidArgument) { try engine.deletePortfolio("ledger") }
        XCTAssertEqual(refused?.details["transactions"], .number(1))
        try engine.deletePortfolio("ledger", force: true)
        assertThrows(.notFound) { try engine.pnl(PnLOptions(portfolio: "ledger")) }
        XCTAssertEqual(try engine.portfolios().map(\.name), ["main"])
    }

    func testPortfolioHistoryValuesALedgerPortfolio() throws {
        let engine = try self.engine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.createPortfolio(name: "cold")
        try engine.addTransaction(Transaction(portfolio: "cold", coinID: "bitcoin", kind: .buy, amount: 2, price: 1, timestamp: 0))
        XCTAssertFalse(try engine.portfolioHistory(PortfolioHistoryOptions(portfolio: "cold")).points.isEmpty)
        XCTAssertTrue(try engine.portfolioHistory().points.isEmpty, "main holds nothing")
        assertThrows(.notFound) { try engine.portfolioHistory(PortfolioHistoryOptions(portfolio: "nowhere")) }
    }

    func testTransactionsAreFilteredAndPaged() throws {
        let engine = try self.engine()
        for day in 1...5 {
            try engine.addTransaction(
                json:
                    #"{"coin_id":"\#(day % 2 == 0 ? "ethereum" : "bitcoin")","kind":"transfer_in","amount":\#(day),"timestamp":"2024-01-0\#(day)"}"#
            )
        }
        XCTAssertEqual(try engine.transactions(TransactionQuery(coinID: "bitcoin")).total, 3)
        let range = try engine.transactions(TransactionQuery(json: #"{"from":"2024-01-02","to":"2024-01-04","limit":2,"offset":1}"#))
        XCTAssertEqual(range.total, 3)
        XCTAssertEqual(range.transactions.map(\.amount), [d("3"), d("4")])
        XCTAssertTrue(range.json.hasPrefix(#"{"transactions":[{"id":""#), range.json)
    }

    func testStatisticsGainProfitAndLossAfterPortfolioValue() throws {
        let engine = try workedExample()
        let statistics = try engine.statistics()
        XCTAssertEqual(
            statistics.map(\.title), ["Market Cap", "24h Volume", "BTC Dominance", "Portfolio Value", "Unrealized P&L", "Realized P&L"])
        XCTAssertEqual(statistics[4].value, "$100.00")
        XCTAssertEqual(statistics[4].percentageChange, 100)
        XCTAssertEqual(statistics[5].value, "$246.00")
        XCTAssertEqual(try XCTUnwrap(statistics[5].percentageChange), 246.0 / 201.0 * 100, accuracy: 1e-9)
    }

    func testTwoConnectionsSellingTheSameUnitsAtOnceNeverGoNegative() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("ledger.sqlite").path
        let first = try self.engine(path)
        let second = try self.engine(path)
        try first.addTransaction(Transaction(coinID: "bitcoin", kind: .buy, amount: 1, price: 10, timestamp: 0))
        let engines = [first, second]
        let successes = Mutex(0)
        let sell = Transaction(coinID: "bitcoin", kind: .sell, amount: d("0.25"), price: 20, timestamp: 1)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            if (try? engines[worker % 2].addTransaction(sell)) != nil { successes.withLock { $0 += 1 } }
        }
        XCTAssertEqual(successes.withLock { $0 }, 4, "exactly the units held were sold, whichever connection sold them")
        XCTAssertEqual(try second.pnl().coins.first?.amount, .zero)
        XCTAssertEqual(try first.transactions().total, 5)
    }

    // MARK: - Migration

    func testSchemaOneFixtureMigratesEveryHoldingToATransferIn() throws {
        let folder = try temporaryDirectory(self)
        let copy = folder.appendingPathComponent("schema-v1.sqlite")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Tests/fixtures/store/schema-v1.sqlite"), to: copy)
        let engine = try self.engine(copy.path)
        XCTAssertEqual(
            try engine.store.holdings(),
            [
                Holding(coinID: "0.1-token", amount: 0.1), Holding(coinID: "bitcoin", amount: 0.5),
                Holding(coinID: "ethereum", amount: 2.25), Holding(coinID: "not-a-listed-coin", amount: 10),
            ])
        let page = try engine.transactions()
        XCTAssertEqual(page.total, 4)
        for transaction in page.transactions {
            XCTAssertEqual(transaction.kind, .transferIn)
            XCTAssertEqual(transaction.timestamp, 0)
            XCTAssertEqual(transaction.note, "schema 1 holding")
            XCTAssertNil(transaction.price)
        }
        XCTAssertTrue(page.json.contains(#""timestamp":"1970-01-01T00:00:00Z""#))
        XCTAssertEqual(try engine.coins().total, 12, "the saved snapshot survives the migration")
        let pnl = try engine.pnl()
        XCTAssertEqual(pnl.coins.map(\.costBasisCoverage), [0, 0, 0, 0])
        XCTAssertNil(pnl.coins[1].unrealizedPnL)
        engine.close()
        let connection = try SQLiteConnection(path: copy.path)
        XCTAssertEqual(try connection.statement("PRAGMA user_version").scalarInt(), Schema.currentVersion)
        XCTAssertEqual(try connection.statement("PRAGMA integrity_check").next(), true)
        connection.close()
    }

    // MARK: - CSV

    private func importCSV(_ engine: PortfolioEngine, _ text: String) throws -> ImportSummary {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBytes { try engine.importCSV(UnsafeRawBufferPointer($0)) }
    }

    private static let header = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id"

    func testCSVReadsQuotesCommasNewlinesBOMAndCRLF() throws {
        let engine = try self.engine()
        let text =
            "\u{FEFF}\(Self.header)\r\n"
            + "2024-01-01T00:00:00Z,main,bitcoin,buy,1,100,1,\"a, \"\"quoted\"\" note\r\nover two lines\",x-1\r\n"
            + "2024-01-02T00:00:00Z,,bitcoin,buy,1,200,,,x-2\r\n"
        XCTAssertEqual(try importCSV(engine, text), ImportSummary(imported: 2, skipped: 0))
        let first = try XCTUnwrap(try engine.transactions().transactions.first)
        XCTAssertEqual(first.note, "a, \"quoted\" note\r\nover two lines")
        XCTAssertEqual(first.fee, d("1"))
        XCTAssertEqual(try importCSV(engine, text), ImportSummary(imported: 0, skipped: 2), "rows already there are skipped")
        XCTAssertEqual(try importCSV(engine, ""), ImportSummary(imported: 0, skipped: 0), "an empty file imports nothing")
        XCTAssertEqual(try importCSV(engine, Self.header + "\n"), ImportSummary(imported: 0, skipped: 0))
    }

    func testCSVErrorsNameLineAndColumnAndImportNothing() throws {
        let engine = try self.engine()
        func failure(_ text: String) -> CoinfolioError? { assertThrows(.invalidArgument) { try self.importCSV(engine, text) } }
        let good = "2024-01-01,main,bitcoin,buy,1,100,0,,a\n"
        var error = failure(Self.header + "\n" + good + "2024-01-02,main,bitcoin,buy,\"1,5\",100,0,,b\n")
        XCTAssertEqual(error?.details["line"], .number(3))
        XCTAssertEqual(error?.details["column"], .string("amount"))
        XCTAssertTrue(error?.message.contains("decimal") ?? false)
        // Too large for the ledger: out_of_range, not "not a decimal number" (a new user's finding).
        error = failure(Self.header + "\n" + good + "2024-01-02,main,bitcoin,buy,90000000000000000000,1,0,,b\n")
        XCTAssertEqual(error?.details["line"], .number(3))
        XCTAssertEqual(error?.details["column"], .string("amount"))
        XCTAssertEqual(error?.details["reason"], .string("out_of_range"))
        XCTAssertEqual(error?.message, "line 3, column amount: \"90000000000000000000\" is beyond what the ledger keeps exactly (±8.5e19)")
        error = failure(Self.header + "\n" + good + "\"multi\nline\",main,bitcoin,buy,1,1,0,,c\n2024-13-01,main,bitcoin,buy,1,1,0,,d\n")
        XCTAssertEqual(error?.details["line"], .number(3))
        XCTAssertEqual(error?.details["column"], .string("timestamp"))
        error = failure(
            Self.header + "\n" + good + "2024-01-02,main,bitcoin,buy,1,100,0,\"note\",x\n2024-01-03,main,bitcoin,sell,1,1,0,,x\n")
        XCTAssertEqual(error?.details["line"], .number(4), "an external_id repeated in one file fails at its second row")
        XCTAssertEqual(error?.details["column"], .string("external_id"))
        error = failure("timestamp;portfolio;coin_id;kind;amount;price;fee;note;external_id\n")
        XCTAssertTrue(error?.message.contains(";") ?? false)
        XCTAssertEqual(error?.details["line"], .number(1))
        error = failure(Self.header + "\n" + good + "2024-01-02,main,bitcoin,sell,2,100,0,,e\n")
        XCTAssertEqual(error?.details["line"], .number(3), "a shortfall names the row")
        XCTAssertEqual(error?.details["short_by"], .number(1))
        error = failure(Self.header + "\n" + good + "2024-01-02,main,bitcoin,transfer_in,1,5,0,,f\n")
        XCTAssertEqual(error?.details["column"], .string("price"))
        error = failure(Self.header + "\n" + good + "2024-01-02,main,bitcoin,buy,1,1,0,\"open\n")
        XCTAssertEqual(error?.details["line"], .number(3))
        XCTAssertEqual(try engine.transactions().total, 0, "every failed import left nothing")
        XCTAssertEqual(try engine.portfolios().map(\.name), ["main"])
    }

    func testCSVExportImportRoundTripsExactly() throws {
        let source = try workedExample()
        try source.createPortfolio(name: "other")
        try source.addTransaction(
            Transaction(
                coinID: "ethereum", kind: .transferIn, amount: d("0.000000000000000001"), timestamp: 1_709_296_200_123,
                note: "comma, \"quote\"\nnewline", externalID: "ex-1"))
        let exported = try source.exportCSV()
        let text = String(decoding: exported, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(Self.header + ",fee_coin_id,fee_price,income_type,group_id\r\n"), "export writes the long header")
        XCTAssertTrue(text.contains(",coinfolio:1,,,,\r\n"), text)
        XCTAssertEqual(try importCSV(source, text), ImportSummary(imported: 0, skipped: 4), "into the same portfolio: nothing")
        let target = try self.engine()
        XCTAssertEqual(try importCSV(target, text), ImportSummary(imported: 4, skipped: 0))
        XCTAssertEqual(try target.exportCSV(), exported, "export → import → export gives the same bytes")
        XCTAssertEqual(
            try target.pnl().coins,
            try source.pnl().coins.map {
                var coin = $0; coin.currentPrice = nil; coin.currentValue = nil; coin.unrealizedPnL = nil;
                coin.unrealizedPnLPercentage = nil; coin.priceSource = nil; return coin
            })
    }

    func testCSVIsReadAChunkAtATimeNeverWhole() throws {
        final class Source {
            var pulls = 0
            let chunk = Array(String(repeating: "2024-01-01,main,bitcoin,buy,1,1,0,\"a,b\",\n", count: 1600).utf8)
        }
        let source = Source()
        var reader = CSVReader(nextChunk: {
            source.pulls += 1
            return source.pulls <= 100 ? source.chunk : nil
        })
        XCTAssertEqual(try reader.nextRecord()?.fields.count, 9)
        XCTAssertEqual(source.pulls, 1, "the first record needs the first chunk only")
        var records = 1
        while try reader.nextRecord() != nil { records += 1 }
        XCTAssertEqual(records, 160_000)
        XCTAssertEqual(source.pulls, 101)
    }

    func testCSVImportCreatesNamedPortfoliosInTheEnginesCurrency() throws {
        let engine = try self.engine()
        _ = try importCSV(engine, Self.header + "\n2024-01-01,binance,bitcoin,transfer_in,1,,,,\n")
        XCTAssertEqual(try engine.portfolios().map(\.name), ["binance", "main"])
        XCTAssertEqual(try engine.portfolios().first?.vsCurrency, "usd")
    }

    func testCSVImportStreamsAFileFromDisk() throws {
        let folder = try temporaryDirectory(self)
        let url = folder.appendingPathComponent("big.csv")
        var text = Self.header + "\n"
        for row in 0..<3000 {
            text += "2024-01-01T00:00:\(String(format: "%02d", row % 60))Z,main,coin-\(row % 7),buy,0.1,1.5,0.01,row \(row),id-\(row)\n"
        }
        try Data(text.utf8).write(to: url)
        let engine = try self.engine(folder.appendingPathComponent("db.sqlite").path)
        XCTAssertEqual(try engine.importCSV(contentsOf: url), ImportSummary(imported: 3000, skipped: 0))
        XCTAssertEqual(try engine.pnl().totalCostBasis, d("480"))  // 3000 × (0.1 × 1.5 + 0.01)
    }

    /// A folder or a missing file is a CoinfolioError saying so (it was Foundation's raw
    /// `NSCocoaErrorDomain Code=256` for a folder), and nothing is written.
    func testCSVImportOfAFolderOrAMissingFileIsInvalidArgument() throws {
        let folder = try temporaryDirectory(self)
        let engine = try self.engine(folder.appendingPathComponent("db.sqlite").path)
        for (url, reason) in [(folder, "it is a folder, not a file"), (folder.appendingPathComponent("none.csv"), "no such file")] {
            XCTAssertThrowsError(try engine.importCSV(contentsOf: url)) { error in
                let error = error as? CoinfolioError
                XCTAssertEqual(error?.code, .invalidArgument)
                XCTAssertEqual(error?.message, "cannot read \(url.path): \(reason)")
            }
        }
        XCTAssertEqual(try engine.transactions().total, 0)
    }
}
