import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// Schema step 5 on both backends: positions kept by every ledger write, the migration from a
/// step-4 database with ledger rows, and the never-negative rule read from a position and the
/// entries after the change (backdated sells, deletes of early buys, batches, CSV imports).
final class LedgerStoreTests: XCTestCase {
    private func d(_ text: String) -> ExactDecimal { ExactDecimal(text)! }
    @_disfavoredOverload private func d(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }

    /// A new empty database: a SQLite file, or a new database on the PostgreSQL test cluster
    /// (dropped at the end), for tests that build an old schema.
    private func emptyDatabase() throws -> String {
        guard TestDatabase.isPostgres else { return try temporaryDirectory(self).appendingPathComponent("old.sqlite").path }
        return try TestDatabase.emptyPostgresDatabase(self)
    }

    private func engine(_ location: String, owner: String) throws -> PortfolioEngine {
        try PortfolioEngine(configuration: EngineConfiguration(database: location, owner: owner))
    }

    /// The positions a new connection of the owner sums from the ledger (every portfolio), as
    /// "portfolio/coin=amount", sorted.
    private func positions(_ location: String, owner: String) throws -> [String] {
        let connection = try StoreConnection(path: location, owner: owner)
        defer { connection.close() }
        let ledger = LedgerStore(connection: connection)
        let names = try ledger.portfolios().map(\.name)
        try ledger.write { database in for name in names { try ledger.loadPositions(portfolio: name, database) } }
        return ledger.keptPositions()
    }

    /// Every position the engine's connection keeps in memory (changed write by write) equals the
    /// sum of its coin's transactions (listed through the engine), zero for a coin sold out.
    private func assertPositionsMatchTransactions(
        _ engine: PortfolioEngine, _ location: String, owner: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let kept = engine.store.keptPositions()
        XCTAssertFalse(kept.isEmpty, "the engine keeps positions", file: file, line: line)
        let portfolios = Set(kept.map { String($0.prefix { $0 != "/" }) })
        var sums: [String: ExactDecimal] = [:]
        for name in portfolios {
            for t in try engine.transactions(TransactionQuery(portfolio: name)).transactions {
                sums["\(name)/\(t.coinID)", default: .zero] += t.kind.adds ? t.amount : -t.amount
            }
        }
        let expected = sums.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "\($0)=\(sums[$0]!)" }
        XCTAssertEqual(kept, expected, file: file, line: line)
        XCTAssertEqual(
            try positions(location, owner: owner).filter { portfolios.contains(String($0.prefix { $0 != "/" })) }, expected,
            "a new connection sums the same", file: file, line: line)
    }

    private func shortfall(_ error: CoinfolioError?) -> [String: CoinfolioError.Detail] {
        var details = error?.details ?? [:]
        details["line"] = nil
        details["column"] = nil
        details["index"] = nil
        return details
    }

    /// A step-4 database with ledger rows of two owners, two portfolios, a coin sold out and an
    /// amount of one unit in the 18th place.
    private func stepFourDatabase() throws -> String {
        let location = try emptyDatabase()
        let connection = try DatabaseLocation.open(location)
        defer { connection.close() }
        try Schema.migrate(connection, upTo: 4)
        try connection.execute(
            """
            INSERT INTO portfolio (owner, name, vs_currency) VALUES ('alice', 'main', NULL), ('alice', 'cold', 'eur'), ('bob', 'main', NULL);
            INSERT INTO ledger_transaction (owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id) VALUES
                ('alice', 'main', 'bitcoin', 'buy', '1', '100', '1', 1704067200000, 'first', 'x-1'),
                ('alice', 'main', 'bitcoin', 'buy', '1', '200', '0', 1704153600000, '', NULL),
                ('alice', 'main', 'bitcoin', 'sell', '1.5', '300', '3', 1704240000000, '', NULL),
                ('alice', 'main', 'ethereum', 'transfer_in', '2.25', NULL, '0', 0, 'schema 1 holding', NULL),
                ('alice', 'main', 'ethereum', 'transfer_out', '0.000000000000000001', NULL, '0', 1704067200000, '', NULL),
                ('alice', 'cold', 'bitcoin', 'transfer_in', '0.1', NULL, '0', 1704067200000, '', NULL),
                ('bob', 'main', 'bitcoin', 'buy', '3', '10', '0', 1704067200000, '', NULL),
                ('alice', 'main', 'dogecoin', 'buy', '5', '1', '0', 1704067200000, '', NULL),
                ('alice', 'main', 'dogecoin', 'sell', '5', '2', '0', 1704153600000, '', NULL);
            """)
        return location
    }

    // MARK: - Migration

    func testStepFourLedgerMigratesToPositionsWithHoldingsAndTransactionsUnchanged() throws {
        let location = try stepFourDatabase()
        let alice = try engine(location, owner: "alice")
        XCTAssertEqual(
            try alice.store.holdings(),
            [Holding(coinID: "bitcoin", amount: 0.5), Holding(coinID: "ethereum", amount: 2.249999999999999999)])
        XCTAssertEqual(
            try positions(location, owner: "alice"),
            ["cold/bitcoin=0.1", "main/bitcoin=0.5", "main/dogecoin=0", "main/ethereum=2.249999999999999999"])
        XCTAssertEqual(try positions(location, owner: "bob"), ["main/bitcoin=3"])
        let page = try alice.transactions()
        XCTAssertEqual(page.total, 7)
        XCTAssertEqual(page.transactions.compactMap(\.id), [4, 1, 5, 8, 2, 9, 3], "timestamp, then insertion")
        XCTAssertEqual(page.transactions.map(\.amount.description), ["2.25", "1", "0.000000000000000001", "5", "1", "5", "1.5"])
        XCTAssertEqual(page.transactions[1].externalID, "x-1")
        XCTAssertEqual(page.transactions[1].note, "first")
        XCTAssertEqual(
            page.json,
            #"{"transactions":["#
                + #"{"id":"4","portfolio":"main","coin_id":"ethereum","kind":"transfer_in","amount":2.25,"price":null,"fee":0,"timestamp":"1970-01-01T00:00:00Z","note":"schema 1 holding","external_id":null,"group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":null,"price_at":null,"original_price":null,"price_currency":null},"#
                + #"{"id":"1","portfolio":"main","coin_id":"bitcoin","kind":"buy","amount":1,"price":100,"fee":1,"timestamp":"2024-01-01T00:00:00Z","note":"first","external_id":"x-1","group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":"user","price_at":null,"original_price":null,"price_currency":null},"#
                + #"{"id":"5","portfolio":"main","coin_id":"ethereum","kind":"transfer_out","amount":0.000000000000000001,"price":null,"fee":0,"timestamp":"2024-01-01T00:00:00Z","note":null,"external_id":null,"group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":null,"price_at":null,"original_price":null,"price_currency":null},"#
                + #"{"id":"8","portfolio":"main","coin_id":"dogecoin","kind":"buy","amount":5,"price":1,"fee":0,"timestamp":"2024-01-01T00:00:00Z","note":null,"external_id":null,"group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":"user","price_at":null,"original_price":null,"price_currency":null},"#
                + #"{"id":"2","portfolio":"main","coin_id":"bitcoin","kind":"buy","amount":1,"price":200,"fee":0,"timestamp":"2024-01-02T00:00:00Z","note":null,"external_id":null,"group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":"user","price_at":null,"original_price":null,"price_currency":null},"#
                + #"{"id":"9","portfolio":"main","coin_id":"dogecoin","kind":"sell","amount":5,"price":2,"fee":0,"timestamp":"2024-01-02T00:00:00Z","note":null,"external_id":null,"group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":"user","price_at":null,"original_price":null,"price_currency":null},"#
                + #"{"id":"3","portfolio":"main","coin_id":"bitcoin","kind":"sell","amount":1.5,"price":300,"fee":3,"timestamp":"2024-01-03T00:00:00Z","note":null,"external_id":null,"group_id":null,"income_type":null,"fee_coin_id":null,"fee_price":null,"price_source":"user","price_at":null,"original_price":null,"price_currency":null}"#
                + #"],"total":7}"#)
        let bitcoin = try alice.transactions(TransactionQuery(coinID: "bitcoin"))
        XCTAssertEqual(bitcoin.transactions.compactMap(\.id), [1, 2, 3])
        XCTAssertEqual(bitcoin.total, 3)
        let page2 = try alice.transactions(TransactionQuery(coinID: "dogecoin", limit: 1, offset: 1))
        XCTAssertEqual(page2.transactions.compactMap(\.id), [9])
        XCTAssertEqual(page2.total, 2)
        XCTAssertEqual(try alice.transactions(TransactionQuery(portfolio: "cold")).transactions.compactMap(\.id), [6])
        let btc = try XCTUnwrap(try alice.pnl(PnLOptions(method: .fifo)).coins.first { $0.coinID == "bitcoin" })
        XCTAssertEqual(btc.realizedPnL, d("246"))
        XCTAssertEqual(btc.amount, d("0.5"))
        let bob = try engine(location, owner: "bob")
        XCTAssertEqual(try bob.store.holdings(), [Holding(coinID: "bitcoin", amount: 3)])
        // New writes take new ids after the migrated ones.
        let added = try alice.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"sell","amount":"0.5","price":1,"timestamp":"2024-02-01T00:00:00Z"}"#)
        XCTAssertEqual(added.id, 10)
        XCTAssertEqual(try positions(location, owner: "alice")[1], "main/bitcoin=0")
        try assertPositionsMatchTransactions(alice, location, owner: "alice")
        alice.close()
        bob.close()
        let check = try DatabaseLocation.open(location)
        defer { check.close() }
        if TestDatabase.isPostgres {
            XCTAssertEqual(try check.statement("SELECT max(version) FROM coinfolio_schema").scalarInt(), Schema.currentVersion)
            XCTAssertEqual(try check.statement("SELECT count(*) FROM pg_indexes WHERE indexname = 'ledger_order'").scalarInt(), 0)
        } else {
            XCTAssertEqual(try check.statement("PRAGMA user_version").scalarInt(), Schema.currentVersion)
            XCTAssertEqual(try check.statement("SELECT count(*) FROM sqlite_master WHERE name = 'ledger_order'").scalarInt(), 0)
            XCTAssertEqual(try check.statement("PRAGMA integrity_check").next(), true)
        }
    }

    func testSchemaOneFixtureKeepsItsHoldingsThroughStepFive() throws {
        try XCTSkipIf(TestDatabase.isPostgres, "the fixture is a SQLite file")
        let copy = try temporaryDirectory(self).appendingPathComponent("schema-v1.sqlite")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Tests/fixtures/store/schema-v1.sqlite"), to: copy)
        let engine = try self.engine(copy.path, owner: "default")
        let expected = [
            Holding(coinID: "0.1-token", amount: 0.1), Holding(coinID: "bitcoin", amount: 0.5),
            Holding(coinID: "ethereum", amount: 2.25), Holding(coinID: "not-a-listed-coin", amount: 10),
        ]
        XCTAssertEqual(try engine.store.holdings(), expected)
        XCTAssertEqual(
            try positions(copy.path, owner: "default"),
            ["main/0.1-token=0.1", "main/bitcoin=0.5", "main/ethereum=2.25", "main/not-a-listed-coin=10"])
        XCTAssertEqual(try engine.transactions().transactions.compactMap(\.id), [1, 2, 3, 4])
        // Setting the same holdings again records nothing.
        try engine.setHoldings(expected)
        XCTAssertEqual(try engine.transactions().total, 4)
    }

    // MARK: - Never negative through positions

    func testABackdatedSellThatWouldLeaveALaterSellShortIsRefused() throws {
        let location = try stepFourDatabase()
        let alice = try engine(location, owner: "alice")
        // bitcoin: buy 1 (Jan 1), buy 1 (Jan 2), sell 1.5 (Jan 3). A sell of 0.6 on Jan 2 noon
        // passes at its own time (2 − 0.6) but leaves the Jan 3 sell 0.1 short.
        let error = assertThrows(.invalidArgument) {
            try alice.addTransaction(
                json: #"{"coin_id":"bitcoin","kind":"sell","amount":"0.6","price":1,"timestamp":"2024-01-02T12:00:00Z"}"#)
        }
        XCTAssertEqual(
            shortfall(error),
            ["coin_id": .string("bitcoin"), "timestamp": .string("2024-01-03T00:00:00Z"), "short_by": .number(0.1)])
        // 0.5 fits exactly.
        _ = try alice.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"sell","amount":"0.5","price":1,"timestamp":"2024-01-02T12:00:00Z"}"#)
        // A sell at the same time as the Jan 3 one goes after it, and is short by itself.
        let same = assertThrows(.invalidArgument) {
            try alice.addTransaction(
                json: #"{"coin_id":"bitcoin","kind":"sell","amount":"0.25","price":1,"timestamp":"2024-01-03T00:00:00Z"}"#)
        }
        XCTAssertEqual(
            shortfall(same), ["coin_id": .string("bitcoin"), "timestamp": .string("2024-01-03T00:00:00Z"), "short_by": .number(0.25)])
        XCTAssertEqual(try positions(location, owner: "alice")[1], "main/bitcoin=0")
        try assertPositionsMatchTransactions(alice, location, owner: "alice")
    }

    func testDeletingAnEarlyBuyThatALaterSellNeedsIsRefused() throws {
        let location = try stepFourDatabase()
        let alice = try engine(location, owner: "alice")
        for id in ["1", "2"] {
            let error = assertThrows(.invalidArgument) { try alice.deleteTransaction(id: id) }
            XCTAssertEqual(
                shortfall(error),
                ["coin_id": .string("bitcoin"), "timestamp": .string("2024-01-03T00:00:00Z"), "short_by": .number(0.5)], "id \(id)")
        }
        // The dogecoin buy that its sell sold whole: short by all of it.
        let doge = assertThrows(.invalidArgument) { try alice.deleteTransaction(id: "8") }
        XCTAssertEqual(
            shortfall(doge), ["coin_id": .string("dogecoin"), "timestamp": .string("2024-01-02T00:00:00Z"), "short_by": .number(5)])
        XCTAssertEqual(try alice.transactions().total, 7, "nothing deleted")
        // Removing the sell first frees both buys.
        try alice.deleteTransaction(id: "3")
        try alice.deleteTransaction(id: "1")
        XCTAssertEqual(try positions(location, owner: "alice")[1], "main/bitcoin=1")
        // A transfer out deleted gives the units back.
        try alice.deleteTransaction(id: "5")
        XCTAssertEqual(try positions(location, owner: "alice")[3], "main/ethereum=2.25")
        try assertPositionsMatchTransactions(alice, location, owner: "alice")
    }

    func testABatchThatWouldLeaveAFutureSellShortWritesNothing() throws {
        let location = try stepFourDatabase()
        let bob = try engine(location, owner: "bob")
        // bitcoin: buy 3 (2024), sell 3 (2100), buy 1 (2200): holds 1, but 0 from now to 2200.
        _ = try bob.addTransaction(json: #"{"coin_id":"bitcoin","kind":"sell","amount":3,"price":1,"timestamp":"2100-01-01T00:00:00Z"}"#)
        _ = try bob.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1,"timestamp":"2200-01-01T00:00:00Z"}"#)
        XCTAssertEqual(try bob.store.holdings(), [Holding(coinID: "bitcoin", amount: 1)])
        let before = try bob.transactions().json
        let error = assertThrows(.invalidArgument) {
            try bob.setHoldings([Holding(coinID: "ethereum", amount: 1), Holding(coinID: "bitcoin", amount: 0)])
        }
        XCTAssertEqual(error?.details["index"], .number(1))
        XCTAssertEqual(
            shortfall(error), ["coin_id": .string("bitcoin"), "timestamp": .string("2100-01-01T00:00:00Z"), "short_by": .number(1)])
        let single = assertThrows(.invalidArgument) { try bob.setHolding(coinID: "bitcoin", amount: 0.5) }
        XCTAssertNil(single?.details["index"])
        XCTAssertEqual(
            shortfall(single), ["coin_id": .string("bitcoin"), "timestamp": .string("2100-01-01T00:00:00Z"), "short_by": .number(0.5)])
        XCTAssertEqual(try bob.transactions().json, before, "the ethereum entry before it was not written either")
        XCTAssertEqual(try positions(location, owner: "bob"), ["main/bitcoin=1"])
        // Raising it is fine, and so is a batch without the decrease.
        try bob.setHoldings([Holding(coinID: "ethereum", amount: 1), Holding(coinID: "bitcoin", amount: 2)])
        XCTAssertEqual(try positions(location, owner: "bob"), ["main/bitcoin=2", "main/ethereum=1"])
        try assertPositionsMatchTransactions(bob, location, owner: "bob")
    }

    func testCSVImportChecksFromItsEarliestRowAndKeepsPositions() throws {
        let location = try stepFourDatabase()
        let alice = try engine(location, owner: "alice")
        func importCSV(_ text: String) throws -> ImportSummary {
            var bytes = Array(text.utf8)
            return try bytes.withUnsafeMutableBytes { try alice.importCSV(UnsafeRawBufferPointer($0)) }
        }
        let header = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n"
        // A backdated sell leaves the existing Jan 3 sell short: that row is not the file's, so
        // the error names the file's last row of the coin before it (line 3, the backdated sell).
        let backdated = assertThrows(.invalidArgument) {
            try importCSV(
                header + "2024-01-01T00:00:00Z,cold,bitcoin,transfer_out,0.1,,,,\n2024-01-02T12:00:00Z,main,bitcoin,sell,0.6,1,,,\n")
        }
        XCTAssertEqual(
            shortfall(backdated), ["coin_id": .string("bitcoin"), "timestamp": .string("2024-01-03T00:00:00Z"), "short_by": .number(0.1)])
        XCTAssertEqual(backdated?.details["line"], .number(3))
        XCTAssertEqual(backdated?.details["column"], .string("amount"))
        // A sell of the file's own that is short names its line.
        let own = assertThrows(.invalidArgument) { try importCSV(header + "2024-01-04T00:00:00Z,main,bitcoin,sell,1,1,,,\n") }
        XCTAssertEqual(own?.details["line"], .number(2))
        XCTAssertEqual(
            shortfall(own), ["coin_id": .string("bitcoin"), "timestamp": .string("2024-01-04T00:00:00Z"), "short_by": .number(0.5)])
        XCTAssertEqual(try alice.transactions().total, 7, "nothing imported")
        XCTAssertEqual(try positions(location, owner: "alice")[0], "cold/bitcoin=0.1")
        // A file that fits: an early buy then a backdated sell, in two portfolios.
        XCTAssertEqual(
            try importCSV(
                header + "2023-06-01T00:00:00Z,main,bitcoin,buy,1,50,,,\n2024-01-02T12:00:00Z,main,bitcoin,sell,1.25,1,,,\n"
                    + "2024-01-05T00:00:00Z,cold,bitcoin,transfer_out,0.1,,,,\n2024-01-05T00:00:00Z,main,solana,buy,7,1,,,\n"),
            ImportSummary(imported: 4, skipped: 0))
        XCTAssertEqual(
            try positions(location, owner: "alice"),
            ["cold/bitcoin=0", "main/bitcoin=0.25", "main/dogecoin=0", "main/ethereum=2.249999999999999999", "main/solana=7"])
        try assertPositionsMatchTransactions(alice, location, owner: "alice")
    }

    func testRenamingAndDeletingAPortfolioMoveItsPositions() throws {
        let location = try stepFourDatabase()
        let alice = try engine(location, owner: "alice")
        try alice.renamePortfolio("cold", to: "vault")
        XCTAssertEqual(try positions(location, owner: "alice")[0], "main/bitcoin=0.5")
        XCTAssertEqual(try positions(location, owner: "alice").last, "vault/bitcoin=0.1")
        _ = try alice.addTransaction(json: #"{"portfolio":"vault","coin_id":"bitcoin","kind":"transfer_out","amount":"0.1"}"#)
        XCTAssertEqual(try positions(location, owner: "alice").last, "vault/bitcoin=0")
        try alice.deletePortfolio("vault", force: true)
        try alice.createPortfolio(name: "vault")
        _ = try alice.addTransaction(json: #"{"portfolio":"vault","coin_id":"bitcoin","kind":"buy","amount":"2","price":1}"#)
        XCTAssertEqual(try positions(location, owner: "alice").last, "vault/bitcoin=2", "nothing left of the deleted portfolio")
        try assertPositionsMatchTransactions(alice, location, owner: "alice")
        XCTAssertEqual(try positions(location, owner: "bob"), ["main/bitcoin=3"], "another owner's rows untouched")
    }

    // MARK: - Batches and concurrency

    func testBatchRecordsOneTransferPerChangedCoinAtOneTime() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try self.engine(database.location, owner: database.owner)
        try engine.setHoldings((0..<600).map { Holding(coinID: "coin-\($0)", amount: Double($0 % 7) + 0.5) })
        try engine.setHoldings((0..<600).map { Holding(coinID: "coin-\($0)", amount: $0 % 2 == 0 ? 0.5 : 0) })
        let page = try engine.transactions()
        XCTAssertEqual(page.total, 600 + 600 - 43, "even coins already at 0.5 (every 14th) record nothing")
        XCTAssertEqual(Set(page.transactions[600...].map(\.timestamp)).count, 1, "one batch, one time")
        XCTAssertEqual(try engine.store.holdings().count, 300)
        XCTAssertEqual(try positions(database.location, owner: database.owner).filter { $0.hasSuffix("=0.5") }.count, 300)
        try assertPositionsMatchTransactions(engine, database.location, owner: database.owner)
    }

    func testPositionsKeptByOneConnectionGiveWayToAnotherConnectionsWrites() throws {
        let database = try TestDatabase.fresh(self)
        let a = try engine(database.location, owner: database.owner)
        let b = try engine(database.location, owner: database.owner)
        defer {
            a.close()
            b.close()
        }
        try a.setHolding(coinID: "bitcoin", amount: 1)
        XCTAssertEqual(a.store.keptPositions(), ["main/bitcoin=1"])
        try b.setHolding(coinID: "bitcoin", amount: 3)
        // a kept 1: a sell of 2.5 passes only because a sums the ledger again.
        _ = try a.addTransaction(json: #"{"coin_id":"bitcoin","kind":"sell","amount":"2.5","price":1}"#)
        XCTAssertEqual(a.store.keptPositions(), ["main/bitcoin=0.5"])
        // b kept 3: now 0.5 are held, and a sell of 1 is short by 0.5.
        let error = assertThrows(.invalidArgument) {
            try b.addTransaction(json: #"{"coin_id":"bitcoin","kind":"sell","amount":"1","price":1,"timestamp":"2100-01-01T00:00:00Z"}"#)
        }
        XCTAssertEqual(
            shortfall(error), ["coin_id": .string("bitcoin"), "timestamp": .string("2100-01-01T00:00:00Z"), "short_by": .number(0.5)])
        // The refused write summed the ledger again and kept what it read.
        XCTAssertEqual(b.store.keptPositions(), ["main/bitcoin=0.5"])
        try b.setHolding(coinID: "bitcoin", amount: 0)
        XCTAssertEqual(b.store.keptPositions(), ["main/bitcoin=0"])
        try a.setHoldings([Holding(coinID: "bitcoin", amount: 2), Holding(coinID: "ethereum", amount: 1)])
        let page = try a.transactions()
        XCTAssertEqual(page.transactions.map(\.kind), [.transferIn, .transferIn, .sell, .transferOut, .transferIn, .transferIn])
        XCTAssertEqual(page.transactions.map(\.amount.description), ["1", "2", "2.5", "0.5", "2", "1"])
        try assertPositionsMatchTransactions(a, database.location, owner: database.owner)
    }

    func testSeveralConnectionsWritingOneOwnerKeepPositionsExact() throws {
        let database = try TestDatabase.fresh(self)
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                let engine = try PortfolioEngine(configuration: EngineConfiguration(database: database.location, owner: database.owner))
                defer { engine.close() }
                for round in 0..<15 {
                    try engine.setHoldings((0..<5).map { Holding(coinID: "coin-\($0)", amount: Double(worker + round % 3) + 0.25) })
                    _ = try engine.addTransaction(
                        json:
                            #"{"coin_id":"coin-\#(round % 5)","kind":"buy","amount":"0.125","price":1,"timestamp":"2024-01-01T00:00:00Z"}"#)
                    _ = try? engine.addTransaction(
                        json: #"{"coin_id":"coin-\#(worker)","kind":"sell","amount":"0.5","price":1,"timestamp":"2024-01-02T00:00:00Z"}"#)
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let engine = try self.engine(database.location, owner: database.owner)
        try engine.setHoldings(try engine.store.holdings())  // a write: the positions summed and kept
        try assertPositionsMatchTransactions(engine, database.location, owner: database.owner)
        for coin in try engine.pnl().coins { XCTAssertFalse(coin.amount.isNegative, coin.coinID) }
    }
}
