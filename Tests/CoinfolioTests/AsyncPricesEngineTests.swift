import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §21's async counterparts of SPEC §17's price calls and SPEC §18's import, against the
/// loopback server's range route (Tests/fixtures/coingecko/price_history.json): the same answers
/// as the blocking calls; a cancelled `fill_prices` stops its requests and fills no row, a
/// cancelled import writes nothing (events asserted, never durations). SQLite and PostgreSQL.
final class AsyncPricesEngineTests: PriceServerTestCase {
    /// The server started here, on the main thread: one started inside an async test's task
    /// would be waited for in `tearDown` on a run loop that never hears it exit.
    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServer()
    }

    /// One staking reward of 1 unit of each coin, its price pending, at 12:30 `days` days ago.
    private func pendingIncome(_ engine: PortfolioEngine, coins: [String], days: Int64) throws {
        for coin in coins {
            try engine.addTransaction(
                Transaction(
                    coinID: coin, kind: .income, amount: 1, timestamp: dayStart(days) + 12 * hour + 30 * minute, incomeType: .staking))
        }
    }

    /// set_price and price_at awaited: the manual point of 2024-03-01 answers for 18:00 that day.
    func testAsyncSetPriceAndPriceAtAnswerAsTheBlockingOnes() async throws {
        let engine = try engine()
        defer { engine.close() }
        try await engine.setPrice(json: #"{"coin_id":"my-token","timestamp":"2024-03-01T12:00:00Z","price":"0.4"}"#)
        let query = try PriceQuery(json: #"{"coin_id":"my-token","timestamp":"2024-03-01T18:00:00Z"}"#)
        let awaited = try await engine.priceAt(query, fetch: false)
        XCTAssertEqual(awaited.price, 0.4)
        let direct = try blocking { try engine.priceAt(query, fetch: false) }
        XCTAssertEqual(awaited, direct)
        XCTAssertEqual(try rangeRequests(), 0)
    }

    /// Three coins' pending rows: an awaited fill takes 3 requests and fills the 3 rows.
    func testAsyncFillPricesAnswersAsTheBlockingOne() async throws {
        let engine = try engine()
        defer { engine.close() }
        try pendingIncome(engine, coins: ["bitcoin", "ethereum", "dogecoin"], days: 20)
        let fill = try await engine.fillPrices()
        XCTAssertEqual(fill.filled, 3)
        XCTAssertEqual(fill.requests, 3)
        XCTAssertEqual(fill.missing, [])
    }

    /// Cancelled after its first range request (from the progress handler's "prices 1/3"): no
    /// further request is sent and every row stays pending; the first request's points stay
    /// stored, so the next fill sends only the other two and fills all three.
    func testFillPricesCancelledBetweenRequestsFillsNoRow() async throws {
        let engine = try engine()
        defer { engine.close() }
        try pendingIncome(engine, coins: ["bitcoin", "ethereum", "dogecoin"], days: 20)
        await assertCancelled(engine, when: { $0.phase == .prices && $0.done == 1 && $0.total == 3 }) { try await engine.fillPrices() }
        XCTAssertEqual(try rangeRequests(), 1)
        let rows = try await engine.transactions().transactions
        XCTAssertEqual(rows.map(\.priceSource), [.pending, .pending, .pending])
        let fill = try await engine.fillPrices()
        XCTAssertEqual(fill.filled, 3)
        XCTAssertEqual(fill.requests, 2)
    }

    /// A 3,000-row Binance statement of deposits, cancelled once 1,000 rows are read: nothing is
    /// written; the same bytes import whole when nobody cancels.
    func testImportFileCancelledMidwayWritesNothing() async throws {
        let engine = try engine()
        defer { engine.close() }
        var csv = "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n"
        let start = Date(timeIntervalSince1970: 1_640_995_200)  // 2022-01-01 00:00:00 UTC
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for row in 0..<3000 { csv += "12345678,\(format.string(from: start + Double(row * 60))),Spot,Deposit,USDT,1,\n" }
        let bytes = Data(csv.utf8)
        await assertCancelled(engine, when: { $0.phase == .import && $0.done == 1000 }) { try await engine.importFile(bytes) }
        let left = try await engine.transactions().transactions
        XCTAssertEqual(left.count, 0)
        let report = try await engine.importFile(bytes, optionsJSON: nil)
        XCTAssertEqual(report.imported, 3000)
    }
}
