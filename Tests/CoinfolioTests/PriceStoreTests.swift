import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §17 and §20: CoinGecko's price points are stored once and shared by every owner of the
/// database; manual prices belong to their owner. Runs on SQLite and, in the PostgreSQL pass, on
/// the test cluster (where every test shares one database: each test prices a coin of its own).
final class PriceStoreTests: XCTestCase {
    private let march1: Int64 = 1_709_251_200_000  // 2024-03-01T00:00:00Z
    private let hour: Int64 = 3_600_000

    private func coin() -> String { "coin-\(UUID().uuidString.lowercased())" }

    /// Two owners' stores of one new database.
    private func twoOwners() throws -> (alice: PortfolioStore, bob: PortfolioStore) {
        let database = try TestDatabase.fresh(self)
        return (try database.store(), try database.other(owner: database.owner + "-bob").store())
    }

    func testPointsAreSharedByOwnersAndTheRuleFindsBeforeThenAfterWithinTheDay() throws {
        let (alice, bob) = try twoOwners()
        defer {
            alice.close()
            bob.close()
        }
        let id = coin()
        try alice.savePricePoints(
            coinID: id, vsCurrency: "usd",
            points: [
                PricePoint(time: march1 + 2 * 60_000, price: 110), PricePoint(time: march1 + hour + 2 * 60_000, price: 111),
                PricePoint(time: march1 - hour, price: 99),
            ])
        // Bob sees Alice's fetch: market data is the database's, not an owner's.
        let at = try bob.pricePointCandidates(coinID: id, vsCurrency: "usd", time: march1 + 90 * 60_000)
        XCTAssertEqual(at.atOrBefore, PricePoint(time: march1 + hour + 2 * 60_000, price: 111))
        // 00:01 has no point since midnight: the first after it that day (00:02) answers.
        let early = try bob.pricePointCandidates(coinID: id, vsCurrency: "usd", time: march1 + 60_000)
        XCTAssertNil(early.atOrBefore)
        XCTAssertEqual(early.after, PricePoint(time: march1 + 2 * 60_000, price: 110))
        // Another currency, or the next day, has nothing.
        XCTAssertNil(try bob.pricePointCandidates(coinID: id, vsCurrency: "eur", time: march1 + hour).atOrBefore)
        let nextDay = try bob.pricePointCandidates(coinID: id, vsCurrency: "usd", time: march1 + 30 * hour)
        XCTAssertNil(nextDay.atOrBefore)
        XCTAssertNil(nextDay.after)
        XCTAssertEqual(
            try alice.pricePoints(coinID: id, vsCurrency: "usd", from: march1 - hour, to: march1 + hour).map(\.price), [99, 110])
    }

    func testSavingAPointAgainReplacesItsPriceAndKeepsTinyPricesExact() throws {
        let store = try TestDatabase.fresh(self).store()
        defer { store.close() }
        let id = coin()
        try store.savePricePoints(coinID: id, vsCurrency: "btc", points: [PricePoint(time: march1, price: 2.6e-13)])
        XCTAssertEqual(try store.pricePoints(coinID: id, vsCurrency: "btc", from: march1, to: march1).first?.price, 2.6e-13)
        try store.savePricePoints(coinID: id, vsCurrency: "btc", points: [PricePoint(time: march1, price: 62641.967327043465)])
        XCTAssertEqual(
            try store.pricePoints(coinID: id, vsCurrency: "btc", from: 0, to: march1 * 2),
            [PricePoint(time: march1, price: 62641.967327043465)])
    }

    func testManualPricesBelongToTheirOwner() throws {
        let (alice, bob) = try twoOwners()
        defer {
            alice.close()
            bob.close()
        }
        let id = coin()
        let price = try XCTUnwrap(ExactDecimal("0.100000000000000001"))
        XCTAssertTrue(try alice.setManualPrice(coinID: id, vsCurrency: "usd", time: march1 + hour, price: price))
        XCTAssertTrue(try alice.setManualPrice(coinID: id, vsCurrency: "usd", time: nil, price: 42))
        XCTAssertEqual(try alice.manualPricePoints(coinID: id, vsCurrency: "usd", onDayOf: march1 + 2 * hour).map(\.price), [price])
        XCTAssertEqual(try alice.manualPricePoints(coinID: id, vsCurrency: "usd", onDayOf: march1).first?.time, march1 + hour)
        XCTAssertEqual(try alice.manualPricePoints(coinID: id, vsCurrency: "usd", onDayOf: march1 + 86_400_000), [])
        XCTAssertEqual(try alice.manualCurrentPrices(vsCurrency: "usd"), [id: 42])
        XCTAssertEqual(try bob.manualPricePoints(coinID: id, vsCurrency: "usd", onDayOf: march1), [])
        XCTAssertEqual(try bob.manualCurrentPrices(vsCurrency: "usd"), [:])
        // Removing: Bob removes nothing of Alice's; Alice removes hers.
        XCTAssertFalse(try bob.setManualPrice(coinID: id, vsCurrency: "usd", time: nil, price: nil))
        XCTAssertTrue(try alice.setManualPrice(coinID: id, vsCurrency: "usd", time: nil, price: nil))
        XCTAssertTrue(try alice.setManualPrice(coinID: id, vsCurrency: "usd", time: march1 + hour, price: nil))
        XCTAssertEqual(try alice.manualCurrentPrices(vsCurrency: "usd"), [:])
        XCTAssertEqual(try alice.manualPricePoints(coinID: id, vsCurrency: "usd", onDayOf: march1), [])
    }

    /// Step 11 after the service's step 10 (SPEC §20's shared market data): a database written by
    /// a step-10 Coinfolio keeps its shared snapshot and every ledger row, gains the price tables,
    /// and its pending row is found through the new index.
    func testAStep10DatabaseMigratesToPricePoints() throws {
        let location =
            TestDatabase.isPostgres
            ? try TestDatabase.emptyPostgresDatabase(self) : try temporaryDirectory(self).appendingPathComponent("step10.sqlite").path
        let database = try DatabaseLocation.open(location)
        defer { database.close() }
        try database.prepareForUse()
        try Schema.migrate(database, upTo: 10)
        let coins = try CoinGeckoBody.markets(try Repository.fixture("markets.json")).coins
        try database.transaction(.readCommitted) {
            let blob = SnapshotCodec.encode(Array(coins.prefix(3)))
            let snapshot = try database.statement(
                """
                INSERT INTO snapshot (vs_currency, as_of, fetched_at, refresh_failed, format, coins, global, version)
                VALUES ('usd', 100, 100, 0, 1, ?1, NULL, 4)
                """)
            try blob.withUnsafeBytes { raw in
                snapshot.bind(1, borrowing: raw)
                try snapshot.run("snapshot")
            }
            try database.execute(
                """
                INSERT INTO portfolio (owner, name, vs_currency) VALUES ('alice', 'main', NULL);
                INSERT INTO ledger_transaction (owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note,
                    external_id, group_id, income_type, fee_coin_id, fee_price, price_source)
                VALUES ('alice', 'main', 'bitcoin', 'buy', '0.5', '100', '1', 1704067200000, NULL, 'x-1', NULL, NULL, NULL, NULL,
                        'user'),
                    ('alice', 'main', 'ethereum', 'income', '0.01', NULL, '0', 1704153600000, 'staking', NULL, NULL, 'staking',
                        NULL, NULL, 'pending');
                INSERT INTO ledger_change (owner, counter) VALUES ('alice', 2);
                """)
        }
        let ledger = "SELECT id, owner, portfolio, coin_id, kind, amount, price, fee, price_source FROM ledger_transaction ORDER BY id"
        func dump() throws -> [String] {
            let select = try database.statement(ledger)
            defer { select.reset() }
            var rows: [String] = []
            while try select.next() { rows.append((0..<9).map { select.text(Int32($0)) ?? "NULL" }.joined(separator: " ")) }
            return rows
        }
        let before = try dump()
        try Schema.migrate(database)
        XCTAssertEqual(try database.schemaVersion(), 11)
        XCTAssertEqual(Schema.currentVersion, 11)
        XCTAssertEqual(try dump(), before, "no ledger row changed")
        XCTAssertEqual(try database.statement("SELECT count(*) FROM price_point").scalarInt(), 0)
        let store = try PortfolioStore(path: location, owner: "alice")
        defer { store.close() }
        XCTAssertEqual(try store.savedSnapshot(vsCurrency: "usd")?.stamp.version, 4, "the shared snapshot stays")
        XCTAssertEqual(try store.pendingPrices(portfolio: nil).map(\.coinID), ["ethereum"])
        try store.savePricePoints(coinID: "ethereum", vsCurrency: "usd", points: [PricePoint(time: 1_704_153_600_000, price: 2300)])
        XCTAssertEqual(
            try store.pricePointCandidates(coinID: "ethereum", vsCurrency: "usd", time: 1_704_153_600_000).atOrBefore?.price, 2300)
    }
}
