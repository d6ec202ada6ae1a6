import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// A call that finds its handle in use by another call waits for it, and that wait counts in its
/// `database_timeout` (issue 31, break-it finding 7): calls queued behind one stuck on a frozen
/// server each give up after one bound, not one bound for every call ahead of them. No test
/// asserts how long anything took: each asserts which wait ran out, from the error.
final class HandleWaitTests: XCTestCase {
    private func assertHandleWaitRanOut(_ error: CoinfolioError?, seconds: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let error else { return XCTFail("no error", file: file, line: line) }
        XCTAssertEqual(error.code, .store, file: file, line: line)
        XCTAssertEqual(error.details["reason"], .string("timeout"), "\(error)", file: file, line: line)
        XCTAssertEqual(
            error.message,
            "another call on this handle kept the database busy: the database did not answer within \(seconds) s (database_timeout)",
            file: file, line: line)
    }

    /// SQLite: an import holds the engine's handle while its progress handler runs; a call from
    /// another thread meanwhile gives up after its bound, and works once the import is done.
    func testACallQueuedBehindAnotherOnTheHandleGivesUpAfterItsBound() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("queued.sqlite").path
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: path, databaseTimeout: 0.5))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        engine.setProgressHandler { progress in
            // The last report of an import comes from inside its write: the handle is held.
            guard progress.phase == .import, progress.total != nil else { return }
            holding.signal()
            release.wait()
        }
        nonisolated(unsafe) var queued: CoinfolioError?
        let other = Thread {
            holding.wait()
            queued = assertThrows(.store) { try engine.portfolio() }
            release.signal()
        }
        other.start()
        let csv = Array("timestamp,coin_id,kind,amount\n2024-01-01,bitcoin,transfer_in,1\n".utf8)
        let summary = try csv.withUnsafeBytes { try engine.importCSV($0) }
        XCTAssertEqual(summary.imported, 1)
        while !other.isFinished { usleep(1000) }
        assertHandleWaitRanOut(queued, seconds: "0.5")
        XCTAssertEqual(try engine.portfolio().entries.map(\.coinID), ["bitcoin"], "the next call works")
    }

    /// PostgreSQL: calls queued on one handle while the server is frozen each fail within one
    /// bound of their own: the first times out on its round trip and holds the handle for the
    /// cancel too, so the calls behind it run out of time waiting for the handle — or, when they
    /// get it, on their first round trip with what is left of their bound — never after a bound
    /// of their own once the calls ahead of them each used one.
    func testCallsQueuedOnAFrozenServerEachWaitOneBound() throws {
        let url = try TestDatabase.postgresURL()
        let owner = "queued-\(UUID().uuidString)"
        let store = try PortfolioStore(path: url, owner: owner, databaseTimeout: 1)
        try store.setHolding(coinID: "bitcoin", amount: 1)
        let processes = try TestDatabase.clusterProcesses()
        let errors = Mutex<[CoinfolioError]>([])
        do {
            for process in processes { kill(process, SIGSTOP) }
            defer { for process in processes { kill(process, SIGCONT) } }
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                do {
                    try store.setHolding(coinID: "coin-\(index)", amount: 1)
                } catch let error as CoinfolioError {
                    errors.withLock { $0.append(error) }
                } catch {
                    XCTFail("\(error)")
                }
            }
        }
        let failed = errors.withLock { $0 }
        XCTAssertEqual(failed.count, 4, "every call returned with an error")
        XCTAssertTrue(failed.allSatisfy { $0.details["reason"] == .string("timeout") }, "\(failed)")
        let queued = failed.filter { $0.message.hasPrefix("another call on this handle") }
        XCTAssertGreaterThanOrEqual(queued.count, 1, "a call behind the first ran out of time waiting for the handle: \(failed)")
        for error in queued { assertHandleWaitRanOut(error, seconds: "1") }
        try store.setHolding(coinID: "ethereum", amount: 2)
        XCTAssertEqual(try store.holdings().map(\.coinID), ["bitcoin", "ethereum"])
    }
}
