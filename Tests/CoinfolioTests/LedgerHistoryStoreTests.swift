import Foundation
import XCTest

@testable import Coinfolio

/// Schema step 8 (SPEC §16–17's ledger columns) on both backends: every existing database
/// migrates with nothing lost — a step-6 database with ledger rows, the committed schema-1 file,
/// and a file written by main at step 6.
final class LedgerHistoryStoreTests: XCTestCase {
    private func e(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

    /// A new empty database: a SQLite file, or a new database on the PostgreSQL test cluster.
    private func emptyDatabase() throws -> String {
        guard TestDatabase.isPostgres else { return try temporaryDirectory(self).appendingPathComponent("old.sqlite").path }
        return try TestDatabase.emptyPostgresDatabase(self)
    }

    private func engine(_ location: String, owner: String) throws -> PortfolioEngine {
        try PortfolioEngine(configuration: EngineConfiguration(database: location, owner: owner))
    }

    /// Everything `transactions` lists, every portfolio, as JSON.
    private func ledger(_ engine: PortfolioEngine) throws -> String {
        try engine.portfolios().map { try engine.transactions(TransactionQuery(portfolio: $0.name)).json }.joined(separator: "\n")
    }

    func testAStepSixLedgerMigratesWithEveryRowKept() throws {
        let location = try emptyDatabase()
        let connection = try DatabaseLocation.open(location)
        try Schema.migrate(connection, upTo: 6)
        try connection.execute(
            """
            INSERT INTO portfolio (owner, name, vs_currency) VALUES ('alice', 'main', NULL), ('alice', 'cold', 'eur');
            INSERT INTO ledger_transaction (owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id) VALUES
                ('alice', 'main', 'bitcoin', 'buy', '1', '100', '1', 1704067200000, 'first, "quoted"', 'x-1'),
                ('alice', 'main', 'bitcoin', 'sell', '0.5', '300', '3', 1704240000000, '', NULL),
                ('alice', 'cold', 'ethereum', 'transfer_in', '0.000000000000000001', NULL, '0', 0, 'schema 1 holding', NULL);
            """)
        connection.close()
        let alice = try engine(location, owner: "alice")
        let main = try alice.transactions().transactions
        XCTAssertEqual(main.compactMap(\.id), [1, 2])
        XCTAssertEqual(main.map(\.priceSource), [.user, .user])
        XCTAssertEqual(main.map(\.groupID), [nil, nil])
        XCTAssertEqual(main[0].note, #"first, "quoted""#)
        XCTAssertEqual(main[0].externalID, "x-1")
        let cold = try alice.transactions(TransactionQuery(portfolio: "cold")).transactions
        XCTAssertEqual(cold.map(\.amount), [e("0.000000000000000001")])
        XCTAssertEqual(cold.map(\.priceSource), [nil])
        XCTAssertEqual(try alice.pnl().coins[0].realizedPnL, PreciseDecimal("96.5"), "0.5 × 300 − 3 − 0.5 × 101")
        // The new kinds and columns work on the migrated table.
        try alice.addTransaction(
            Transaction(coinID: "bitcoin", kind: .income, amount: 1, price: 50, timestamp: 1_704_300_000_000, incomeType: .staking))
        try alice.addTransaction(
            Transaction(
                coinID: "bitcoin", kind: .sell, amount: e("0.1"), price: 60, fee: e("0.01"), timestamp: 1_704_400_000_000,
                feeCoinID: "bitcoin"))
        XCTAssertEqual(try alice.transactions().transactions.map(\.kind), [.buy, .sell, .income, .sell, .fee])
        let check = try DatabaseLocation.open(location)
        defer { check.close() }
        XCTAssertEqual(try check.schemaVersion(), Schema.currentVersion)
        XCTAssertEqual(
            try check.statement("SELECT count(*) FROM ledger_transaction WHERE group_id IS NOT NULL").scalarInt(), 2)
    }

    func testTheSchemaOneFileMigratesToTheLedgerOfSection16() throws {
        try XCTSkipIf(TestDatabase.isPostgres, "the fixture is a SQLite file")
        let copy = try temporaryDirectory(self).appendingPathComponent("schema-v1.sqlite")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Tests/fixtures/store/schema-v1.sqlite"), to: copy)
        let engine = try engine(copy.path, owner: "default")
        let rows = try engine.transactions().transactions
        XCTAssertEqual(rows.map(\.kind), [.transferIn, .transferIn, .transferIn, .transferIn])
        XCTAssertEqual(rows.map(\.note), Array(repeating: "schema 1 holding", count: 4))
        XCTAssertEqual(rows.map(\.priceSource), [nil, nil, nil, nil])
        try engine.createPortfolio(name: "cold")
        let move = try engine.move(Move(from: "main", to: "cold", coinID: "bitcoin", amount: e("0.5"), timestamp: 1))
        XCTAssertEqual(move.transactions.count, 2)
        XCTAssertEqual(try engine.store.holdings(portfolio: "cold").map(\.amount), [0.5])
    }

    func testAFileWrittenByMainAtStepSixMigratesWithNothingLost() throws {
        try XCTSkipIf(TestDatabase.isPostgres, "the fixture is a SQLite file")
        let copy = try temporaryDirectory(self).appendingPathComponent("schema-v6-ledger.sqlite")
        try FileManager.default.copyItem(
            at: Repository.root.appendingPathComponent("Tests/fixtures/store/schema-v6-ledger.sqlite"), to: copy)
        let engine = try engine(copy.path, owner: "default")
        let text = try ledger(engine)
        XCTAssertTrue(
            text.contains(
                #"{"id":"2","portfolio":"main","coin_id":"bitcoin","kind":"buy","amount":1,"price":100,"fee":1,"timestamp":"2024-01-01T00:00:00Z","note":null,"external_id":null,"group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":"user","price_at":null,"original_price":null,"price_currency":null}"#
            ), text)
        XCTAssertTrue(text.contains(#""note":"second, \"quoted\"""#), text)
        XCTAssertTrue(text.contains(#""timestamp":"2024-01-02T00:00:00.250Z""#), text)
        XCTAssertTrue(text.contains(#""amount":0.000000000000000001,"price":0.000002"#), text)
        XCTAssertTrue(text.contains(#""note":"line one\nline two","external_id":"kraken:1""#), text)
        XCTAssertTrue(text.contains(#""kind":"transfer_out","amount":0.25,"price":null,"fee":0.001"#), text)
        XCTAssertEqual(try engine.transactions().total, 5)
        XCTAssertEqual(try engine.transactions(TransactionQuery(portfolio: "cold")).total, 2)
        let report = try engine.pnl()
        XCTAssertEqual(report.coins.first { $0.coinID == "bitcoin" }?.realizedPnL, PreciseDecimal("246"))
        XCTAssertEqual(report.coins.first { $0.coinID == "ethereum" }?.costBasis, PreciseDecimal("2e-24"))
        XCTAssertEqual(try engine.store.holdings(portfolio: "cold").map(\.amount), [2])
    }
}
