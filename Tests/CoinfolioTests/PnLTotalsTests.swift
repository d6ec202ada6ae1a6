import Foundation
import XCTest

@testable import Coinfolio

/// `PnLTotals` (the statistics' P&L totals from each coin's cost-basis figures) is tied to
/// `PnLReport`'s totals, and what the engine keeps per ledger change and snapshot
/// (`LedgerDerivations`) follows every change (issue 30).
final class PnLTotalsTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }

    private func entry(_ id: Int64, _ kind: TransactionKind, _ amount: String, at day: Int64, price: String? = nil) -> LedgerEntry {
        LedgerEntry(id: id, timestamp: day * 86_400_000, kind: kind, amount: ExactDecimal(amount)!, price: price.map(p), fee: .zero)
    }

    /// Buy 2 @ 3, sell 1 @ 4, current price 5 (fifo, worked by hand): realized 4 − 3 = 1 over a
    /// cost of 3 (33.33 %); unrealized 1 × 5 − 3 = 2 over 3 (66.67 %).
    func testHandWorkedTotals() throws {
        let ledger = [("x", [entry(1, .buy, "2", at: 1, price: "3"), entry(2, .sell, "1", at: 2, price: "4")])]
        let totals = PnLTotals(figures: PnLReport.figures(method: .fifo, ledger: ledger, others: { _ in [] }), price: { _ in self.p("5") })
        XCTAssertEqual(totals.realizedPnL, p("1"))
        XCTAssertEqual(try XCTUnwrap(totals.realizedPnLPercentage), 100.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(totals.unrealizedPnL, p("2"))
        XCTAssertEqual(try XCTUnwrap(totals.unrealizedPnLPercentage), 200.0 / 3, accuracy: 1e-9)
    }

    /// Every method, with and without prices: known cost, unknown cost (a transfer in), a coin
    /// sold out, a pending sell price; the totals equal the sums of the report's coins and the
    /// report's totals, decimal for decimal.
    func testTotalsEqualTheReportsTotals() {
        let ledger: [(coinID: String, entries: [LedgerEntry])] = [
            (
                "a",
                [
                    entry(1, .buy, "2", at: 1, price: "3.1"), entry(2, .buy, "1", at: 2, price: "7"),
                    entry(3, .sell, "1.5", at: 3, price: "4"),
                ]
            ),
            ("b", [entry(4, .transferIn, "5", at: 1), entry(5, .sell, "1", at: 2, price: "2")]),
            ("c", [entry(6, .buy, "1", at: 1, price: "10"), entry(7, .sell, "1", at: 2, price: "12")]),
            ("d", [entry(8, .buy, "3", at: 1, price: "1"), entry(9, .sell, "1", at: 2)]),
            ("e", [entry(10, .transferIn, "1", at: 1)]),
        ]
        let priceSets: [[String: String]] = [
            [:], ["a": "5", "b": "1", "c": "9", "d": "2", "e": "3"], ["b": "1", "e": "3"], ["a": "0.3"],
        ]
        for method in CostBasisMethod.allCases {
            for prices in priceSets {
                let report = PnLReport.compute(
                    portfolio: "main", vsCurrency: "usd", method: method, ledger: ledger, price: { prices[$0].map(self.p) })
                let totals = PnLTotals(
                    figures: PnLReport.figures(method: method, ledger: ledger, others: { _ in [] }),
                    price: { prices[ledger[$0].coinID].map(self.p) })
                let label = "\(method.rawValue) \(prices)"
                // The totals from the report's own coins (SPEC §12): Σ unrealized over the held
                // coins that have one (nil when coins are held and none has), its percentage over
                // those coins' cost basis; Σ realized over the disposed units' cost.
                let held = report.coins.filter { !$0.amount.isZero }
                let known = held.compactMap(\.unrealizedPnL)
                let unrealized = known.isEmpty && !held.isEmpty ? nil : known.reduce(PreciseDecimal.zero, +)
                let unrealizedCost = report.coins.filter { $0.unrealizedPnL != nil }
                    .reduce(PreciseDecimal.zero) { $0 + ($1.costBasis ?? .zero) }
                let realized = report.coins.reduce(PreciseDecimal.zero) { $0 + $1.realizedPnL }
                let realizedCost = report.coins.reduce(PreciseDecimal.zero) { $0 + $1.realizedCost }
                XCTAssertEqual(totals.unrealizedPnL, unrealized, label)
                XCTAssertEqual(totals.unrealizedPnLPercentage, unrealized.flatMap { PnLReport.percentage($0, of: unrealizedCost) }, label)
                XCTAssertEqual(totals.realizedPnL, realized, label)
                XCTAssertEqual(totals.realizedPnLPercentage, PnLReport.percentage(realized, of: realizedCost), label)
                XCTAssertEqual(totals.unrealizedPnL, report.totalUnrealizedPnL, label)
                XCTAssertEqual(totals.unrealizedPnLPercentage, report.totalUnrealizedPnLPercentage, label)
                XCTAssertEqual(totals.realizedPnL, report.totalRealizedPnL, label)
                XCTAssertEqual(totals.realizedPnLPercentage, report.totalRealizedPnLPercentage, label)
            }
        }
    }

    /// Statistics, portfolio and pnl answer from the kept holdings, figures and positions; each
    /// ledger write and each new snapshot shows at once.
    func testKeptDerivationsFollowLedgerAndSnapshotChanges() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner,
                api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
        func load(_ price: Int, withB: Bool) throws {
            var rows = [#"{"id":"coin-a","symbol":"a","name":"A","current_price":\#(price)}"#]
            if withB { rows.append(#"{"id":"coin-b","symbol":"b","name":"B","current_price":2}"#) }
            try engine.load(marketsBody: Data("[\(rows.joined(separator: ","))]".utf8), globalBody: nil)
        }
        func unrealized() throws -> String { try XCTUnwrap(engine.statistics().first { $0.title == "Unrealized P&L" }).value }
        try load(10, withB: false)
        try engine.addTransaction(json: #"{"coin_id":"coin-a","kind":"buy","amount":1,"price":4,"timestamp":"2024-01-01T00:00:00Z"}"#)
        XCTAssertEqual(try unrealized(), "$6.00")
        XCTAssertEqual(try engine.pnl().totalUnrealizedPnL, p("6"))
        try engine.addTransaction(json: #"{"coin_id":"coin-a","kind":"buy","amount":1,"price":6,"timestamp":"2024-01-02T00:00:00Z"}"#)
        XCTAssertEqual(try unrealized(), "$10.00", "a buy changes the kept figures")
        try load(20, withB: false)
        XCTAssertEqual(try unrealized(), "$30.00", "a new snapshot's prices")
        try engine.setHolding(coinID: "coin-b", amount: 3)
        XCTAssertNil(try engine.portfolio().entries.first { $0.coinID == "coin-b" }?.value, "coin-b is not in the snapshot")
        try load(20, withB: true)
        XCTAssertEqual(
            try engine.portfolio().entries.first { $0.coinID == "coin-b" }?.value, 6, "positions found again in the new snapshot")
        XCTAssertEqual(try engine.pnl().coins.first { $0.coinID == "coin-b" }?.priceSource, .coingecko)
        try engine.setHolding(coinID: "coin-b", amount: 0)
        XCTAssertEqual(try engine.portfolio().entries.map(\.coinID), ["coin-a"], "an emptied holding leaves")
    }
}
