import Foundation
import XCTest

@testable import Coinfolio
@testable import CoinfolioObservation

/// SPEC §21's HomeModel doing what the original app's HomeViewModel did: search, sort, the
/// portfolio list from the holdings, statistics with the portfolio value and its 24 h change,
/// reload with its loading state, updatePortfolio. Figures worked by hand from
/// Tests/fixtures/coingecko/markets.json.
@MainActor
final class HomeModelTests: LoopbackServerTestCase {
    private func model(loaded: Bool = true) async throws -> HomeModel {
        let path = try temporaryDirectory(self).appendingPathComponent("portfolio.sqlite").path
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: path, api: try server.configuration()))
        if loaded {
            try await engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        }
        return HomeModel(engine: engine)
    }

    /// Waits for the update a change of `searchText` or `sortOption` started.
    private func settle(_ model: HomeModel) async {
        await model.pendingUpdate?.value
    }

    func testTheListsAndStatisticsWithHoldings() async throws {
        let model = try await model()
        XCTAssertEqual(model.allCoins, [])  // nothing read before update() or reload()
        try await model.engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try await model.engine.setHolding(coinID: "ethereum", amount: 2)
        await model.update()
        XCTAssertEqual(model.allCoins.count, 12)
        XCTAssertEqual(model.allCoins.prefix(3).map(\.id), ["bitcoin", "ethereum", "tether"])
        // The portfolio list comes from the holdings, highest value first with `holdings`.
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["bitcoin", "ethereum"])  // rank order
        XCTAssertEqual(try XCTUnwrap(model.portfolioCoins[0].value), 28_500.0615, accuracy: 1e-9)  // 0.5 × 57,000.123
        XCTAssertEqual(try XCTUnwrap(model.portfolioCoins[1].value), 7_857.1, accuracy: 1e-9)  // 2 × 3,928.55
        // Portfolio Value 36,357.1615; 24 h before: 0.5 × (57,000.123 − 1,199.71) + 2 × (3,928.55 + 54.5687)
        // = 35,866.4439, so the change is 490.7176 / 35,866.4439 = +1.36818 %.
        XCTAssertEqual(
            model.statistics.map(\.title),
            ["Market Cap", "24h Volume", "BTC Dominance", "Portfolio Value", "Unrealized P&L", "Realized P&L"])
        let value = model.statistics[3]
        XCTAssertEqual(value.value, "$36,357.16")
        XCTAssertEqual(try XCTUnwrap(value.percentageChange), 1.368180244933621646, accuracy: 1e-9)
    }

    func testSearchNarrowsBothLists() async throws {
        let model = try await model()
        try await model.engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try await model.engine.setHolding(coinID: "ethereum", amount: 2)
        model.searchText = "eth"
        await settle(model)
        // "eth" is in the names Ethereum and Tether and in the symbol weth of WETH and Binance-Peg WETH.
        XCTAssertEqual(model.allCoins.map(\.id), ["ethereum", "tether", "weth", "binance-peg-weth"])
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["ethereum"])
        model.searchText = "ÉTHER"  // case and accents folded as the engine's search does
        await settle(model)
        XCTAssertEqual(model.allCoins.map(\.id), ["ethereum", "tether"])
        model.searchText = ""
        await settle(model)
        XCTAssertEqual(model.allCoins.count, 12)
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["bitcoin", "ethereum"])
    }

    func testSortOrdersBothLists() async throws {
        let model = try await model()
        try await model.engine.setHolding(coinID: "ethereum", amount: 2)  // $7,857.10
        try await model.engine.setHolding(coinID: "dogecoin", amount: 100_000)  // $16,230.00
        try await model.engine.setHolding(coinID: "bitcoin", amount: 0.1)  // $5,700.0123
        model.sortOption = .price
        await settle(model)
        XCTAssertEqual(model.allCoins.prefix(3).map(\.id), ["bitcoin", "binance-peg-weth", "ethereum"])
        XCTAssertEqual(model.allCoins.last?.id, "compound-usdt")  // no price: last either way
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["bitcoin", "ethereum", "dogecoin"])
        model.sortOption = .priceReversed
        await settle(model)
        XCTAssertEqual(model.allCoins.first?.id, "baby-doge-coin")  // 1.186e-09
        XCTAssertEqual(model.allCoins.last?.id, "compound-usdt")
        model.sortOption = .holdings
        await settle(model)
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["dogecoin", "ethereum", "bitcoin"])
        XCTAssertEqual(model.allCoins.prefix(2).map(\.id), ["bitcoin", "ethereum"])  // a coin list by rank
        model.sortOption = .holdingsReversed
        await settle(model)
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["bitcoin", "ethereum", "dogecoin"])
    }

    func testUpdatePortfolioAddsChangesAndRemoves() async throws {
        let model = try await model()
        let coins = try await model.engine.coins()
        let dogecoin = try XCTUnwrap(coins.coins.first { $0.id == "dogecoin" })
        try await model.updatePortfolio(coin: dogecoin, amount: 1000)
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["dogecoin"])
        XCTAssertEqual(try XCTUnwrap(model.portfolioCoins[0].value), 162.3, accuracy: 1e-9)  // 1,000 × 0.1623
        XCTAssertEqual(model.statistics[3].value, "$162.30")
        try await model.updatePortfolio(coin: dogecoin, amount: 10)
        XCTAssertEqual(model.portfolioCoins[0].amount, 10)
        XCTAssertEqual(model.statistics[3].value, "$1.62")
        try await model.updatePortfolio(coin: dogecoin, amount: 0)
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), [])
        XCTAssertEqual(model.statistics[3].value, "$0.00")
        // A refused amount writes nothing and leaves the lists as they were.
        try await model.updatePortfolio(coin: dogecoin, amount: 5)
        do {
            try await model.updatePortfolio(coin: dogecoin, amount: .nan)
            XCTFail("a NaN amount was accepted")
        } catch let error as CoinfolioError {
            XCTAssertEqual(error.code, .invalidArgument)
        }
        XCTAssertEqual(model.portfolioCoins.map(\.amount), [5])
    }

    func testReloadRefreshesWithItsLoadingStateAndKeepsTheSnapshotWhenItFails() async throws {
        let model = try await model(loaded: false)
        try await model.engine.setHolding(coinID: "bitcoin", amount: 1)
        await model.update()
        XCTAssertEqual(model.allCoins, [])
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["bitcoin"])  // held, not priced yet
        XCTAssertNil(model.portfolioCoins[0].value)
        XCTAssertFalse(model.isLoading)
        let reload = Task { await model.reload() }
        await Task.yield()
        XCTAssertTrue(model.isLoading)
        await reload.value
        XCTAssertFalse(model.isLoading)
        XCTAssertNil(model.lastError)
        XCTAssertEqual(model.allCoins.count, 12)
        XCTAssertEqual(try XCTUnwrap(model.portfolioCoins[0].value), 57_000.123, accuracy: 1e-9)
        XCTAssertEqual(model.statistics[3].value, "$57,000.12")
        try server.fault(["path": "/api/v3/coins/markets", "status": 500])
        await model.reload()
        XCTAssertEqual(model.lastError?.code, .http)
        XCTAssertEqual(model.allCoins.count, 12)  // the saved snapshot, marked stale
        XCTAssertFalse(model.isLoading)
    }

    func testFollowChangesShowsAWriteByAnotherEngine() async throws {
        let model = try await model()
        let other = try PortfolioEngine(configuration: EngineConfiguration(database: model.engine.configuration.database))
        let following = Task { await model.followChanges() }
        defer { following.cancel() }
        while !model.engine.changeFeed.hasBaseline { await Task.yield() }
        try await other.setHolding(coinID: "tether", amount: 100)
        // Wait for the event (a hung test fails at the guard; no duration asserted).
        for _ in 0..<600 where model.portfolioCoins.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertEqual(model.portfolioCoins.map(\.coinID), ["tether"])
        XCTAssertEqual(model.statistics[3].value, "$100.02")  // 100 × 1.0002
    }
}
