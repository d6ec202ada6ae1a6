import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// SPEC §21's async API against the loopback server: the same answers as the blocking calls, the
/// work on Coinfolio's worker threads, and Task cancellation reaching the HTTP request (events
/// asserted, never durations).
final class AsyncEngineTests: LoopbackServerTestCase {
    private func engine(database: String) throws -> PortfolioEngine {
        try PortfolioEngine(configuration: EngineConfiguration(database: database, api: try server.configuration()))
    }

    private func database() throws -> String {
        try temporaryDirectory(self).appendingPathComponent("portfolio.sqlite").path
    }

    /// The saved snapshot's row as the database has it: (fetched_at, refresh failed).
    private func savedSnapshot(_ path: String) throws -> (fetchedAt: Double, refreshFailed: Bool)? {
        let store = try PortfolioStore(path: path)
        defer { store.close() }
        return try store.savedSnapshot(vsCurrency: "usd").map { ($0.fetchedAt, $0.refreshFailed) }
    }

    func testAsyncRefreshAnswersAsTheBlockingOneOnAWorkerThread() async throws {
        let engine = try engine(database: try database())
        let threads = Mutex<Set<Bool>>([])
        engine.setProgressHandler { _ in threads.withLock { _ = $0.insert(WorkerThreads.isWorkerThread) } }
        try await engine.setHolding(coinID: "bitcoin", amount: 0.5)
        let summary = try await engine.refresh()
        XCTAssertEqual(summary.coins, try blocking { try engine.coins().total })
        XCTAssertEqual(threads.withLock { $0 }, [true])  // every report came from a worker thread
        let listing = try await engine.coins(CoinQuery(limit: 3))
        XCTAssertEqual(listing.coins.map(\.id), try blocking { try engine.coins(CoinQuery(limit: 3)).coins.map(\.id) })
        let portfolio = try await engine.portfolio()
        XCTAssertEqual(portfolio.entries.map(\.coinID), ["bitcoin"])
        let statistics = try await engine.statistics()
        XCTAssertEqual(statistics.map(\.title), try blocking { try engine.statistics().map(\.title) })
        XCTAssertEqual(try server.requests(to: "/api/v3/coins/markets").count, 1)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 1)
    }

    /// The case: a refresh whose markets body is held back is cancelled while it waits; it
    /// throws CancellationError, the request is abandoned (the server sees the client close
    /// before the body), and the saved snapshot is exactly as it was, not marked failed.
    func testSlowRefreshCancelledAfter100msThrowsAndSavesNothing() async throws {
        let path = try database()
        let engine = try engine(database: path)
        try await engine.refresh()
        let before = try XCTUnwrap(try savedSnapshot(path))
        let asOfBefore = engine.currentSnapshotAsOf
        try server.control("reset")
        try server.fault(["path": "/api/v3/coins/markets", "delay_ms": 60_000])
        let refresh = Task { try await engine.refresh() }
        // Cancelled once the server holds the markets request back (not after a fixed 100 ms: on a
        // loaded machine the request may not have left yet, and none would be abandoned).
        var held = false
        for _ in 0..<600 where !held {
            held = try !server.requests(to: "/api/v3/coins/markets").isEmpty
            if !held { try await Task.sleep(for: .milliseconds(50)) }
        }
        XCTAssertTrue(held, "the markets request reached the server")
        refresh.cancel()
        do {
            _ = try await refresh.value
            XCTFail("the cancelled refresh returned")
        } catch is CancellationError {
        } catch {
            XCTFail("expected CancellationError, got \(error)")
        }
        // The server saw the client close before the held body: the request was stopped.
        var abandoned = false
        for _ in 0..<100 where !abandoned {
            abandoned = try server.requests(to: "/api/v3/coins/markets").contains { $0["abandoned"] as? Bool == true }
            if !abandoned { try await Task.sleep(for: .milliseconds(50)) }
        }
        XCTAssertTrue(abandoned)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 0)
        let after = try XCTUnwrap(try savedSnapshot(path))
        XCTAssertEqual(after.fetchedAt, before.fetchedAt)
        XCTAssertFalse(after.refreshFailed)
        XCTAssertEqual(engine.currentSnapshotAsOf, asOfBefore)
        XCTAssertEqual(engine.currentSnapshot()?.refreshFailed, false)
    }

    /// Cancelled between its requests (from the progress handler, after the markets page): the
    /// `/global` request is never sent and nothing is saved.
    func testRefreshCancelledBetweenRequestsSendsNoMoreAndSavesNothing() async throws {
        let path = try database()
        let engine = try engine(database: path)
        await assertCancelled(engine, when: { $0.phase == .markets && $0.done == 1 }) { try await engine.refresh() }
        XCTAssertEqual(try server.requests(to: "/api/v3/coins/markets").count, 1)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 0)
        XCTAssertNil(try savedSnapshot(path))
        XCTAssertNil(engine.currentSnapshotAsOf)
    }

    /// A task cancelled before the call: nothing runs, nothing is sent.
    func testACallFromACancelledTaskDoesNothing() async throws {
        let engine = try engine(database: try database())
        let gate = DispatchSemaphore(value: 0)
        let refresh = Task {
            await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    gate.wait()
                    resume.resume()
                }
            }
            return try await engine.refresh()
        }
        refresh.cancel()
        gate.signal()
        await XCTAssertThrowsCancellation { _ = try await refresh.value }
        XCTAssertEqual(try server.log().count, 0)
    }

    /// An import cancelled while it runs (after its first 1,000 rows) rolls back whole.
    func testImportCancelledMidwayWritesNothing() async throws {
        let engine = try engine(database: try database())
        var csv = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n"
        for row in 0..<3000 { csv += "2024-01-01,main,bitcoin,buy,1,100,0,,row-\(row)\n" }
        let bytes = Data(csv.utf8)
        await assertCancelled(engine, when: { $0.phase == .import && $0.done == 1000 }) { try await engine.importCSV(bytes) }
        let left = try await engine.transactions()
        XCTAssertEqual(left.transactions.count, 0)
        // The same bytes import whole when nobody cancels.
        let summary = try await engine.importCSV(bytes)
        XCTAssertEqual(summary.imported, 3000)
    }

    func testClientAsyncCallsAnswerAndCancel() async throws {
        let client = try client()
        let global = try await client.global()
        XCTAssertEqual(global.activeCryptocurrencies, try blocking { try client.global().activeCryptocurrencies })
        try server.fault(["path": "/api/v3/coins/bitcoin", "delay_ms": 60_000])
        let detail = Task { try await client.coinDetail(id: "bitcoin") }
        try await Task.sleep(for: .milliseconds(100))
        detail.cancel()
        await XCTAssertThrowsCancellation { _ = try await detail.value }
    }
}

/// Runs `work` in a task that the engine's progress handler cancels at the report `when`
/// picks (an event, not a time), and asserts that it throws `CancellationError`.
func assertCancelled<T: Sendable>(
    _ engine: PortfolioEngine, when: @escaping @Sendable (WorkProgress) -> Bool, _ work: @escaping @Sendable () async throws -> T
) async {
    let task = Mutex<Task<T, any Error>?>(nil)
    let started = DispatchSemaphore(value: 0)
    let fired = Mutex(false)
    engine.setProgressHandler { progress in
        // Once only: a later report that matches too must not wait for a second signal.
        guard when(progress),
            fired.withLock({ fired in
                defer { fired = true }; return !fired
            })
        else { return }
        started.wait()
        task.withLock { $0?.cancel() }
    }
    let running = Task { try await work() }
    task.withLock { $0 = running }
    started.signal()
    await XCTAssertThrowsCancellation { _ = try await running.value }
    engine.setProgressHandler(nil)
}

/// Asserts that `body` throws `CancellationError`.
func XCTAssertThrowsCancellation(
    file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void
) async {
    do {
        try await body()
        XCTFail("expected CancellationError, nothing thrown", file: file, line: line)
    } catch is CancellationError {
    } catch {
        XCTFail("expected CancellationError, got \(error)", file: file, line: line)
    }
}

/// Calls the blocking form of an engine or client call from async code (inside a synchronous
/// closure Swift picks the blocking overload).
func blocking<T>(_ body: () throws -> T) rethrows -> T { try body() }
