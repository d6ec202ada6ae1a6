import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §21's `engine.changes`: this engine's own changes at once, and those of a second engine
/// on the same file found by the watcher, without the host querying.
final class ChangeStreamTests: LoopbackServerTestCase {
    private var path = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        path = try temporaryDirectory(self).appendingPathComponent("portfolio.sqlite").path
    }

    private func engine() throws -> PortfolioEngine {
        try PortfolioEngine(configuration: EngineConfiguration(database: path, api: try server.configuration()))
    }

    /// The next change, or nil when none came before the guard (a hung test fails instead of
    /// waiting forever; no duration is asserted).
    private func next(_ changes: AsyncStream<EngineChange>.AsyncIterator) async -> (EngineChange?, AsyncStream<EngineChange>.AsyncIterator)
    {
        let box = IteratorBox(changes)
        let change = await withTaskGroup(of: EngineChange?.self) { group in
            group.addTask { await box.next() }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return (change, box.iterator)
    }

    /// Waits until the watcher has taken its first look (what later changes count from).
    private func baseline(_ engine: PortfolioEngine) async {
        while !engine.changeFeed.hasBaseline { await Task.yield() }
    }

    func testOwnLedgerWritesArriveNamingTheirPortfolio() async throws {
        let engine = try engine()
        var changes = engine.changes.makeAsyncIterator()
        try await engine.setHolding(coinID: "bitcoin", amount: 1)
        var change: EngineChange?
        (change, changes) = await next(changes)
        XCTAssertEqual(change, .ledger(portfolio: "main"))
        try await engine.createPortfolio(name: "cold")
        (change, changes) = await next(changes)
        XCTAssertEqual(change, .ledger(portfolio: "cold"))
        try await engine.addTransaction(json: #"{"portfolio":"cold","coin_id":"ethereum","kind":"buy","amount":"2","price":"3000"}"#)
        (change, changes) = await next(changes)
        XCTAssertEqual(change, .ledger(portfolio: "cold"))
    }

    func testALedgerWriteByASecondEngineOnTheSameFileArrives() async throws {
        let engine = try engine()
        let other = try self.engine()
        var changes = engine.changes.makeAsyncIterator()
        await baseline(engine)
        try await other.setHolding(coinID: "ethereum", amount: 3)
        var change: EngineChange?
        (change, changes) = await next(changes)
        XCTAssertEqual(change, .ledger(portfolio: nil))
        let held = try await engine.portfolio()
        XCTAssertEqual(held.entries.map(\.coinID), ["ethereum"])
        // Its own write next: named, and not reported a second time by the watcher.
        try await engine.setHolding(coinID: "bitcoin", amount: 1)
        (change, changes) = await next(changes)
        XCTAssertEqual(change, .ledger(portfolio: "main"))
        try await other.setHolding(coinID: "dogecoin", amount: 5)
        (change, changes) = await next(changes)
        XCTAssertEqual(change, .ledger(portfolio: nil))
    }

    func testASnapshotSavedByASecondEngineIsInstalledAndArrives() async throws {
        let engine = try engine()
        let other = try self.engine()
        var changes = engine.changes.makeAsyncIterator()
        await baseline(engine)
        XCTAssertNil(engine.currentSnapshotAsOf)
        let saved = try await other.refresh()
        var change: EngineChange?
        (change, changes) = await next(changes)
        guard case .snapshot(let summary) = change else { return XCTFail("expected a snapshot, got \(String(describing: change))") }
        XCTAssertEqual(summary.coins, saved.coins)
        XCTAssertEqual(summary.fetchedAt.timeIntervalSince1970, saved.fetchedAt.timeIntervalSince1970)
        let listing = try await engine.coins()
        XCTAssertEqual(listing.total, saved.coins)
    }

    func testOwnRefreshesArriveAndSoDoTheirFailures() async throws {
        let engine = try engine()
        var changes = engine.changes.makeAsyncIterator()
        let summary = try await engine.refresh()
        var change: EngineChange?
        (change, changes) = await next(changes)
        XCTAssertEqual(change, .snapshot(summary))
        try server.fault(["path": "/api/v3/coins/markets", "status": 500])
        do {
            try await engine.refresh()
            XCTFail("the refresh did not fail")
        } catch let error as CoinfolioError {
            (change, changes) = await next(changes)
            XCTAssertEqual(change, .refreshFailed(error))
        }
    }

    func testTheWatcherEndsWithItsLastConsumer() async throws {
        let engine = try engine()
        XCTAssertFalse(engine.changeFeed.hasSubscribers)
        let consumer = Task {
            for await _ in engine.changes {}
        }
        while !engine.changeFeed.hasSubscribers { await Task.yield() }
        consumer.cancel()
        await consumer.value
        XCTAssertFalse(engine.changeFeed.hasSubscribers)
    }
}

/// An iterator handed to a child task and back.
private final class IteratorBox: @unchecked Sendable {
    var iterator: AsyncStream<EngineChange>.AsyncIterator
    init(_ iterator: AsyncStream<EngineChange>.AsyncIterator) { self.iterator = iterator }
    func next() async -> EngineChange? { await iterator.next() }
}
