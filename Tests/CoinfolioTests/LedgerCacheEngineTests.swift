import Foundation
import XCTest

@testable import Coinfolio

/// The ledger an engine keeps between calls (`LedgerStore.cache`, keyed by the owner's ledger
/// change counter read in the same statement as the rest of a `portfolio` or `pnl` call): what
/// another engine or process of the same owner writes is seen on the very next call, and nothing
/// is stale after this engine's own writes. Both backends; the PostgreSQL pass runs directly and
/// through pgbouncer (`make test-postgres`).
final class LedgerCacheEngineTests: XCTestCase {
    private func engine(_ database: TestDatabase) throws -> PortfolioEngine { try database.offlineEngine() }

    /// The holdings of "main" as (coin id, amount).
    private func held(_ engine: PortfolioEngine, portfolio: String = "main") throws -> [String: Double] {
        let entries = try engine.portfolio(PortfolioQuery(portfolio: portfolio)).entries
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.coinID, $0.amount) })
    }

    private func costBasis(_ engine: PortfolioEngine, portfolio: String = "main") throws -> String {
        "\(try engine.pnl(PnLOptions(portfolio: portfolio)).totalCostBasis.map(\.description) ?? "null")"
    }

    func testAnotherEnginesWritesOfTheSameOwnerAreSeenOnTheNextCall() throws {
        let database = try TestDatabase.fresh(self)
        let reader = try engine(database)
        let writer = try engine(database)
        XCTAssertEqual(try held(reader), [:])
        XCTAssertEqual(try costBasis(reader), "0")
        // add
        let bought = try writer.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"buy","amount":"2","price":"100","timestamp":"2024-01-01"}"#)
        XCTAssertEqual(try held(reader), ["bitcoin": 2])
        XCTAssertEqual(try costBasis(reader), "200")
        // a second read answers from the cache, unchanged
        XCTAssertEqual(try held(reader), ["bitcoin": 2])
        XCTAssertEqual(try costBasis(reader), "200")
        // import
        let csv = Array("timestamp,coin_id,kind,amount,price\n2024-02-01,ethereum,buy,3,10\n".utf8)
        XCTAssertEqual(try csv.withUnsafeBytes { try writer.importCSV($0) }.imported, 1)
        XCTAssertEqual(try held(reader), ["bitcoin": 2, "ethereum": 3])
        XCTAssertEqual(try costBasis(reader), "230")
        // move, into a portfolio the reader has read before
        try writer.createPortfolio(name: "cold")
        XCTAssertEqual(try held(reader, portfolio: "cold"), [:])
        _ = try writer.move(json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":"0.5","timestamp":"2024-03-01"}"#)
        XCTAssertEqual(try held(reader), ["bitcoin": 1.5, "ethereum": 3])
        XCTAssertEqual(try held(reader, portfolio: "cold"), ["bitcoin": 0.5])
        XCTAssertEqual(try costBasis(reader, portfolio: "cold"), "50")
        // remove
        let extra = try writer.addTransaction(
            json: #"{"coin_id":"litecoin","kind":"buy","amount":"1","price":"5","timestamp":"2024-03-02"}"#)
        XCTAssertEqual(try held(reader), ["bitcoin": 1.5, "ethereum": 3, "litecoin": 1])
        try writer.deleteTransaction(id: String(try XCTUnwrap(extra.id)))
        XCTAssertEqual(try held(reader), ["bitcoin": 1.5, "ethereum": 3])
        XCTAssertEqual(try costBasis(reader), "180")
        // a manual current price, read in the same statement, values a coin without a snapshot
        try writer.setPrice(PriceSetting(coinID: "ethereum", time: nil, price: ExactDecimal("20")))
        XCTAssertEqual(try reader.portfolio().totalValue, 60)
        let ethereum = try reader.pnl(PnLOptions()).coins.first { $0.coinID == "ethereum" }
        XCTAssertEqual(ethereum?.currentValue.map { "\($0)" }, "60")
        // a portfolio renamed or deleted by the other engine
        try writer.renamePortfolio("cold", to: "vault")
        assertThrows(.notFound) { try reader.pnl(PnLOptions(portfolio: "cold")) }
        XCTAssertEqual(try costBasis(reader, portfolio: "vault"), "50")
    }

    func testNothingIsStaleAfterTheEnginesOwnWrites() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try engine(database)
        XCTAssertEqual(try held(engine), [:])
        let bought = try engine.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"buy","amount":"2","price":"100","timestamp":"2024-01-01"}"#)
        XCTAssertEqual(try held(engine), ["bitcoin": 2])
        XCTAssertEqual(try costBasis(engine), "200")
        let csv = Array("timestamp,coin_id,kind,amount,price\n2024-02-01,ethereum,buy,3,10\n".utf8)
        _ = try csv.withUnsafeBytes { try engine.importCSV($0) }
        XCTAssertEqual(try held(engine), ["bitcoin": 2, "ethereum": 3])
        try engine.createPortfolio(name: "cold")
        XCTAssertEqual(try held(engine, portfolio: "cold"), [:])
        _ = try engine.move(json: #"{"from":"main","to":"cold","coin_id":"ethereum","amount":"1","timestamp":"2024-03-01"}"#)
        XCTAssertEqual(try held(engine), ["bitcoin": 2, "ethereum": 2])
        XCTAssertEqual(try held(engine, portfolio: "cold"), ["ethereum": 1])
        XCTAssertEqual(try costBasis(engine, portfolio: "cold"), "10")
        try engine.deleteTransaction(id: String(try XCTUnwrap(bought.id)))
        XCTAssertEqual(try held(engine), ["ethereum": 2])
        XCTAssertEqual(try costBasis(engine), "20")
        try engine.setHolding(coinID: "ethereum", amount: 0)
        XCTAssertEqual(try held(engine), [:])
        // A refused write changes nothing, cache included.
        assertThrows(.invalidArgument) {
            try engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"sell","amount":"1","price":"1","timestamp":"2024-04-01"}"#)
        }
        XCTAssertEqual(try held(engine), [:])
        XCTAssertEqual(try held(engine, portfolio: "cold"), ["ethereum": 1])
    }

    /// Another process (the CLI) writing the same owner: seen on the next call.
    func testAnotherProcessesWriteOfTheSameOwnerIsSeenOnTheNextCall() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try engine(database)
        try engine.setHolding(coinID: "bitcoin", amount: 1)
        XCTAssertEqual(try held(engine), ["bitcoin": 1])
        XCTAssertEqual(try costBasis(engine), "null")  // a holding set: transferred in, cost unknown
        let process = Process()
        let output = Pipe()
        process.executableURL = Repository.root.appendingPathComponent(".build/debug/coinfolio-cli")
        process.arguments = [
            "--db", database.location, "--owner", database.owner, "--base-url", "http://127.0.0.1:9",
            "buy", "bitcoin", "2", "--price", "100", "--at", "2024-01-01",
        ]
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertEqual(try held(engine), ["bitcoin": 3])
        XCTAssertEqual(try costBasis(engine), "200")
    }

    /// On SQLite a call that finds its cached ledger current reads no ledger row: the counter gate
    /// is the lower bound of the `ledger_time` range, computed once before the seek, and the index
    /// gives ledger order (no sort). As a plain `WHERE` term holding a subquery it was tested on
    /// every row of the portfolio (20 ms a `pnl` or statistics call at 100,000 rows, twice the
    /// call's own work; bench/NOTES.md "The owner view on SQLite"). PostgreSQL evaluates such a
    /// subquery once as an InitPlan.
    func testTheOwnerViewSeeksTheLedgerRangeOnSQLite() throws {
        guard !TestDatabase.isPostgres else { throw XCTSkip("SQLite's query plan; PostgreSQL plans its own") }
        let database = try TestDatabase.fresh(self)
        try engine(database).close()
        let connection = try SQLiteConnection(path: database.location)
        defer { connection.close() }
        let plan = try connection.statement("EXPLAIN QUERY PLAN " + LedgerStore.ownerViewSQL)
        var details: [String] = []
        while try plan.next() { details.append(plan.text(3) ?? "") }
        XCTAssertTrue(
            details.contains("SEARCH ledger_transaction USING INDEX ledger_time (owner=? AND portfolio=? AND timestamp_ms>?)"),
            "\(details)")
        // The one sort left is the manual prices' (a few rows): the ledger rows come in index order.
        XCTAssertEqual(details.filter { $0.hasPrefix("USE TEMP B-TREE") }.count, 1, "\(details)")
    }
}
