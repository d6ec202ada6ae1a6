import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §4 and §13: a durable store of holdings, run on SQLite and (COINFOLIO_TEST_BACKEND=postgres)
/// on PostgreSQL.
final class StoreTests: XCTestCase {
    private func openStore(_ name: String = "portfolio.sqlite") throws -> (PortfolioStore, TestDatabase) {
        let database = try TestDatabase.fresh(self, name: name)
        return (try database.store(), database)
    }

    private func skipOnPostgres(_ why: String) throws {
        if TestDatabase.isPostgres { throw XCTSkip("SQLite only: \(why)") }
    }

    func testPositiveAmountInsertsThenUpdates() throws {
        let (store, _) = try openStore()
        try store.setHolding(coinID: "bitcoin", amount: 0.5)
        try store.setHolding(coinID: "bitcoin", amount: 0.75)
        XCTAssertEqual(try store.holdings(), [Holding(coinID: "bitcoin", amount: 0.75)])
    }

    func testZeroOrNegativeAmountDeletesAndNeverInserts() throws {
        let (store, _) = try openStore()
        try store.setHolding(coinID: "ethereum", amount: 0)
        try store.setHolding(coinID: "dogecoin", amount: -3)
        XCTAssertEqual(try store.holdings(), [])
        try store.setHolding(coinID: "ethereum", amount: 2)
        try store.setHolding(coinID: "ethereum", amount: -1)
        XCTAssertEqual(try store.holdings(), [])
    }

    func testAmountsRoundTripExactly() throws {
        let (store, path) = try openStore()
        for (id, amount) in [("a", 0.1), ("b", 1e-8), ("c", 123456789.123456789), ("d", 1e-18)] {
            try store.setHolding(coinID: id, amount: amount)
        }
        // The ledger keeps exact decimals with 18 fraction digits (SPEC §12): a double below
        // 1e-18 units is refused rather than rounded to nothing.
        assertThrows(.invalidArgument) { try store.setHolding(coinID: "e", amount: Double.leastNonzeroMagnitude) }
        store.close()
        let reopened = try path.store()
        XCTAssertEqual(try reopened.holdings().map(\.amount), [0.1, 1e-8, 123456789.123456789, 1e-18])
    }

    func testHoldingsSurviveReopenSortedByCoinID() throws {
        let (store, path) = try openStore()
        try store.setHolding(coinID: "tether", amount: 10)
        try store.setHolding(coinID: "bitcoin", amount: 1)
        try store.setHolding(coinID: "1move token", amount: 3)
        store.close()
        XCTAssertEqual(try path.store().holdings().map(\.coinID), ["1move token", "bitcoin", "tether"])
    }

    func testRealIDsAndSQLLookingIDsAreStoredLiterally() throws {
        let (store, _) = try openStore()
        // Lower case: holding ids with upper case are refused (SPEC §10), SQL or not.
        let ids = ["boringdao-[old]", "hive_dollar", "x'); drop table holding;--", "robert\"; --"]
        for id in ids { try store.setHolding(coinID: id, amount: 1) }
        XCTAssertEqual(Set(try store.holdings().map(\.coinID)), Set(ids))
    }

    func testBadIDsAndAmountsWriteNothing() throws {
        let (store, _) = try openStore()
        for id in ["", ".", "..", "a/b", "bad\u{1}id", String(repeating: "x", count: 129)] {
            assertThrows(.invalidArgument) { try store.setHolding(coinID: id, amount: 1) }
        }
        for amount in [Double.nan, .infinity, -.infinity] {
            assertThrows(.invalidArgument) { try store.setHolding(coinID: "bitcoin", amount: amount) }
        }
        XCTAssertEqual(try store.holdings(), [])
    }

    func testUnopenablePathsAndNonDatabasesAreStoreErrors() throws {
        try skipOnPostgres("file paths")
        let folder = try temporaryDirectory(self)
        assertThrows(.store) { try PortfolioStore(path: folder.path) }
        assertThrows(.store) { try PortfolioStore(path: folder.appendingPathComponent("missing/dir/x.sqlite").path) }
        let text = folder.appendingPathComponent("notes.txt")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: text)
        let error = assertThrows(.store) { try PortfolioStore(path: text.path) }
        XCTAssertTrue(error?.message.contains("not a database") ?? false, error?.message ?? "")
    }

    func testMemoryStoresArePrivate() throws {
        try skipOnPostgres("\":memory:\"")
        let first = try PortfolioStore(path: ":memory:")
        try first.setHolding(coinID: "bitcoin", amount: 1)
        XCTAssertEqual(try PortfolioStore(path: ":memory:").holdings(), [])
    }

    func testSeveralThreadsWritingOneFileLoseNothing() throws {
        let (store, path) = try openStore()
        let other = try path.store()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let target = worker % 2 == 0 ? store : other
            for index in 0..<50 {
                do { try target.setHolding(coinID: "coin-\(worker)-\(index)", amount: Double(index + 1)) } catch { XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(try store.holdings().count, 400)
        XCTAssertEqual(try other.holdings().count, 400, "another connection sees every committed write")
    }

    func testAnotherConnectionsWriteIsSeenWithoutReopening() throws {
        let (store, path) = try openStore()
        try store.setHolding(coinID: "bitcoin", amount: 1)
        XCTAssertEqual(try store.holdings().count, 1)
        let other = try path.store()
        try other.setHolding(coinID: "ethereum", amount: 2)
        XCTAssertEqual(try store.holdings().map(\.coinID), ["bitcoin", "ethereum"])
    }

    func testNewerSchemaIsRefused() throws {
        try skipOnPostgres("PostgresTests.testNewerSchemaIsRefused covers the server (it changes the shared database)")
        let (store, path) = try openStore()
        store.close()
        let connection = try SQLiteConnection(path: path.location)
        try connection.execute("PRAGMA user_version = 99")
        connection.close()
        assertThrows(.store) { try path.store() }
    }

    func testIDsAreComparedByBytesLikeSQLite() throws {
        let (store, path) = try openStore()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        try store.setHolding(coinID: composed, amount: 1)
        XCTAssertEqual(try store.holdings().count, 1)
        try store.setHolding(coinID: decomposed, amount: 2)
        XCTAssertEqual(try store.holdings().map(\.amount).sorted(), [1, 2])
        XCTAssertEqual(try path.store().holdings().count, 2)
    }

    /// set_holdings reads the affected coins' positions in one query and writes them in two: a
    /// batch of 602 coins, ids that differ only in normalization.
    func testLargeBatchReadsEveryCoinsEntries() throws {
        let (store, path) = try openStore()
        let count = 600
        let ids = (0..<count).map { "coin-\($0)" } + ["caf\u{E9}", "cafe\u{301}"]
        try store.setHoldings(ids.enumerated().map { Holding(coinID: $0.element, amount: Double($0.offset + 1)) })
        // Up, down, emptied, unchanged, one after the other in the ledger.
        try store.setHoldings(
            ids.enumerated().map { index, id in
                Holding(coinID: id, amount: [Double(index + 1) * 2, 0.5, 0, Double(index + 1)][index % 4])
            })
        let held = Dictionary(uniqueKeysWithValues: try path.store().holdings().map { ($0.coinID.utf8.map { $0 }, $0.amount) })
        XCTAssertEqual(held[Array("coin-0".utf8)], 2)
        XCTAssertEqual(held[Array("coin-1".utf8)], 0.5)
        XCTAssertNil(held[Array("coin-2".utf8)])
        XCTAssertEqual(held[Array("coin-3".utf8)], 4)
        XCTAssertEqual(held[Array("coin-599".utf8)], 600)
        XCTAssertEqual(held[Array("caf\u{E9}".utf8)], 1202)
        XCTAssertEqual(held[Array("cafe\u{301}".utf8)], 0.5)
        XCTAssertEqual(held.count, 452, "602 coins less the 150 emptied")
    }
}
