import XCTest

@testable import Coinfolio

/// Issue 27: a time written with the last date's text cached (`realized`'s rows) is the text
/// `format` writes, across days, milliseconds, times before 1970 and far years, in any order.
final class LedgerTimestampDateCacheTests: XCTestCase {
    func testCachedDatesWriteWhatFormatWrites() {
        var state: UInt64 = 27
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var dates = LedgerTimestamp.DateCache()
        // `write` at a cursor into 64 bytes of room (it writes at most 46).
        func written(_ milliseconds: Int64) -> String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { room in
                guard let base = room.baseAddress else { return "" }
                var cursor = ByteCursor(base)
                LedgerTimestamp.write(milliseconds, to: &cursor, dates: &dates)
                return String(decoding: cursor.written, as: UTF8.self)
            }
        }
        var time: Int64 = 1_577_836_800_000  // 2020-01-01
        let edges: [Int64] = [0, -1, 86_399_999, 86_400_000, -86_400_000, -62_135_596_800_000, 253_402_300_799_999, 951_782_400_000]
        for (index, edge) in edges.enumerated() {
            XCTAssertEqual(written(edge), LedgerTimestamp.format(edge), "edge \(index)")
        }
        for _ in 0..<50_000 {
            switch next() % 4 {
            case 0: time += Int64(next() % 600_000)  // the same day, mostly
            case 1: time -= Int64(next() % 200_000_000)
            case 2: time = Int64(next() % 400_000_000_000_000) - 100_000_000_000_000
            default: time += Int64(next() % 1000)
            }
            XCTAssertEqual(written(time), LedgerTimestamp.format(time))
        }
        // Whole seconds (written as one word): every second of a day's edges, and seeded times.
        for second in Array(0..<120) + Array(86_280..<86_400) {
            let time = 1_577_836_800_000 + Int64(second) * 1000
            XCTAssertEqual(written(time), LedgerTimestamp.format(time))
        }
        for _ in 0..<50_000 {
            let time = (Int64(next() % 400_000_000_000_000) - 100_000_000_000_000) / 1000 * 1000
            XCTAssertEqual(written(time), LedgerTimestamp.format(time))
        }
    }
}
