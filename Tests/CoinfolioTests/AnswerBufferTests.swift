import XCTest

@_spi(ABI) @testable import Coinfolio

/// `AnswerBuffer`: `cf_engine_realized` writes its answer in place, in chunks, into the malloc'd
/// memory the caller receives. The text is byte for byte the report's `json` and `csv`, also when
/// the answer is many chunks long and outgrows the size it was expected to have.
final class AnswerBufferTests: XCTestCase {
    private func text(_ answer: AnswerBuffer) -> String? {
        guard let pointer = answer.take() else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    func testBytesAreKeptInOrderPastTheExpectedSizeAndNULTerminated() {
        let answer = AnswerBuffer(expected: 10)
        var chunk = Array("0123456789".utf8)
        for _ in 0..<20_000 { answer.append(chunk) }
        answer.move(&chunk)
        XCTAssertTrue(chunk.isEmpty)
        XCTAssertEqual(answer.count, 200_010)
        XCTAssertEqual(text(answer), String(repeating: "0123456789", count: 20_001))
        // Once taken, the buffer is empty; nothing written is an empty string.
        XCTAssertEqual(answer.count, 0)
        XCTAssertEqual(text(AnswerBuffer(expected: 0)), "")
    }

    /// 3,000 disposals of two lots each (about 2 MB of JSON: some thirty chunks) and income rows
    /// after them, written with a far too small expected size and with the report's own estimate.
    func testARealizedReportWrittenInChunksIsItsJSONAndCSV() {
        var entries: [LedgerEntry] = []
        let start = LedgerTimestamp.parse("2020-01-01T00:00:00Z") ?? 0
        for index in 0..<3_000 {
            let at = start + Int64(index) * 3_600_000
            entries.append(
                LedgerEntry(
                    id: Int64(4 * index + 1), timestamp: at, kind: .buy, amount: ExactDecimal("0.75") ?? .zero,
                    price: PreciseDecimal("100.5"), fee: PreciseDecimal("0.05"), group: 0))
            entries.append(
                LedgerEntry(
                    id: Int64(4 * index + 2), timestamp: at + 60_000, kind: .income, amount: ExactDecimal("0.01") ?? .zero,
                    price: PreciseDecimal("101"), fee: PreciseDecimal("0"), group: 0))
            entries.append(
                LedgerEntry(
                    id: Int64(4 * index + 3), timestamp: at + 120_000, kind: .sell, amount: ExactDecimal("0.7") ?? .zero,
                    price: PreciseDecimal("150.25"), fee: PreciseDecimal("0.1"), group: 0))
        }
        let report = RealizedReport.compute(
            portfolios: [("main", [("bitcoin", entries)])], reported: [0], vsCurrency: "usd", options: RealizedOptions())
        XCTAssertGreaterThan(report.rows.count, 3_000)
        XCTAssertEqual(report.income.count, 3_000)
        XCTAssertGreaterThan(report.jsonUTF8.count, 30 * AnswerBuffer.chunk)
        for expected in [100, report.expectedSize(as: .json)] {
            let answer = AnswerBuffer(expected: expected)
            report.write(as: .json, into: answer)
            XCTAssertEqual(text(answer), report.json)
        }
        for expected in [100, report.expectedSize(as: .csv)] {
            let answer = AnswerBuffer(expected: expected)
            report.write(as: .csv, into: answer)
            XCTAssertEqual(text(answer), String(decoding: report.csv, as: UTF8.self))
        }
    }
}
