import XCTest

@testable import Coinfolio

/// `CSVScan`, the byte records' fast path (eight bytes at a time), gives what the byte-by-byte
/// reader gives: the same fields, lines and errors (line and field) for any bytes, any chunk size
/// and any record bound.
final class CSVScanTests: XCTestCase {
    private func read(_ bytes: [UInt8], chunk: Int, bound: Int?, bytesRecord: Bool) -> [String] {
        CSVReader.transcript(bytes, chunk: chunk, bound: bound, bytesRecord: bytesRecord)
    }

    private func check(_ bytes: [UInt8], chunks: [Int], bounds: [Int?], _ file: StaticString = #filePath, line: UInt = #line) {
        for chunk in chunks {
            for bound in bounds {
                XCTAssertEqual(
                    read(bytes, chunk: chunk, bound: bound, bytesRecord: true),
                    read(bytes, chunk: chunk, bound: bound, bytesRecord: false),
                    "\(bytes) in chunks of \(chunk), bound \(bound.map(String.init) ?? "-")", file: file, line: line)
            }
        }
    }

    func testExportRowsAndEdges() {
        let texts = [
            "ID,Timestamp,Type\ncb-00000000,2024-01-01 00:00:00 UTC,Buy,BTC,1,USD,\"$1,000.00\",\"$1,005.00\",$5.00,Bought 1 BTC\n",
            "a,b\r\nlonger than eight bytes,\"quoted, longer than eight\"\r\nx,\"y\"\rz,\n\n",
            "a,b\nplain,\"x\"\"y\"\n", "a,b\n\"two\nlines here\",z\n", "a,b\n12345678,\"12345678\"x\n", "a,b\n1234567\"8,z\n",
            "a,b\n\"open ended field\n", "a,b\nno line end", "a,b\n,,\n,\n", "a,\"\"\n\"\",b\r", "café,€\n12345678é,x\n",
            "\u{FEFF}a,b\n1,2\n", "a\r\r\nb\n",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            check(bytes, chunks: Array(1...(bytes.count + 1)) + [CSVReader.chunkSize], bounds: [nil, 0, 1, 3, 8, 9, 10, 20])
        }
        check(Array("a,b\n".utf8) + [0xFF, 0x41, 0x0A], chunks: [1, 3, 5, 64], bounds: [nil])
    }

    func testRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [[UInt8]] = [
            [0x61], [0x62], [0x2C], [0x22], [0x0A], [0x0D], [0x20], [0xC3, 0xA9], [0xFF], Array("12345678".utf8),
            Array("\"$1,000.00\"".utf8), Array("\r\n".utf8), [0x2C, 0x2C],
        ]
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                // Mostly plain bytes, so that plain records (the fast path) come often.
                let piece = Int.random(in: 0..<4, using: &generator) == 0 ? alphabet.randomElement(using: &generator) : [0x61, 0x2C]
                bytes += piece ?? []
            }
            if Bool.random(using: &generator) { bytes.append(0x0A) }
            let chunks = [1, 2, 7, 8, 9, 16, bytes.count, bytes.count + 1, CSVReader.chunkSize].filter { $0 > 0 }
            check(bytes, chunks: chunks, bounds: [nil, Int.random(in: 0...20, using: &generator)])
        }
    }
}
