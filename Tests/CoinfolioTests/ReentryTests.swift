import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// A progress handler calling back into the engine, with work that would wait for the very work
/// calling the handler: refused with `.invalidArgument` ("reentrant"), never a hang or a trap.
final class ReentryTests: XCTestCase {
    private var server: TestServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func engine() throws -> PortfolioEngine {
        let server = try self.server ?? TestServer()
        self.server = server
        return try PortfolioEngine(
            configuration: EngineConfiguration(api: try ClientConfiguration(baseURL: server.baseURL, timeout: 5, maxRetries: 0)))
    }

    /// Before: the handler waited for the download it was reporting on, forever.
    func testAChartHandlerAskingForTheSameChartIsRefused() throws {
        let engine = try engine()
        let inner = Mutex<[String]>([])
        engine.setProgressHandler { progress in
            do {
                let chart = try engine.chart(coinID: "bitcoin")
                inner.withLock { $0.append("done \(progress.done): \(chart.summary.last ?? -1)") }
            } catch let error as CoinfolioError {
                inner.withLock {
                    $0.append(
                        "done \(progress.done): \(error.code.name) \(error.details["reason"] == .string("reentrant") ? "reentrant" : "no reason")"
                    )
                }
            } catch {
                inner.withLock { $0.append("other error") }
            }
        }
        XCTAssertEqual(try engine.chart(coinID: "bitcoin").summary.last, 103_500.75)
        XCTAssertEqual(
            inner.withLock { $0 }, ["done 0: invalid_argument reentrant", "done 1: invalid_argument reentrant"])
        // Afterwards the chart is cached and a handler may read it again.
        XCTAssertEqual(try engine.chart(coinID: "bitcoin").summary.last, 103_500.75)
    }

    /// Before: refresh_prices, refresh or load from a refresh's handler stopped the process
    /// ("Recursive call to lock Mutex").
    func testRefreshWorkFromARefreshHandlerIsRefused() throws {
        let engine = try engine()
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 1)
        let markets = try Repository.fixture("markets.json")
        let codes = Mutex<[String]>([])
        engine.setProgressHandler { progress in
            guard progress.phase == .global, progress.done == 0 else { return }
            for work in [
                { _ = try engine.refreshPrices() }, { _ = try engine.refresh() },
                { _ = try engine.load(marketsBody: markets, globalBody: nil) },
            ] {
                do {
                    try work()
                    codes.withLock { $0.append("ok") }
                } catch let error as CoinfolioError {
                    codes.withLock {
                        $0.append("\(error.code.name) \(error.details["reason"] == .string("reentrant") ? "reentrant" : "no reason")")
                    }
                } catch {
                    codes.withLock { $0.append("other error") }
                }
            }
        }
        XCTAssertEqual(try engine.refresh().coins, 12)
        XCTAssertEqual(
            codes.withLock { $0 },
            ["invalid_argument reentrant", "invalid_argument reentrant", "invalid_argument reentrant"])
        // Outside the handler the same calls work.
        engine.setProgressHandler(nil)
        XCTAssertEqual(try engine.refreshPrices().coins, 1)
    }

    /// Another thread asking for the chart being downloaded still waits for it and shares it.
    func testOtherThreadsStillShareTheDownload() throws {
        let engine = try engine()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        engine.setProgressHandler { progress in
            if progress.done == 0 { started.signal(); release.wait() }
        }
        let other = Mutex<Double?>(nil)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { _ = try? engine.chart(coinID: "bitcoin") }
        started.wait()
        DispatchQueue.global().async(group: group) { other.withLock { $0 = try? engine.chart(coinID: "bitcoin").summary.last } }
        Thread.sleep(forTimeInterval: 0.2)
        release.signal()
        group.wait()
        XCTAssertEqual(other.withLock { $0 }, 103_500.75)
        XCTAssertEqual(engine.metrics().httpRequests[.marketChart], 1)
    }
    /// A use of the database from inside a use of it on the same thread (a lookup inside a write
    /// that reads through the engine, not the write's connection) is refused, never a wait for
    /// itself; the connection is given back and the next call works.
    func testTheDatabaseUsedFromInsideItsOwnUseIsRefused() throws {
        let connection = try StoreConnection(path: ":memory:")
        let error = assertThrows(.internalError) { _ = try connection.locked { _ in try connection.reading { _ in 1 } } }
        XCTAssertEqual(error?.details["reason"], .string("reentrant"))
        XCTAssertEqual(try connection.reading { _ in 2 }, 2)
    }
}
