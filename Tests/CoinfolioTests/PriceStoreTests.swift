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
}
