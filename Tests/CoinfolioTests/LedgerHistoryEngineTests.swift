import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// SPEC §16 through the engine, on SQLite and (make test-postgres) PostgreSQL: every example with
/// its numbers, groups written and deleted whole, and every bad input refused with the ledger
/// unchanged.
final class LedgerHistoryEngineTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    private func e(_ text: String) -> ExactDecimal { ExactDecimal(text)! }
    private func day(_ n: Int) -> Int64 { Int64(n) * 86_400_000 + 1_704_067_200_000 }

    private func engine(_ database: TestDatabase? = nil) throws -> PortfolioEngine {
        try (database ?? TestDatabase.fresh(self)).offlineEngine()
    }

    /// A markets body pricing each coin.
    private func load(_ engine: PortfolioEngine, _ prices: [String: String]) throws {
        let rows = prices.map { #"{"id":"\#($0.key)","symbol":"x","name":"X","current_price":\#($0.value)}"# }
        try engine.load(marketsBody: Data("[\(rows.joined(separator: ","))]".utf8), globalBody: nil)
    }

    /// Every row of every portfolio as JSON: what "the ledger unchanged" compares.
    private func everything(_ engine: PortfolioEngine) throws -> String {
        try engine.portfolios().map { try engine.transactions(TransactionQuery(portfolio: $0.name)).json }.joined(separator: "\n")
    }

    private func buy(_ engine: PortfolioEngine, _ coin: String, _ amount: String, at price: String, day n: Int, portfolio: String = "main")
        throws
    {
        try engine.addTransaction(
            Transaction(portfolio: portfolio, coinID: coin, kind: .buy, amount: e(amount), price: e(price), timestamp: day(n)))
    }

    // MARK: - The examples of §16

    /// buy 1 BNB @ 300 at t1; at t2 buy 1 BTC @ 40,000 with fee 0.01 BNB at 310 → the BTC lot
    /// costs 40,003.10; BNB 0.99 left; realized on the fee 0.10; the BTC coin's fees 3.10.
    func testAFeeInBNB() throws {
        let engine = try self.engine()
        try buy(engine, "binancecoin", "1", at: "300", day: 1)
        let parent = try engine.addTransaction(
            json:
                #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":40000,"fee":"0.01","fee_coin_id":"binancecoin","fee_price":310,"timestamp":"2024-01-03"}"#
        )
        let group = try XCTUnwrap(parent.groupID)
        let rows = try engine.transactions(TransactionQuery(groupID: group)).transactions
        XCTAssertEqual(rows.map(\.kind), [.buy, .fee])
        XCTAssertEqual(rows[1].coinID, "binancecoin")
        XCTAssertEqual(rows[1].amount, e("0.01"))
        XCTAssertEqual(rows[1].price, 310)
        XCTAssertEqual(rows[1].priceSource, .user)
        XCTAssertEqual(rows[0].feeCoinID, "binancecoin")
        let report = try engine.pnl()
        let bnb = try XCTUnwrap(report.coins.first { $0.coinID == "binancecoin" })
        let btc = try XCTUnwrap(report.coins.first { $0.coinID == "bitcoin" })
        XCTAssertEqual(btc.costBasis, p("40003.10"))
        XCTAssertEqual(btc.fees, p("3.10"))
        XCTAssertEqual(bnb.amount, p("0.99"))
        XCTAssertEqual(bnb.realizedPnL, p("0.10"))
        XCTAssertEqual(try engine.store.holdings().first { $0.coinID == "binancecoin" }?.amount, 0.99)
    }

    /// 0.5 BTC → 10 ETH, value 30,000 → sell 0.5 bitcoin @ 60,000 and buy 10 ethereum @ 3,000.
    func testASwap() throws {
        let engine = try self.engine()
        try buy(engine, "bitcoin", "1", at: "20000", day: 1)
        let trade = try engine.addTrade(
            json:
                #"{"timestamp":"2024-01-05","sent":{"coin_id":"bitcoin","amount":0.5},"received":{"coin_id":"ethereum","amount":10},"value":30000}"#
        )
        XCTAssertEqual(trade.transactions.map(\.kind), [.sell, .buy])
        XCTAssertEqual(trade.transactions.map(\.price), [e("60000"), e("3000")])
        XCTAssertEqual(trade.transactions.map(\.groupID), [trade.groupID, trade.groupID])
        XCTAssertNotNil(trade.groupID)
        XCTAssertTrue(trade.json.hasPrefix(#"{"group_id":""#), trade.json)
        let report = try engine.pnl()
        XCTAssertEqual(report.coins.first { $0.coinID == "bitcoin" }?.realizedPnL, p("20000"))
        XCTAssertEqual(report.coins.first { $0.coinID == "ethereum" }?.costBasis, p("30000"))
        // Without a value and without stored prices, both legs are pending.
        let pending = try engine.addTrade(
            Trade(timestamp: day(6), sent: .init(coinID: "ethereum", amount: 1), received: .init(coinID: "solana", amount: 20)))
        XCTAssertEqual(pending.transactions.map(\.price), [nil, nil])
        XCTAssertEqual(pending.transactions.map(\.priceSource), [.pending, .pending])
        XCTAssertEqual(try engine.pnl().coins.first { $0.coinID == "solana" }?.costBasisCoverage, 0)
    }

    /// main: buy 2 BTC @ 100 (t1), buy 1 @ 300 (t2); move 1.5 main → cold, received 1.4 (t3);
    /// cold sells 1.4 @ 400 (t4). fifo: cold realizes 410, main keeps cost 350; hifo: 210 and 150.
    func testAMoveBetweenPortfolios() throws {
        let engine = try self.engine()
        try engine.createPortfolio(name: "cold")
        try buy(engine, "bitcoin", "2", at: "100", day: 1)
        try buy(engine, "bitcoin", "1", at: "300", day: 2)
        let move = try engine.move(
            json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":1.5,"received_amount":1.4,"timestamp":"2024-01-04"}"#)
        XCTAssertEqual(move.transactions.map(\.kind), [.transferOut, .transferIn])
        XCTAssertEqual(move.transactions.map(\.portfolio), ["main", "cold"])
        XCTAssertEqual(try engine.transactions(TransactionQuery(groupID: move.groupID)).total, 2, "a group query spans portfolios")
        try engine.addTransaction(
            Transaction(portfolio: "cold", coinID: "bitcoin", kind: .sell, amount: e("1.4"), price: 400, timestamp: day(4)))
        XCTAssertEqual(try engine.pnl(PnLOptions(portfolio: "cold")).coins[0].realizedPnL, p("410"))
        XCTAssertEqual(try engine.pnl(PnLOptions(portfolio: "main")).coins[0].costBasis, p("350"))
        XCTAssertEqual(try engine.pnl(PnLOptions(portfolio: "cold", method: .hifo)).coins[0].realizedPnL, p("210"))
        XCTAssertEqual(try engine.pnl(PnLOptions(portfolio: "main", method: .hifo)).coins[0].costBasis, p("150"))
        XCTAssertEqual(try engine.pnl(PnLOptions(portfolio: "main")).coins[0].realizedPnL, .zero, "a move realizes nothing")
    }

    /// Lots 2 @ 3 then 5 @ 1; sell 1 @ 4 → realized fifo 1, lifo 3, hifo 1, lofo 3.
    func testTheFourLotOrders() throws {
        let engine = try self.engine()
        try buy(engine, "x-coin", "2", at: "3", day: 1)
        try buy(engine, "x-coin", "5", at: "1", day: 2)
        try engine.addTransaction(json: #"{"coin_id":"x-coin","kind":"sell","amount":1,"price":4,"timestamp":"2024-01-04"}"#)
        for (method, realized) in [("fifo", "1"), ("lifo", "3"), ("hifo", "1"), ("lofo", "3")] {
            let report = try engine.pnl(PnLOptions(json: #"{"method":"\#(method)"}"#))
            XCTAssertEqual(report.coins[0].realizedPnL, p(realized), method)
            XCTAssertTrue(report.json.contains(#""method":"\#(method)""#))
        }
        let error = assertThrows(.invalidArgument) { try PnLOptions(json: #"{"method":"fofi"}"#) }
        XCTAssertTrue(error?.message.contains("hifo") ?? false)
    }

    // MARK: - Groups

    func testDeletingOneLegDeletesTheWholeGroup() throws {
        let engine = try self.engine()
        try buy(engine, "bitcoin", "1", at: "100", day: 1)
        try buy(engine, "binancecoin", "1", at: "300", day: 1)
        let before = try everything(engine)
        let trade = try engine.addTrade(
            Trade(
                timestamp: day(2), sent: .init(coinID: "bitcoin", amount: 1), received: .init(coinID: "ethereum", amount: 20), value: 60000,
                fee: e("0.1"), feeCoinID: "binancecoin"))
        XCTAssertEqual(trade.transactions.map(\.kind), [.sell, .buy, .fee])
        XCTAssertEqual(try engine.transactions().total, 5)
        let feeRow = try XCTUnwrap(trade.transactions[2].id)
        try engine.deleteTransaction(id: String(feeRow))
        XCTAssertEqual(try everything(engine), before, "the fee row took its trade with it")
        XCTAssertEqual(try engine.store.holdings().map(\.coinID), ["binancecoin", "bitcoin"])
    }

    func testAGroupThatWouldLeaveAnyCoinShortIsRefusedWhole() throws {
        let engine = try self.engine()
        try engine.createPortfolio(name: "cold")
        try buy(engine, "bitcoin", "1", at: "100", day: 1)
        let before = try everything(engine)
        // The sent coin short.
        var error = assertThrows(.invalidArgument) {
            try engine.addTrade(
                Trade(
                    timestamp: day(2), sent: .init(coinID: "bitcoin", amount: 2), received: .init(coinID: "ethereum", amount: 1), value: 1))
        }
        XCTAssertEqual(error?.details["coin_id"], .string("bitcoin"))
        XCTAssertEqual(error?.details["short_by"], .number(1))
        // The fee's coin short: the trade itself would fit.
        error = assertThrows(.invalidArgument) {
            try engine.addTrade(
                Trade(
                    timestamp: day(2), sent: .init(coinID: "bitcoin", amount: 1), received: .init(coinID: "ethereum", amount: 1), value: 1,
                    fee: 1, feeCoinID: "binancecoin"))
        }
        XCTAssertEqual(error?.details["coin_id"], .string("binancecoin"))
        // A move out of more than is held.
        error = assertThrows(.invalidArgument) {
            try engine.move(Move(from: "main", to: "cold", coinID: "bitcoin", amount: 3, timestamp: day(2)))
        }
        XCTAssertEqual(error?.details["short_by"], .number(2))
        XCTAssertEqual(try everything(engine), before)
        // Deleting a move whose received coins were sold later is refused too.
        try engine.move(Move(from: "main", to: "cold", coinID: "bitcoin", amount: 1, timestamp: day(3)))
        try engine.addTransaction(Transaction(portfolio: "cold", coinID: "bitcoin", kind: .sell, amount: 1, price: 5, timestamp: day(4)))
        let out = try XCTUnwrap(try engine.transactions().transactions.last?.id)
        let kept = try everything(engine)
        error = assertThrows(.invalidArgument) { try engine.deleteTransaction(id: String(out)) }
        XCTAssertEqual(error?.details["coin_id"], .string("bitcoin"))
        XCTAssertEqual(try everything(engine), kept)
    }

    func testAMoveBetweenPortfoliosOfDifferentCurrenciesIsRefused() throws {
        let engine = try self.engine()
        try engine.createPortfolio(name: "euro", vsCurrency: "eur")
        try buy(engine, "bitcoin", "1", at: "100", day: 1)
        let before = try everything(engine)
        let error = assertThrows(.invalidArgument) {
            try engine.move(json: #"{"from":"main","to":"euro","coin_id":"bitcoin","amount":1}"#)
        }
        XCTAssertEqual(error?.details["reason"], .string("currency"))
        XCTAssertEqual(try everything(engine), before)
        assertThrows(.notFound) { try engine.move(json: #"{"from":"main","to":"nowhere","coin_id":"bitcoin","amount":1}"#) }
    }

    /// Every bad input of issue 24 is CF_INVALID_ARGUMENT with details.field, the ledger unchanged.
    func testBadInputsNameTheirFieldAndChangeNothing() throws {
        let engine = try self.engine()
        try engine.createPortfolio(name: "cold")
        try buy(engine, "bitcoin", "2", at: "100", day: 1)
        let before = try everything(engine)
        let transactions: [(String, String)] = [
            (#"{"coin_id":"ethereum","kind":"income","amount":1,"price":1}"#, "income_type"),
            (#"{"coin_id":"ethereum","kind":"income","income_type":"lottery","amount":1,"price":1}"#, "income_type"),
            (#"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":"binancecoin","fee_price":-1}"#, "fee_price"),
            (#"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":"not/an id"}"#, "fee_coin_id"),
        ]
        for (json, field) in transactions {
            let error = assertThrows(.invalidArgument) { try engine.addTransaction(json: json) }
            XCTAssertEqual(error?.details["field"], .string(field), json)
        }
        let trades: [(String, String)] = [
            (#"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"usd","amount":100}}"#, "received.coin_id"),
            (#"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"bitcoin","amount":1}}"#, "received.coin_id"),
        ]
        for (json, field) in trades {
            let error = assertThrows(.invalidArgument) { try engine.addTrade(json: json) }
            XCTAssertEqual(error?.details["field"], .string(field), json)
        }
        let error = assertThrows(.invalidArgument) {
            try engine.move(json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":1,"received_amount":2}"#)
        }
        XCTAssertEqual(error?.details["field"], .string("received_amount"))
        XCTAssertEqual(try everything(engine), before)
    }

    // MARK: - Income, pending prices, exact money

    func testIncomeAndPendingPrices() throws {
        let engine = try self.engine()
        try engine.addTransaction(
            json: #"{"coin_id":"ethereum","kind":"income","income_type":"staking","amount":2,"price":5,"timestamp":"2024-01-02"}"#)
        let pending = try engine.addTransaction(
            json: #"{"coin_id":"ethereum","kind":"income","income_type":"airdrop","amount":1,"timestamp":"2024-01-03"}"#)
        XCTAssertNil(pending.price)
        XCTAssertEqual(pending.priceSource, .pending)
        XCTAssertTrue(pending.json.contains(#""income_type":"airdrop""#))
        XCTAssertTrue(pending.json.contains(#""price":null"#))
        XCTAssertTrue(pending.json.contains(#""price_source":"pending""#))
        try load(engine, ["ethereum": "8"])
        let report = try engine.pnl()
        let eth = report.coins[0]
        XCTAssertEqual(eth.income, p("10"))
        XCTAssertEqual(eth.incomeCoverage, 2.0 / 3.0)
        XCTAssertEqual(eth.costBasis, p("10"))
        XCTAssertEqual(eth.unrealizedPnL, p("6"), "2 known units × 8 − 10; the pending unit is left out, never valued at 0")
        XCTAssertEqual(report.totalIncome, p("10"))
        XCTAssertTrue(report.json.contains(#""income":10,"income_coverage":0.6666666666666666"#), report.json)
    }

    /// Issue 31: 1e-18 units at 0.000002 valued at 0.000004 → cost basis 2e-24, value 4e-24,
    /// unrealized 2e-24; two buys of 1 at 8e19 with fee 8e19 → cost basis 3.2e20, and statistics
    /// agree with pnl.
    func testDustAndHugeValuesStayExactAndStatisticsAgree() throws {
        let engine = try self.engine()
        try engine.addTransaction(
            json: #"{"coin_id":"dust","kind":"buy","amount":"0.000000000000000001","price":"0.000002","timestamp":"2024-01-01"}"#)
        try load(engine, ["dust": "0.000004", "huge": "80000000000000000000"])
        var json = try engine.pnl().json
        XCTAssertTrue(json.contains(#""cost_basis":2e-24"#), json)
        XCTAssertTrue(json.contains(#""current_value":4e-24"#), json)
        XCTAssertTrue(json.contains(#""unrealized_pnl":2e-24"#), json)
        for n in 1...2 {
            try engine.addTransaction(
                json:
                    #"{"coin_id":"huge","kind":"buy","amount":1,"price":"80000000000000000000","fee":"80000000000000000000","timestamp":"2024-01-0\#(n)"}"#
            )
        }
        let report = try engine.pnl()
        let huge = try XCTUnwrap(report.coins.first { $0.coinID == "huge" })
        XCTAssertEqual(huge.costBasis, p("320000000000000000000"))
        XCTAssertEqual(huge.unrealizedPnL, p("-160000000000000000000"))
        json = report.json
        XCTAssertTrue(json.contains(#""cost_basis":320000000000000000000"#), json)
        let statistics = try engine.statistics()
        let unrealized = try XCTUnwrap(statistics.first { $0.title == "Unrealized P&L" })
        XCTAssertEqual(unrealized.value, NumberFormat.value(try XCTUnwrap(report.totalUnrealizedPnL).double, vsCurrency: .usd))
        XCTAssertTrue(unrealized.value.hasPrefix("-"), unrealized.value)
    }

    /// A holding past what the ledger keeps exactly (8.5e19 units) is refused, never wrapped.
    func testAHoldingPastTheLedgersRangeIsOutOfRange() throws {
        let engine = try self.engine()
        try buy(engine, "x-coin", "50000000000000000000", at: "1", day: 1)
        let before = try everything(engine)
        let error = assertThrows(.invalidArgument) { try buy(engine, "x-coin", "50000000000000000000", at: "1", day: 2) }
        XCTAssertEqual(error?.details["reason"], .string("out_of_range"))
        XCTAssertEqual(error?.details["field"], .string("amount"))
        XCTAssertEqual(try everything(engine), before)
        let csv = "timestamp,coin_id,kind,amount\n2024-02-01,x-coin,buy,50000000000000000000\n"
        let imported = assertThrows(.invalidArgument) {
            try csv.utf8CString.withUnsafeBytes { try engine.importCSV(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
        }
        XCTAssertEqual(imported?.details["reason"], .string("out_of_range"))
        XCTAssertEqual(try everything(engine), before)
    }

    /// A trade's fee in the coin it sends, without fee_price, takes the sell leg's price (our rule
    /// where §16 is silent, as Koinly values it): 2 SOL for 300 USDC, fee 0.01 SOL → the fee
    /// row is 0.01 SOL @ 150 = 1.50, not pending (a new user's finding), and it adds to the
    /// USDC lot's cost: 301.50.
    func testATradeFeeInTheSentCoinTakesTheSellLegsPrice() throws {
        let engine = try self.engine()
        try buy(engine, "solana", "3", at: "100", day: 1)
        let group = try engine.addTrade(
            json:
                #"{"timestamp":"2024-02-01T00:00:00Z","sent":{"coin_id":"solana","amount":2},"received":{"coin_id":"usd-coin","amount":300},"value":300,"fee":"0.01","fee_coin_id":"solana"}"#
        )
        XCTAssertEqual(group.transactions.map(\.kind), [.sell, .buy, .fee])
        XCTAssertEqual(group.transactions.map(\.price), [150, 1, 150])
        XCTAssertEqual(group.transactions[2].priceSource, .user)
        let usdc = try XCTUnwrap(try engine.pnl().coins.first { $0.coinID == "usd-coin" })
        XCTAssertEqual(usdc.costBasis, p("301.50"))
    }

    /// A trade priced by division can have 37 digits (19 whole, 18 fraction): the stored prices
    /// read back, and `transactions` and `pnl` answer (the reader refused them as "a bad price",
    /// which made the whole ledger unreadable; a breaker's finding). 85e18 / 33.33 =
    /// 2,550,255,025,502,550,255.02550255025502550255… → 18 places (Python's decimal module).
    func testATradePricedToThirtySevenDigitsReadsBack() throws {
        let engine = try self.engine()
        try buy(engine, "bitcoin", "100", at: "1", day: 1)
        let group = try engine.addTrade(
            json:
                #"{"timestamp":"2024-02-01T00:00:00Z","sent":{"coin_id":"bitcoin","amount":"77.5002496893769665"},"received":{"coin_id":"ethereum","amount":33.33},"value":"85000000000000000000"}"#
        )
        XCTAssertEqual(
            group.transactions.map(\.price), [e("1096770659974415946.465335449651273383"), e("2550255025502550255.025502550255025503")])
        let stored = try engine.transactions(TransactionQuery(portfolio: "main")).transactions
        XCTAssertEqual(stored.filter { $0.groupID != nil }.map(\.price), group.transactions.map(\.price))
        XCTAssertNoThrow(try engine.pnl())
    }

    /// A fee in a coin without its price, on a file database once the version check (at most
    /// once a second) is due: the write's price lookup read the database the write held and
    /// waited for itself for ever (a breaker's finding). It now takes the snapshot in memory.
    func testAFeeInACoinWithoutItsPriceDoesNotWaitForItsOwnWrite() throws {
        let engine = try self.engine()
        try buy(engine, "bitcoin", "1", at: "40000", day: 1)
        Thread.sleep(forTimeInterval: 1.1)
        let done = expectation(description: "the trade returns")
        let written = Mutex<Int?>(nil)
        DispatchQueue.global().async {
            let group = try? engine.addTrade(
                json:
                    #"{"timestamp":"2024-02-01T00:00:00Z","sent":{"coin_id":"bitcoin","amount":0.1},"received":{"coin_id":"ethereum","amount":2},"value":4000,"fee":0.001,"fee_coin_id":"bitcoin"}"#
            )
            written.withLock { $0 = group?.transactions.count }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        XCTAssertEqual(written.withLock { $0 }, 3)  // the sell, the buy and the fee row
    }

    // MARK: - CSV

    /// The long header round-trips every new field: a trade with a fee in a coin, a move, income,
    /// a pending price; export of every portfolio → import into an empty database → export.
    func testCSVRoundTripsTheLongHeader() throws {
        let source = try self.engine()
        try source.createPortfolio(name: "cold")
        try buy(source, "bitcoin", "2", at: "100", day: 1)
        try buy(source, "binancecoin", "1", at: "300", day: 1)
        try source.addTrade(
            Trade(
                timestamp: day(2), sent: .init(coinID: "bitcoin", amount: 1), received: .init(coinID: "ethereum", amount: 20),
                value: 60000, fee: e("0.01"), feeCoinID: "binancecoin", feePrice: 310, note: "swap, \"quoted\""))
        try source.move(Move(from: "main", to: "cold", coinID: "bitcoin", amount: 1, receivedAmount: e("0.9"), timestamp: day(3)))
        try source.addTransaction(
            json: #"{"coin_id":"ethereum","kind":"income","income_type":"staking","amount":"0.5","timestamp":"2024-01-05"}"#)
        let exported = String(decoding: try source.exportCSV(portfolio: nil), as: UTF8.self)
        let lines = exported.split(separator: "\r\n", omittingEmptySubsequences: false)
        XCTAssertEqual(
            lines[0], "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,fee_price,income_type,group_id")
        XCTAssertEqual(lines.count, 9, "header, 7 rows and the end: the fee row is not written, its price is in fee_price")
        XCTAssertTrue(exported.contains(",binancecoin,310,,"), exported)
        XCTAssertTrue(exported.contains(",staking,\r\n"), exported)
        XCTAssertEqual(
            try source.importCSV(contentsOf: try write(exported)), ImportSummary(imported: 0, skipped: 7), "its own export: nothing")
        let target = try self.engine()
        XCTAssertEqual(try target.importCSV(contentsOf: try write(exported)), ImportSummary(imported: 7, skipped: 0))
        XCTAssertEqual(try target.transactions().total, 7, "the fee row recreated")
        for portfolio in ["main", "cold"] {
            for method in CostBasisMethod.allCases {
                XCTAssertEqual(
                    try target.pnl(PnLOptions(portfolio: portfolio, method: method)),
                    try source.pnl(PnLOptions(portfolio: portfolio, method: method)), "\(portfolio) \(method)")
            }
        }
        // Export again: the same text but for group ids (fresh on import) and the own-export ids.
        func normalized(_ text: String) -> String {
            text.replacing(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "G")
                .replacing(/coinfolio:[0-9]+/, with: "own")
        }
        XCTAssertEqual(normalized(String(decoding: try target.exportCSV(portfolio: nil), as: UTF8.self)), normalized(exported))
        // The §12 header still imports.
        let short = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n2024-02-01,main,dogecoin,buy,3,0.1,0,,d1\n"
        XCTAssertEqual(try target.importCSV(contentsOf: try write(short)), ImportSummary(imported: 1, skipped: 0))
    }

    private func write(_ text: String) throws -> URL {
        let url = try temporaryDirectory(self).appendingPathComponent("\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        return url
    }
}
