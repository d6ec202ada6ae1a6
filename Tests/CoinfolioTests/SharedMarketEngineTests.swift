import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// SPEC §20 on both backends: market data stored once per database, one refresh for many
/// engines (`refresh_max_age_s`, the market lock across threads and processes, `"fetched"`), the
/// version check, and owners who share the market but never each other's ledgers. Requests are
/// counted on the loopback server.
final class SharedMarketEngineTests: LoopbackServerTestCase {
    private func engine(
        _ database: TestDatabase, owner: String? = nil, maxAge: Double = 0, coinLimit: Int = 250,
        windows: [Coin.ChangeWindow] = [.h24]
    ) throws -> PortfolioEngine {
        try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: owner ?? database.owner, coinLimit: coinLimit, priceChangePercentage: windows,
                api: try server.configuration(), refreshMaxAge: maxAge))
    }

    private func requests() throws -> Int { try server.log().count }

    // MARK: - One refresh for many engines

    func testASecondRefreshWithinTheMaxAgeSendsNothingAndSaysSo() throws {
        let database = try TestDatabase.fresh(self)
        try server.live()
        let alice = try engine(database, maxAge: 60)
        let first = try alice.refresh()
        XCTAssertTrue(first.fetched)
        XCTAssertTrue(first.json.hasSuffix(#""fetched":true}"#), first.json)
        XCTAssertEqual(try requests(), 2, "one markets page and /global")
        let bob = try engine(database, owner: "bob-\(UUID().uuidString)", maxAge: 60)
        let second = try bob.refresh()
        XCTAssertFalse(second.fetched)
        XCTAssertTrue(second.json.hasSuffix(#""fetched":false}"#), second.json)
        XCTAssertEqual(try requests(), 2, "nothing sent")
        XCTAssertEqual(
            second.fetchedAt.timeIntervalSince1970, first.fetchedAt.timeIntervalSince1970, accuracy: 1e-6,
            "the snapshot Alice's refresh fetched")
        XCTAssertEqual(try bob.coins().total, 12)
        XCTAssertFalse(try alice.refresh().fetched, "Alice's own second refresh too")
        // A snapshot asked for less than this engine asks for does not answer it.
        let wider = try engine(database, maxAge: 60, windows: [.h24, .d7])
        XCTAssertTrue(try wider.refresh().fetched)
        XCTAssertEqual(try requests(), 4)
        XCTAssertFalse(try engine(database, maxAge: 60).refresh().fetched, "24h and 7d cover 24h")
        // Without a max age every refresh fetches.
        XCTAssertTrue(try engine(database).refresh().fetched)
        XCTAssertEqual(try requests(), 6)
    }

    /// Threads refreshing at once: the first holds the currency's market lock while it downloads
    /// (its `/global` answer held back by the server), the others wait for it and answer with
    /// its snapshot — with no max age at all.
    func testEnginesRefreshingAtOnceOnThreadsSendOneSetOfRequests() throws {
        let database = try TestDatabase.fresh(self)
        try server.live()
        try server.fault(["path": "/api/v3/global", "times": -1, "delay_ms": 1500])
        let engines = try (0..<8).map { try engine(database, owner: "owner-\($0)-\(UUID().uuidString)") }
        let summaries = Mutex<[RefreshSummary]>([])
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for engine in engines {
            done.enter()
            Thread.detachNewThread {
                do {
                    let summary = try engine.refresh()
                    summaries.withLock { $0.append(summary) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                done.leave()
            }
        }
        done.wait()
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(try server.requests(to: "/api/v3/coins/markets").count, 1)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 1)
        let all = summaries.withLock { $0 }
        XCTAssertEqual(all.filter(\.fetched).count, 1, "one engine fetched")
        XCTAssertEqual(Set(all.map(\.fetchedAt.timeIntervalSince1970)).count, 1, "every engine answers with its snapshot")
        for engine in engines { XCTAssertEqual(try engine.coins().total, 12) }
    }

    /// Processes refreshing at once (the CLI's `home`, each its own owner): one set of requests.
    func testEightProcessesRefreshingAtOnceSendOneSetOfRequests() throws {
        let database = try TestDatabase.fresh(self)
        try server.live()
        try server.fault(["path": "/api/v3/global", "times": -1, "delay_ms": 1000])
        let cli = Repository.root.appendingPathComponent(".build/debug/coinfolio-cli")
        let processes = try (0..<8).map { index -> (Process, Pipe) in
            let process = Process()
            let output = Pipe()
            process.executableURL = cli
            process.arguments = [
                "--db", database.location, "--owner", "process-\(index)-\(database.owner)", "--base-url", server.baseURL,
                "--refresh-max-age", "60", "--json", "home",
            ]
            process.standardOutput = output
            process.standardError = output
            try process.run()
            return (process, output)
        }
        for (process, output) in processes {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, text)
        }
        XCTAssertEqual(try server.requests(to: "/api/v3/coins/markets").count, 1)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 1)
    }

    /// The version check: an engine sees a snapshot another engine saved on its first query that
    /// starts at least 1 s after the save.
    func testAnEngineSeesAnotherEnginesNewSnapshotOnItsNextQuery() throws {
        let database = try TestDatabase.fresh(self)
        let reader = try engine(database)
        assertThrows(.noData) { try reader.coins() }
        let writer = try engine(database, owner: "writer-\(UUID().uuidString)")
        try writer.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        Thread.sleep(forTimeInterval: 1.1)
        XCTAssertEqual(try reader.coins().total, 12, "the first snapshot")
        try writer.load(
            marketsBody: Data(#"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":1,"market_cap_rank":1}]"#.utf8),
            globalBody: nil)
        Thread.sleep(forTimeInterval: 1.1)
        XCTAssertEqual(try reader.coins().coins.map(\.currentPrice), [1], "a replaced one")
        try server.live()
        try writer.setHolding(coinID: "bitcoin", amount: 1)
        try reader.setHolding(coinID: "bitcoin", amount: 1)
        XCTAssertEqual(try writer.refreshPrices().coins, 1)
        Thread.sleep(forTimeInterval: 1.1)
        XCTAssertEqual(try reader.portfolio().totalValue, 58000.5, "a price update")
    }

    // MARK: - Every owner's holdings priced, no owner's shown to another

    func testARefreshPricesEveryOwnersCoinsAndListsThemOnlyToTheirHolders() throws {
        let database = try TestDatabase.fresh(self)
        try server.live()
        let alice = try engine(database, coinLimit: 5)
        try alice.setHolding(coinID: "baby-doge-coin", amount: 1_000_000)
        let bob = try engine(database, owner: "bob-\(UUID().uuidString)", coinLimit: 5)
        try bob.setHolding(coinID: "hive_dollar", amount: 3)
        try bob.setHolding(coinID: "bitcoin", amount: 1)
        try bob.refresh()
        let topUp = try XCTUnwrap(server.requests(to: "/api/v3/coins/markets").last?["query"] as? [String: String])
        XCTAssertEqual(topUp["ids"], "baby-doge-coin,hive_dollar", "Bob's refresh asks for Alice's coin too")
        Thread.sleep(forTimeInterval: 1.1)
        XCTAssertNotNil(try alice.portfolio().entries.first?.coin, "Alice's coin is priced by Bob's refresh")
        let aliceList = try alice.coins().coins.map(\.id)
        let bobList = try bob.coins().coins.map(\.id)
        XCTAssertTrue(aliceList.contains("baby-doge-coin") && !aliceList.contains("hive_dollar"), "\(aliceList)")
        XCTAssertTrue(bobList.contains("hive_dollar") && !bobList.contains("baby-doge-coin"), "\(bobList)")
        XCTAssertEqual(try alice.coins().total, 6)
        assertThrows(.notFound) { try alice.coinStatistics(id: "hive_dollar") }
        XCTAssertEqual(try bob.coinStatistics(id: "hive_dollar").coin.id, "hive_dollar")
    }

    /// Every call that reads or writes a ledger stays within its owner's rows, while the
    /// market is shared.
    func testOwnersNeverSeeEachOthersLedgerThroughAnyCall() throws {
        let database = try TestDatabase.fresh(self)
        let alice = try engine(database)
        try alice.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try alice.createPortfolio(name: "cold")
        let bought = try alice.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"buy","amount":"2","price":"100","timestamp":"2024-01-01","external_id":"a-1"}"#)
        try alice.setHolding(coinID: "ethereum", amount: 3, portfolio: "cold")
        let bob = try engine(database, owner: "bob-\(UUID().uuidString)")
        XCTAssertEqual(try bob.coins().total, 12, "the market is shared")
        XCTAssertEqual(try bob.portfolio().entries.count, 0)
        XCTAssertEqual(try bob.transactions().total, 0)
        XCTAssertEqual(try bob.portfolios().map(\.name), ["main"])
        XCTAssertEqual(try bob.pnl(PnLOptions()).coins.count, 0)
        XCTAssertEqual(try bob.statistics()[3].value, "$0.00")
        XCTAssertEqual(String(decoding: try bob.exportCSV(portfolio: nil), as: UTF8.self).split(separator: "\r\n").count, 1)
        assertThrows(.notFound) { try bob.deleteTransaction(id: String(try XCTUnwrap(bought.id))) }
        assertThrows(.notFound) { try bob.renamePortfolio("cold", to: "mine") }
        try bob.setHolding(coinID: "bitcoin", amount: 5)
        XCTAssertEqual(try alice.portfolio().entries.map(\.amount), [2])
        XCTAssertEqual(try alice.transactions().total, 1)
        XCTAssertEqual(try alice.portfolios().map(\.name), ["cold", "main"])
    }
}
