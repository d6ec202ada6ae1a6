import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// SPEC §15: progress of long work, reported on the calling thread.
final class ProgressTests: XCTestCase {
    private var server: TestServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func engine(coinLimit: Int) throws -> PortfolioEngine {
        let server = try self.server ?? TestServer()
        self.server = server
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                coinLimit: coinLimit, api: try ClientConfiguration(baseURL: server.baseURL, timeout: 5, maxRetries: 0)))
    }

    private func universe(_ count: Int) -> String {
        "["
            + (1...count).map {
                #"{"id":"coin-\#($0)","symbol":"c\#($0)","name":"Coin \#($0)","current_price":1.0,"market_cap_rank":\#($0)}"#
            }
            .joined(separator: ",") + "]"
    }

    func testFivePageRefreshReportsEveryPageThenGlobal() throws {
        let engine = try engine(coinLimit: 1250)
        try server?.route(["path": "/api/v3/coins/markets", "body": universe(1250)])
        let reports = Mutex<[String]>([])
        let caller = pthread_self()
        let onCaller = Mutex(true)
        engine.setProgressHandler { progress in
            reports.withLock { $0.append(progress.json) }
            if pthread_equal(pthread_self(), caller) == 0 { onCaller.withLock { $0 = false } }
        }
        XCTAssertEqual(try engine.refresh().coins, 1250)
        XCTAssertEqual(
            reports.withLock { $0 },
            [
                #"{"phase":"markets","done":0,"total":5}"#, #"{"phase":"markets","done":1,"total":5}"#,
                #"{"phase":"markets","done":2,"total":5}"#, #"{"phase":"markets","done":3,"total":5}"#,
                #"{"phase":"markets","done":4,"total":5}"#, #"{"phase":"markets","done":5,"total":5}"#,
                #"{"phase":"global","done":0,"total":1}"#, #"{"phase":"global","done":1,"total":1}"#,
            ])
        XCTAssertTrue(onCaller.withLock { $0 })
    }

    func testHeldCoinsMissingFromThePagesReportTheIDsPhase() throws {
        let engine = try engine(coinLimit: 1)
        try engine.setHolding(coinID: "ethereum", amount: 1)
        let reports = Mutex<[WorkProgress]>([])
        engine.setProgressHandler { progress in reports.withLock { $0.append(progress) } }
        try engine.refresh()
        XCTAssertEqual(
            reports.withLock { Array($0.suffix(2)) },
            [WorkProgress(phase: .ids, done: 0, total: 1), WorkProgress(phase: .ids, done: 1, total: 1)])
    }

    func testNilHandlerTurnsProgressOff() throws {
        let engine = try engine(coinLimit: 10)
        let calls = Mutex(0)
        engine.setProgressHandler { _ in calls.withLock { $0 += 1 } }
        engine.setProgressHandler(nil)
        try engine.refresh()
        XCTAssertEqual(calls.withLock { $0 }, 0)
    }

    func testUnknownTotalIsNull() {
        XCTAssertEqual(WorkProgress(phase: .import, done: 3, total: nil).json, #"{"phase":"import","done":3,"total":null}"#)
    }
}
