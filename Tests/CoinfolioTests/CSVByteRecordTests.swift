import XCTest

@testable import Coinfolio

/// The imports read rows as bytes (`CSVReader.nextByteRecord`, `ImportRow` over a `CSVRecord`):
/// each reading gives what the `String` one it replaced gives — the same fields and errors, the
/// same numbers, times and trimmed texts, the same hashed ids.
final class CSVByteRecordTests: XCTestCase {
    /// Every record as strings (or the error), read through `nextRecord` or `nextByteRecord`.
    private func read(_ bytes: [UInt8], chunk: Int, bytesRecord: Bool) -> [String] {
        CSVReader.transcript(bytes, chunk: chunk, bytesRecord: bytesRecord)
    }

    func testByteRecordsAreTheStringRecords() {
        let texts: [[UInt8]] = [
            Array("\u{FEFF}a,b,c\r\n\"$1,234.50\",\"say \"\"hi\"\"\",plain\r\n\r\n\"two\nlines\",,\"\"\ncafé,\"€-2\",last".utf8),
            Array("a,b\nx,ab\"c\n".utf8), Array("a,b\n\"x\"y,z\n".utf8), Array("a,b\n1,\"open\nmore".utf8),
            Array("a,b\n1,".utf8) + [0xC3, 0x28, 0x0A], Array("a,b\n\"".utf8) + [0xFF] + Array("\",x\n".utf8),
            Array("  a , b \n,\n,,\n x ,é ".utf8), Array("only".utf8), Array("".utf8), Array("\n\n\r\n".utf8),
        ]
        for text in texts {
            for chunk in 1...(text.count + 1) {
                XCTAssertEqual(
                    read(text, chunk: chunk, bytesRecord: true), read(text, chunk: chunk, bytesRecord: false),
                    "\(String(decoding: text, as: UTF8.self)) in chunks of \(chunk)")
            }
        }
    }

    func testRowReadingsAreTheTextReadings() throws {
        let cells = [
            "", " ", "  ", "0.10", " 0.10 ", "-100.25", "+1", "1.", ".5", "1,234.50", "1,5", "12,34", "$1,000.00", "-$225.00",
            "$-2", "€100.00", "-€2.00", "CA$3", "-", "--1", "1e5", "0.0528450000BTC", "12.01INCH", "1.0000000000000000001",
            "99999999999999999999", "０.5", "1 000", "\u{301}1", " é ", "a\u{301} ", " \u{301}", "2024-01-05 10:00:00",
            "2024-01-05 10:00:00 UTC", " 2024-01-05 10:00:00 UTC ", "2024-02-30 00:00:00", "2024-01-05T10:00:00Z",
            "2024-01-05 10:00:00+02:00", "0001-01-01 00:00:00", "9999-12-31 23:59:59 UTC", "2024-01-05 10:00", "BTC", "usd", "K",
        ]
        let forms: [NumberForm] = [
            [], [.signed], [.signed, .thousands], [.signed, .thousands, .currencySign], [.assetSuffix, .thousands], [.dashIsEmpty],
            [.signed, .dashIsEmpty, .currencySign],
        ]
        let field = ImportHeader.Field(index: 1, title: "Cell")
        for cell in cells {
            let row = ImportRow(cells: ["x", cell, "y"], line: 7)
            XCTAssertEqual(row.cells, ["x", cell, "y"])
            // The text trimmed as before: spaces (whole characters) dropped at both ends.
            let trimmed = String(cell.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
            XCTAssertEqual(row.text(field), trimmed, cell)
            for other in cells + ["K", "\u{212A}"] {
                XCTAssertEqual(row.text(field, equals: other), trimmed == other, "\(cell) = \(other)")
            }
            for form in forms {
                let read = Result { try ImportNumber.read(trimmed, form, suffixes: ["BTC", "1INCH"]) }
                let rowRead = Result { try row.number(field, form, suffixes: ["BTC", "1INCH"]) }
                switch (read, rowRead) {
                case (.success(let a), .success(let b)):
                    XCTAssertEqual(a?.value, b?.value, "\(cell) \(form)")
                    XCTAssertEqual(a?.suffix, b?.suffix, "\(cell) \(form)")
                case (.failure(let a), .failure(let b)):
                    let message = (a as? ImportNumber.Refusal)?.message ?? "\(a)"
                    XCTAssertEqual((b as? CoinfolioError)?.message, "line 7, column Cell: \(message)", cell)
                default: XCTFail("\(cell) \(form): \(read) and \(rowRead)")
                }
            }
            for offset: Int64 in [0, 3_600_000, -28_800_000] {
                let time = ImportTime.parse(trimmed, .iso, offset: offset).flatMap {
                    $0 >= Transaction.earliestTimestamp && $0 <= Transaction.latestTimestamp ? $0 : nil
                }
                XCTAssertEqual(try? row.time(field, .iso, offset: offset), time, cell)
            }
        }
    }

    func testHashedIdsOfByteRecordsAreTheCellsOnes() {
        let long = String(repeating: "0123456789", count: 30)
        let rows = [["a", "b", "c"], ["", "", ""], ["café", "x\ny", "\"q\""], ["a", "b", "c"], [], [long, "", long], [""]]
        var fromCells = ImportExternalID(format: .binance)
        var fromRecords = ImportExternalID(format: .binance)
        for row in rows + [rows[0]] {
            XCTAssertEqual(fromCells.hashed([row]), fromRecords.hashed([CSVRecord(row)]))
        }
        XCTAssertEqual(fromCells.hashed(rows), fromRecords.hashed(rows.map(CSVRecord.init)))
    }
}
