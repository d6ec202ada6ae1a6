import Foundation
import XCTest

@testable import Coinfolio

/// `CSVReader` reads a field in place when it lies within one chunk and gathers it when it
/// crosses chunks: the same text handed out in chunks of every size gives the same records, and
/// the same errors at the same line and field.
final class CSVReaderTests: XCTestCase {
    private func reader(_ bytes: [UInt8], chunk: Int) -> CSVReader { CSVReader.inChunks(bytes, of: chunk) }

    /// Every record of `text`, the reader pulling it `chunk` bytes at a time.
    private func records(_ text: String, chunk: Int) throws -> [[String]] {
        var reader = reader(Array(text.utf8), chunk: chunk)
        var out: [[String]] = []
        while let record = try reader.nextRecord() { out.append(record.fields + ["line \(record.line)"]) }
        return out
    }

    /// The error `text` gives at every chunk size, as (line, field, message).
    private func syntaxErrors(_ text: String) -> Set<String> {
        var seen: Set<String> = []
        for chunk in 1...(text.utf8.count + 1) {
            do {
                _ = try records(text, chunk: chunk)
                seen.insert("no error at chunk \(chunk)")
            } catch let error as CSVReader.SyntaxError {
                seen.insert("line \(error.line), field \(error.field): \(error.message)")
            } catch {
                seen.insert("\(error)")
            }
        }
        return seen
    }

    func testRecordsAreTheSameWhateverTheChunks() throws {
        let text =
            "a,b,c\r\n"
            + "\"$1,234.50\",\"say \"\"hi\"\"\",plain\r\n"
            + "\r\n"
            + "\"two\nlines\",,\"\"\n"
            + "café,\"€-2\",last"
        let expected: [[String]] = [
            ["a", "b", "c", "line 1"],
            ["$1,234.50", "say \"hi\"", "plain", "line 2"],
            ["two\nlines", "", "", "line 4"],
            ["café", "€-2", "last", "line 6"],
        ]
        for chunk in 1...(text.utf8.count + 1) {
            XCTAssertEqual(try records(text, chunk: chunk), expected, "chunks of \(chunk) bytes")
        }
    }

    func testErrorsAreTheSameWhateverTheChunks() {
        XCTAssertEqual(
            syntaxErrors("a,b\nx,ab\"c\n"),
            ["line 2, field 1: a quote inside an unquoted field (quote the whole field and double the quote)"])
        XCTAssertEqual(syntaxErrors("a,b\n\"x\"y,z\n"), ["line 2, field 0: text after a closing quote"])
        XCTAssertEqual(syntaxErrors("a,b\n1,\"open\nmore"), ["line 2, field 1: a quoted field is not closed"])
        var invalid = Array("a,b\n1,".utf8)
        invalid += [0xC3, 0x28, 0x0A]
        for chunk in 1...invalid.count {
            var reader = reader(invalid, chunk: chunk)
            XCTAssertEqual(try reader.nextRecord()?.fields, ["a", "b"])
            XCTAssertThrowsError(try reader.nextRecord()) { error in
                let error = error as? CSVReader.SyntaxError
                XCTAssertEqual(error?.line, 2)
                XCTAssertEqual(error?.field, 1)
                XCTAssertEqual(error?.message, "the field is not valid UTF-8")
            }
        }
    }

    /// A record without an end (a file with no line break, `/dev/zero`) is refused once it passes
    /// the reader's bound, at every chunk size, instead of growing in memory without end.
    func testARecordPastTheBoundIsRefused() {
        let bound = 64
        for text in [String(repeating: "x", count: 200), String(repeating: "x,", count: 100), "\"" + String(repeating: "y", count: 200) + "\""] {
            for chunk in [1, 7, 64, 65, 500] {
                var reader = reader(Array(("a,b\n" + text).utf8), chunk: chunk)
                reader.maximumRecordBytes = bound
                XCTAssertEqual(try reader.nextRecord()?.fields, ["a", "b"])
                XCTAssertThrowsError(try reader.nextRecord(), "chunks of \(chunk)") { error in
                    let error = error as? CSVReader.SyntaxError
                    XCTAssertEqual(error?.line, 2)
                    XCTAssertEqual(error?.message, "the record is longer than 64 bytes (is a line end missing?)")
                }
            }
        }
        var fits = reader(Array("a,b\n\(String(repeating: "x", count: 60)),y\n".utf8), chunk: 7)
        fits.maximumRecordBytes = bound
        XCTAssertEqual(try fits.nextRecord()?.fields, ["a", "b"])
        XCTAssertEqual(try fits.nextRecord()?.fields.count, 2)
    }

    /// A pipe is read up to the reader's `limit` (`CSVReader.streamLimit`, 512 MB, for a file
    /// that is not a regular one): endless valid rows stop there with `.invalidArgument` instead of
    /// growing in memory; a regular file's reader has no limit.
    func testAPipeIsReadUpToTheLimit() throws {
        let pipe = Pipe()
        let rows = String(repeating: "2024-01-01T00:00:00Z,main,bitcoin,buy,1\n", count: 100)  // 4,100 bytes
        try pipe.fileHandleForWriting.write(contentsOf: Data(rows.utf8))
        try pipe.fileHandleForWriting.close()
        var reader = CSVReader(fileHandle: pipe.fileHandleForReading, path: "/dev/stdin", limit: 1000)
        let refused = assertThrows(.invalidArgument) { while try reader.nextRecord() != nil {} }
        XCTAssertEqual(refused?.message, "cannot read /dev/stdin: a pipe or device longer than 1000 bytes")
        XCTAssertEqual(CSVReader.streamLimit, 512 << 20)
    }
}

extension CSVReader {
    /// A reader handing out `bytes` `chunk` bytes at a time (the CSV tests read every text in
    /// chunks of every size).
    static func inChunks(_ bytes: [UInt8], of chunk: Int) -> CSVReader {
        var offset = 0
        return CSVReader(nextChunk: {
            guard offset < bytes.count else { return nil }
            let end = min(offset + chunk, bytes.count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        })
    }

    /// Every record of `bytes`, read `chunk` bytes at a time (at most `bound` bytes a record when
    /// given) through `nextRecord` or `nextByteRecord`, as text with its line, and the error that
    /// stopped the reading: what the byte readers are compared by.
    static func transcript(_ bytes: [UInt8], chunk: Int, bound: Int? = nil, bytesRecord: Bool) -> [String] {
        var reader = inChunks(bytes, of: chunk)
        if let bound { reader.maximumRecordBytes = bound }
        var out: [String] = []
        do {
            if bytesRecord {
                while let next = try reader.nextByteRecord() { out.append("\(next.record.strings) line \(next.line)") }
            } else {
                while let next = try reader.nextRecord() { out.append("\(next.fields) line \(next.line)") }
            }
        } catch let error as CSVReader.SyntaxError {
            out.append("line \(error.line), field \(error.field): \(error.message)")
        } catch {
            out.append("\(error)")
        }
        return out
    }
}
