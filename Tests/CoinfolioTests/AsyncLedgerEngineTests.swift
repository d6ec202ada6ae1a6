import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §21's async counterparts of SPEC §16's grouped writes and the CSV export, on SQLite and
/// (make test-postgres) PostgreSQL: the answers of `LedgerHistoryEngineTests`' examples, awaited,
/// and the same bytes as the blocking export.
final class AsyncLedgerEngineTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    private func e(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

    private func engine() throws -> PortfolioEngine { try TestDatabase.fresh(self).offlineEngine() }

    /// 1 BTC at 20,000, then 0.5 BTC → 10 ETH, value 30,000: a sell at 60,000 and a buy at 3,000
    /// in one group; bitcoin realizes 20,000 and ethereum costs 30,000.
    func testAwaitedSwap() async throws {
        let engine = try engine()
        defer { engine.close() }
        try await engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":20000,"timestamp":"2024-01-01"}"#)
        let trade = try await engine.addTrade(
            json:
                #"{"timestamp":"2024-01-05","sent":{"coin_id":"bitcoin","amount":0.5},"received":{"coin_id":"ethereum","amount":10},"value":30000}"#
        )
        XCTAssertEqual(trade.transactions.map(\.kind), [.sell, .buy])
        XCTAssertEqual(trade.transactions.map(\.price), [e("60000"), e("3000")])
        XCTAssertNotNil(trade.groupID)
        let report = try await engine.pnl()
        XCTAssertEqual(report.coins.first { $0.coinID == "bitcoin" }?.realizedPnL, p("20000"))
        XCTAssertEqual(report.coins.first { $0.coinID == "ethereum" }?.costBasis, p("30000"))
    }

    /// main buys 2 BTC at 100 and 1 at 300; 1.5 moves to cold, 1.4 received; cold sells 1.4 at
    /// 400: fifo realizes 410 in cold, and main keeps 1.5 costing 350.
    func testAwaitedMove() async throws {
        let engine = try engine()
        defer { engine.close() }
        try await engine.createPortfolio(name: "cold")
        try await engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":2,"price":100,"timestamp":"2024-01-01"}"#)
        try await engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":300,"timestamp":"2024-01-02"}"#)
        let move = try await engine.move(
            json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":1.5,"received_amount":1.4,"timestamp":"2024-01-04"}"#)
        XCTAssertEqual(move.transactions.map(\.kind), [.transferOut, .transferIn])
        XCTAssertEqual(move.transactions.map(\.portfolio), ["main", "cold"])
        try await engine.addTransaction(
            json: #"{"portfolio":"cold","coin_id":"bitcoin","kind":"sell","amount":1.4,"price":400,"timestamp":"2024-03-11"}"#)
        let cold = try await engine.pnl(PnLOptions(portfolio: "cold"))
        XCTAssertEqual(cold.coins.first?.realizedPnL, p("410"))
        let main = try await engine.pnl()
        XCTAssertEqual(main.coins.first?.amount, p("1.5"))
        XCTAssertEqual(main.coins.first?.costBasis, p("350"))
    }

    /// The awaited export, as bytes and written to a file handle, is the blocking export's bytes.
    func testAwaitedExportWritesTheBlockingBytes() async throws {
        let engine = try engine()
        defer { engine.close() }
        try await engine.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"buy","amount":"0.5","price":"40000.5","timestamp":"2024-01-01","external_id":"x-1"}"#)
        let expected = try blocking { try engine.exportCSV() }
        XCTAssertEqual(
            String(decoding: expected, as: UTF8.self),
            "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,fee_price,income_type,group_id\r\n"
                + "2024-01-01T00:00:00Z,main,bitcoin,buy,0.5,40000.5,0,,x-1,,,,\r\n")
        let awaited = try await engine.exportCSV()
        XCTAssertEqual(awaited, expected)
        let url = try temporaryDirectory(self).appendingPathComponent("export.csv")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try await engine.exportCSV(to: handle)
        try handle.close()
        XCTAssertEqual(Array(try Data(contentsOf: url)), expected)
    }
}
