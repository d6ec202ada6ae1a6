import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// SPEC §17 `fill_prices` through the engine, against the loopback server's range route
/// (Tests/fixtures/coingecko/price_history.json: bitcoin is 40,000 + 10 usd per hour of the day,
/// ethereum 110 + 1 usd and 100 + 1 eur, dogecoin 0.1 + 0.001 usd; hourly points at hh:02, daily
/// ones at 00:00 UTC for ranges over 90 days). Runs on SQLite and, in the PostgreSQL pass, on a
/// database of its own per test (price points are shared by every owner of a database).
final class FillPricesEngineTests: PriceServerTestCase {
    /// `count` staking rewards of 1 unit, their price pending, cycling through `coins`, one a day
    /// at 12:30 from `first` days ago (going forward a day each).
    @discardableResult
    private func pendingIncome(_ engine: PortfolioEngine, coins: [String], count: Int, first: Int64) throws -> [Transaction] {
        try (0..<count).map { index in
            try engine.addTransaction(
                Transaction(
                    coinID: coins[index % coins.count], kind: .income, amount: 1,
                    timestamp: dayStart(first) + Int64(index * 2 / 3) * day + 12 * hour + 30 * minute, incomeType: .staking))
        }
    }

    /// 300 pending rows over 3 coins spanning 200 days: 3 requests, each a daily range (over 90
    /// days), so every row takes its day's 00:00 point: bitcoin 40,000, dogecoin 0.1, ethereum 110.
    func testThreeHundredRowsOverThreeCoinsAndTwoHundredDaysTakeThreeRequests() throws {
        let engine = try engine()
        defer { engine.close() }
        let rows = try pendingIncome(engine, coins: ["bitcoin", "ethereum", "dogecoin"], count: 300, first: 201)
        XCTAssertEqual(rows.first?.priceSource, .pending)
        XCTAssertNil(rows.first?.price)
        let reports = Mutex<[WorkProgress]>([])
        engine.setProgressHandler { progress in reports.withLock { $0.append(progress) } }
        let fill = try engine.fillPrices()
        XCTAssertEqual(fill.filled, 300)
        XCTAssertEqual(fill.requests, 3)
        XCTAssertEqual(fill.missing, [])
        XCTAssertEqual(try rangeRequests(), 3)
        let queries = try XCTUnwrap(server?.log().compactMap { $0["query"] as? [String: String] })
        // In coin order: bitcoin and ethereum from 201 days ago, dogecoin (the third row) from 200.
        XCTAssertEqual(queries.map { $0["from"] }, [dayStart(201), dayStart(200), dayStart(201)].map { String($0 / 1000) })
        let transactions = try engine.transactions(TransactionQuery(limit: 1000)).transactions
        let prices = Dictionary(grouping: transactions, by: \.coinID).mapValues { Set($0.map(\.price)) }
        XCTAssertEqual(prices["bitcoin"], [40_000])
        XCTAssertEqual(prices["ethereum"], [110])
        XCTAssertEqual(prices["dogecoin"], [ExactDecimal("0.1")])
        let first = try XCTUnwrap(transactions.first)
        XCTAssertEqual(first.priceSource, .coingecko)
        XCTAssertEqual(first.priceAt, UTCDay.start(of: first.timestamp))
        XCTAssertEqual(
            reports.withLock { $0 }.map { "\($0.phase.rawValue) \($0.done)/\($0.total.map(String.init) ?? "-")" },
            ["prices 0/3", "prices 1/3", "prices 2/3", "prices 3/3"])
        // Nothing is pending any more: a second fill sends nothing.
        XCTAssertEqual(try engine.fillPrices(), PriceFill(filled: 0, requests: 0, missing: []))
        XCTAssertEqual(try rangeRequests(), 3)
    }

    /// A 429 with Retry-After 119 on the first request stops the fill: every row still pending is
    /// listed as rate_limited, and a fill before the wait ends sends nothing.
    func testA429StopsTheFillAndTheNextFillBeforeTheWaitSendsNothing() throws {
        let engine = try engine()
        defer { engine.close() }
        let rows = try pendingIncome(engine, coins: ["bitcoin", "ethereum"], count: 4, first: 20)
        try server?.fault([
            "path": "/api/v3/coins/bitcoin/market_chart/range", "status": 429, "headers": ["Retry-After": "119"],
            "body": #"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit"}}"#,
        ])
        let fill = try engine.fillPrices()
        XCTAssertEqual(fill.filled, 0)
        XCTAssertEqual(fill.requests, 1)
        XCTAssertEqual(fill.missing.map(\.transactionID), rows.compactMap(\.id))
        XCTAssertEqual(Set(fill.missing.map(\.reason)), [.rateLimited])
        XCTAssertEqual(fill.missing.first?.coinID, "bitcoin")
        XCTAssertEqual(fill.missing.first?.timestamp, rows.first?.timestamp)
        XCTAssertEqual(try rangeRequests(), 1)
        let again = try engine.fillPrices()
        XCTAssertEqual(again.requests, 0)
        XCTAssertEqual(again.missing.count, 4)
        XCTAssertEqual(Set(again.missing.map(\.reason)), [.rateLimited])
        XCTAssertEqual(try rangeRequests(), 1, "nothing is sent before the wait ends")
        XCTAssertEqual(try engine.transactions().transactions.map(\.priceSource), Array(repeating: .pending, count: 4))
    }

    func testMaxRequestsLeavesTheRestListedAndEachReasonIsSaid() throws {
        let engine = try engine()
        defer { engine.close() }
        try pendingIncome(engine, coins: ["bitcoin", "dogecoin", "ethereum"], count: 3, first: 10)
        let limited = try engine.fillPrices(FillOptions(portfolio: nil, maxRequests: 2))
        XCTAssertEqual(limited.filled, 2)
        XCTAssertEqual(limited.requests, 2)
        XCTAssertEqual(limited.missing.map { "\($0.coinID) \($0.reason.rawValue)" }, ["ethereum max_requests"])
        // No point (a coin without trades), unknown to CoinGecko, beyond the plan's year, in the future.
        let old = try engine.addTransaction(
            Transaction(coinID: "tether", kind: .income, amount: 1, timestamp: dayStart(400), incomeType: .gift))
        let future = try engine.addTransaction(
            Transaction(coinID: "tether", kind: .income, amount: 1, timestamp: PortfolioEngine.nowMilliseconds() + day, incomeType: .gift))
        let none = try engine.addTransaction(
            Transaction(coinID: "boringdao-[old]", kind: .income, amount: 1, timestamp: dayStart(3), incomeType: .airdrop))
        let unknown = try engine.addTransaction(
            Transaction(coinID: "no-such-coin", kind: .income, amount: 1, timestamp: dayStart(3), incomeType: .airdrop))
        let fill = try engine.fillPrices(FillOptions(json: #"{"max_requests":20}"#))
        XCTAssertEqual(fill.filled, 1)  // ethereum
        XCTAssertEqual(fill.requests, 3)  // ethereum, boringdao-[old], no-such-coin
        let reasons = Dictionary(uniqueKeysWithValues: fill.missing.map { ($0.transactionID, $0.reason) })
        XCTAssertEqual(try XCTUnwrap(old.id).map { reasons[$0] }, .historyLimit)
        XCTAssertEqual(try XCTUnwrap(future.id).map { reasons[$0] }, .noPoint)
        XCTAssertEqual(try XCTUnwrap(none.id).map { reasons[$0] }, .noPoint)
        XCTAssertEqual(try XCTUnwrap(unknown.id).map { reasons[$0] }, .unknownCoin)
        XCTAssertTrue(fill.json.contains(#""reason":"history_limit""#), fill.json)
    }

    /// A pending price is unknown in P&L, with its coverage, never 0; filled, it counts.
    func testAPendingRowsPnLIsUnknownWithItsCoverageUntilFilled() throws {
        let engine = try engine()
        defer { engine.close() }
        let when = dayStart(5) + 12 * hour + 30 * minute
        try engine.addTransaction(Transaction(coinID: "ethereum", kind: .buy, amount: 1, price: 100, timestamp: when - day))
        try engine.addTransaction(Transaction(coinID: "ethereum", kind: .buy, amount: 1, timestamp: when))
        try engine.addTransaction(Transaction(coinID: "ethereum", kind: .income, amount: 2, timestamp: when, incomeType: .staking))
        var coin = try XCTUnwrap(try engine.pnl().coins.first)
        XCTAssertEqual(coin.costBasis, PreciseDecimal(100))
        XCTAssertEqual(coin.costBasisCoverage, 0.25)
        XCTAssertEqual(coin.income, PreciseDecimal.zero)
        XCTAssertEqual(coin.incomeCoverage, 0)
        XCTAssertEqual(try engine.fillPrices().filled, 2)
        coin = try XCTUnwrap(try engine.pnl().coins.first)
        // 12:30 takes the 12:02 point: 110 + 12 = 122 usd.
        XCTAssertEqual(coin.costBasis, PreciseDecimal(100 + 122 + 2 * 122))
        XCTAssertEqual(coin.costBasisCoverage, 1)
        XCTAssertEqual(coin.income, PreciseDecimal(244))
        XCTAssertEqual(coin.incomeCoverage, 1)
    }

    /// SPEC §17's example: a buy of 1 coin at 100 eur in a usd portfolio, on a day the coin was
    /// 110 usd and 100 eur, costs 110 usd and keeps original_price 100 and price_currency eur; its
    /// fee of 2 eur is 2.2 usd. Pending until both points exist; converted at once when they do.
    func testAPriceInEurosIsConvertedWithTheCoinsPricesOfThatDay() throws {
        let engine = try engine()
        defer { engine.close() }
        let when = dayStart(6) + 30 * minute  // 00:30: the 00:02 points, 110 usd and 100 eur
        let buy = try engine.addTransaction(
            json:
                #"{"coin_id":"ethereum","kind":"buy","amount":1,"price":100,"fee":"2","price_currency":"EUR","timestamp":"\#(LedgerTimestamp.format(when))"}"#
        )
        XCTAssertNil(buy.price)
        XCTAssertEqual(buy.priceSource, .pending)
        XCTAssertEqual(buy.originalPrice, 100)
        XCTAssertEqual(buy.priceCurrency, "eur")
        XCTAssertNil(try engine.pnl().coins.first?.fees, "a fee in euros is unknown in usd until converted")
        let fill = try engine.fillPrices()
        XCTAssertEqual(fill.filled, 1)
        XCTAssertEqual(fill.requests, 2)  // usd and eur
        let stored = try XCTUnwrap(try engine.transactions().transactions.first)
        XCTAssertEqual(stored.price, 110)
        XCTAssertEqual(stored.fee, ExactDecimal("2.2"))
        XCTAssertEqual(stored.originalPrice, 100)
        XCTAssertEqual(stored.priceCurrency, "eur")
        XCTAssertEqual(stored.priceSource, .user)
        XCTAssertEqual(stored.priceAt, UTCDay.start(of: when) + 2 * minute)
        XCTAssertEqual(try engine.pnl().coins.first?.costBasis, PreciseDecimal(ExactDecimal("112.2") ?? 0))
        // The points are stored now: a second such buy is converted when it is written.
        let second = try engine.addTransaction(
            Transaction(coinID: "ethereum", kind: .buy, amount: 2, price: 50, timestamp: when, priceCurrency: "eur"))
        XCTAssertEqual(second.price, 55)
        XCTAssertEqual(second.originalPrice, 50)
        XCTAssertEqual(second.priceSource, .user)
        // The portfolio's own currency is no conversion.
        let plain = try engine.addTransaction(
            Transaction(coinID: "ethereum", kind: .buy, amount: 1, price: 7, timestamp: when, priceCurrency: "usd"))
        XCTAssertEqual(plain.price, 7)
        XCTAssertNil(plain.priceCurrency)
        XCTAssertNil(plain.originalPrice)
        XCTAssertEqual(try rangeRequests(), 2)
    }

    /// A trade without a value: both legs pending; filled, the received coin's price × its amount
    /// is the value of both legs (SPEC §16): 0.001 bitcoin at 12:30 (the 12:02 point, 40,120 usd)
    /// is 40.12, so the ethereum sold is 40.12 a unit.
    func testATradeWithoutAValueTakesTheReceivedCoinsPrice() throws {
        let engine = try engine()
        defer { engine.close() }
        let when = dayStart(4) + 12 * hour + 30 * minute
        try engine.addTransaction(Transaction(coinID: "ethereum", kind: .buy, amount: 1, price: 100, timestamp: when - day))
        let trade = try engine.addTrade(
            Trade(
                timestamp: when, sent: Trade.Side(coinID: "ethereum", amount: 1),
                received: Trade.Side(coinID: "bitcoin", amount: ExactDecimal("0.001") ?? 0)))
        XCTAssertEqual(trade.transactions.map(\.priceSource), [.pending, .pending])
        let fill = try engine.fillPrices()
        XCTAssertEqual(fill.filled, 2)
        XCTAssertEqual(fill.requests, 1, "the sent coin is not asked for")
        let legs = try engine.transactions(TransactionQuery(groupID: trade.groupID)).transactions
        XCTAssertEqual(legs.map(\.kind), [.sell, .buy])
        XCTAssertEqual(legs.map(\.price), [ExactDecimal("40.12"), 40_120])
        XCTAssertEqual(legs.map(\.priceSource), [.coingecko, .coingecko])
    }

    func testBadOptionsAreRefusedAndChangeNothing() throws {
        let engine = try engine()
        defer { engine.close() }
        try pendingIncome(engine, coins: ["bitcoin"], count: 1, first: 3)
        for bad in [
            #"{"max_requests":-1}"#, #"{"max_requests":1001}"#, #"{"max_requests":"2"}"#, #"{"max_requests":1.5}"#,
            #"{"portfolio":" main"}"#, #"{"portfolio":7}"#, "[]", "{", "",
            // Found by make fuzz: a number beyond a double's range in a key nobody reads.
            #"{"vs_curkkkkkrency":"usd","from":1701e400920,"to":"2024-03-02T00:00:0{.5+01:00"}"#,
        ] {
            assertThrows(.invalidArgument) { try engine.fillPrices(json: bad) }
        }
        assertThrows(.notFound) { try engine.fillPrices(json: #"{"portfolio":"nowhere"}"#) }
        XCTAssertEqual(try rangeRequests(), 0)
        XCTAssertEqual(try engine.transactions().transactions.first?.priceSource, .pending)
        // max_requests 0 sends nothing and says why.
        XCTAssertEqual(try engine.fillPrices(json: #"{"max_requests":0}"#).missing.map(\.reason), [.maxRequests])
    }
}
