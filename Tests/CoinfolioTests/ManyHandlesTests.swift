import Foundation
import XCTest

@testable import Coinfolio

/// Issue 31 finding 9: past `SQLiteConnection.cachingConnections` open connections, each call
/// gives its page cache and prepared statements back. Answers and writes are the same either way
/// (the memory a handle costs is measured by Tests/probes/handles.py, in make stress).
final class ManyHandlesTests: XCTestCase {
    func testEnginesPastTheCachingLimitAnswerAndWriteAsBefore() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("shared.sqlite").path
        let first = try PortfolioEngine(configuration: EngineConfiguration(database: path))
        try first.load(marketsBody: Repository.fixture("markets.json"), globalBody: Repository.fixture("global.json"))
        _ = try first.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":100,"timestamp":"2024-01-01"}"#)
        let expected = try first.portfolio().json
        XCTAssertTrue(SQLiteConnection.keepsCachesBetweenCalls || SQLiteConnection.cachingConnections < 2)

        var engines: [PortfolioEngine] = []
        for _ in 0...SQLiteConnection.cachingConnections {
            engines.append(try PortfolioEngine(configuration: EngineConfiguration(database: path)))
        }
        XCTAssertFalse(SQLiteConnection.keepsCachesBetweenCalls, "past the limit")
        for engine in engines {
            XCTAssertEqual(try engine.portfolio().json, expected)
            XCTAssertEqual(try engine.statistics().count, try first.statistics().count)
        }
        // A write through one (statements prepared again, cache read again) is seen by the others.
        _ = try engines[3].addTransaction(json: #"{"coin_id":"ethereum","kind":"transfer_in","amount":2,"timestamp":"2024-01-02"}"#)
        for engine in engines + [first] {
            XCTAssertEqual(try engine.transactions().total, 2)
            XCTAssertEqual(try engine.pnl(PnLOptions()).coins.map(\.coinID).sorted(), ["bitcoin", "ethereum"])
        }
        for engine in engines { engine.close() }
        XCTAssertTrue(SQLiteConnection.keepsCachesBetweenCalls || SQLiteConnection.cachingConnections < 2, "back under the limit")
        first.close()
    }

    func testEqualSavedSnapshotsShareTheirCoins() throws {
        let folder = try temporaryDirectory(self)
        var blobs: [Data] = []
        for name in ["a.sqlite", "b.sqlite"] {
            let engine = try PortfolioEngine(configuration: EngineConfiguration(database: folder.appendingPathComponent(name).path))
            try engine.load(marketsBody: Repository.fixture("markets.json"), globalBody: nil)
            let saved = try XCTUnwrap(try engine.store.savedSnapshot(vsCurrency: "usd"))
            guard case .compact(let coins) = saved.content else { return XCTFail("a compact snapshot") }
            blobs.append(try XCTUnwrap(coins.blob))
            engine.close()
        }
        XCTAssertEqual(blobs[0], blobs[1], "the same coins saved in two files")
        let one = try CompactCoins.shared(blob: blobs[0])
        XCTAssertTrue(one === (try CompactCoins.shared(blob: blobs[1])), "one instance for equal blobs")
        XCTAssertEqual(one.coin(at: 0).id, "bitcoin")

        // Blobs are bucketed by their length and samples of their start, middle and end: two
        // blobs equal there but not between are told apart by their bytes, and equal ones share.
        let position = one.count / 4
        func changed(_ price: Double) -> CompactCoins {
            var coin = one.coin(at: position)
            coin.currentPrice = price
            return one.replacing([position: coin])
        }
        let up = changed(123_456.25)
        let down = changed(654_321.75)
        XCTAssertEqual(up.blob.count, down.blob.count, "the same length, so only the bytes tell them apart")
        XCTAssertFalse(up === down, "blobs that differ between the samples are two instances")
        XCTAssertFalse(up === one)
        XCTAssertTrue(up === changed(123_456.25), "an equal blob is the same instance")
        XCTAssertEqual(down.coin(at: position).currentPrice, 654_321.75)
        XCTAssertEqual(up.coin(at: position).currentPrice, 123_456.25)
    }
}
