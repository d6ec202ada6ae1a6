import Foundation
import XCTest

@testable import Coinfolio

/// The short readings of the usual import cells give what the general readings give: a decimal
/// read in one pass, a Coinbase type matched by its bytes, a Convert's plain Notes, a kept cell;
/// and a statement parameter bound again to the same text holds what a fresh bind would.
final class ImportShortReadingTests: XCTestCase {
    private static let forms: [NumberForm] = [
        [], [.signed], [.thousands], [.signed, .thousands], [.signed, .thousands, .currencySign], [.currencySign],
        [.signed, .currencySign], [.signed, .assetSuffix], [.thousands, .assetSuffix], [.signed, .thousands, .currencySign, .assetSuffix],
        [.dashIsEmpty], [.signed, .dashIsEmpty],
    ]

    private static let cells: [String] = {
        var cells = [
            "0", "-0", "00", "1", "-1", "+1", "1.", ".5", "-.5", "0.5", "1.50", "-1.50", "1.0000000000000000001", "123456789012345678",
            "1234567890123456789", "12345678901234567.8", "0.000000000000000001", "0.0000000000000000001", "999999999999999999",
            "1,000", "1,000.00", "-1,000.00", "12,345,678.9", "1,00", "1,0000", "1000,000", ",100", "1,,000", "1,000,", "1,000.5,6",
            "1.000,5", "1,000.", "$1", "$1,000.00", "-$1,000.00", "$-1,000.00", "-$-1", "$", "-$", "$.5", "$1.5$", "1-2", "1e5",
            "1E-2", "1.2.3", "1..2", "- 1", "12 345", "0.0528450000BTC", "11,426.20", "€1.00", "CA$3", "$0.00", "-$0.00", "-",
            "--1", "1,234,567", "123,456", "1234,567", "0,001", "$0,001.5", "9,999,999,999,999,999.99", "99,999,999,999,999,999",
        ]
        for length in 1...20 {
            cells.append(String(repeating: "9", count: length))
            cells.append("0." + String(repeating: "7", count: length))
            cells.append(String(repeating: "3", count: length) + ".25")
        }
        return cells
    }()

    func testShortDecimalIsTheGeneralReading() {
        for form in Self.forms {
            for cell in Self.cells {
                var text = cell
                let short = text.withUTF8 { ImportNumber.shortDecimal($0, form) }
                let plain = text.withUTF8 { ImportNumber.plain($0, form) }
                let general = (try? ImportNumber.read(cell, form))?.map(\.value)
                if let short { XCTAssertEqual(short, general, "\(cell) \(form.rawValue)") }
                switch plain {
                case .value(let value): XCTAssertEqual(value, general, "\(cell) \(form.rawValue)")
                case .empty: XCTAssertNil(general, "\(cell) \(form.rawValue)")
                case .other: break
                }
            }
        }
        var money = "$1,000.00"
        XCTAssertEqual(money.withUTF8 { ImportNumber.shortDecimal($0, [.signed, .thousands, .currencySign]) }, ExactDecimal(1000))
    }

    func testTypeByBytesIsTheLowerCasedText() {
        let field = ImportHeader.Field(index: 0, title: "Transaction Type")
        let types = [
            "Buy", "buy", "BUY", "bUy", "Sell", "Send", "SEND", "Receive", "Deposit", "Withdrawal", "Convert", "Staking Income",
            "Rewards Income", "Inflation Reward", "Learning Reward", "Coinbase Earn", "Interest payout", "Interest Payout",
            "Advanced Trade Buy", "Advanced Trade Sell", "Advanced  Trade Buy", " Buy ", "Buy\u{0}", "Bu", "Buyy", "Sell ",
            "Staking\u{0}Income", "Staking_Income", "Sta\u{212A}ing Income", "Büy", "", "Retail Staking Transfer", "@uy", "[uy",
        ]
        for type in types {
            let row = ImportRow(cells: [type], line: 2)
            XCTAssertEqual(CoinbaseImporter.kind(row, field), row.text(field).lowercased(), type)
        }
    }

    func testPlainConvertedNotesAreTheWordsReading() throws {
        let field = ImportHeader.Field(index: 0, title: "Notes")
        let notes = [
            "Converted 0.5 BTC to 10 ETH", "  Converted  0.5 BTC to  10 ETH  ", "Converted 1,000.5 USDC to 0.01 BTC",
            "Converted 1 BTC to 2.5 eth", "Converted 1 BTC to 0 ETH", "Converted 1 BTC to 1,00 ETH", "Converted 1 BTC to -1 ETH",
            "Converted 1 BTC to 1e5 ETH", "converted 1 BTC to 2 ETH", "Converted 1 BTC into 2 ETH", "Converted 1 BTC to 2 ETH now",
            "Converted 1 BTC to 2", "Converted 0.5 BTC to 10 ÉTH", "\t Converted 1 A to 2 B", "Converted 1 A to 2 B\r\n",
            "Converted 1 A to 2,000 B", "Converted 1 A to 2,000.25 B", "Converted 1 A to .5 B", "Converted 1 A to 5. B", "Bought 1 BTC",
            "", "Converted 1 A to 1234567890123456789012 B",
        ]
        for note in notes {
            let row = ImportRow(cells: [note], line: 2)
            if let plain = CoinbaseImporter.convertedPlain(note) {
                XCTAssertEqual(plain, try CoinbaseImporter.converted(note, row: row, notes: field), note)
            }
        }
        XCTAssertEqual(
            CoinbaseImporter.convertedPlain("Converted 1 BTC to 2.5 eth"),
            ImportedEntry.Asset("ETH", ExactDecimal(units: 2_500_000_000_000_000_000)))
    }

    func testTimeByBytesIsTheGeneralReading() {
        let field = ImportHeader.Field(index: 0, title: "Timestamp")
        var cells: [String] = []
        for date in [
            "2024-01-05", "2024-02-29", "2023-02-29", "2024-02-30", "0001-01-01", "0000-01-01", "9999-12-31", "2024-13-01",
            "2024-00-10", "2024-04-31", "2024-1-05", "2O24-01-05", "2024/01/05",
        ] {
            for time in ["10:00:00", "23:59:59", "24:00:00", "00:60:00", "00:00:60", "10:00", "1:00:00", "10:0a:00"] {
                for suffix in ["", " UTC", " utc", " UTX", "Z", "+02:00", " UTC ", "  UTC"] {
                    cells.append("\(date) \(time)\(suffix)")
                    cells.append(" \(date) \(time)\(suffix) ")
                    cells.append("\(date)T\(time)\(suffix)")
                }
            }
        }
        cells += [
            "", " ", "2024-01-05 10:00:00 UTC\u{0}", "2024-01-05 10:00:00 UTÇ", "２024-01-05 10:00:00", "2024-01-05 10:00:00\u{A0}UTC",
        ]
        for cell in cells {
            for offset: Int64 in [0, 7_200_000] {
                let row = ImportRow(cells: [cell], line: 2)
                let general = ImportTime.parse(cell.trimmingCharacters(in: [" "]), .iso, offset: offset).flatMap {
                    $0 >= Transaction.earliestTimestamp && $0 <= Transaction.latestTimestamp ? $0 : nil
                }
                XCTAssertEqual(try? row.time(field, .iso, offset: offset), general, cell)
            }
        }
    }

    func testOwnIDFromTheCellIsTheTextsID() {
        let field = ImportHeader.Field(index: 0, title: "ID")
        let ids = ImportExternalID(format: .coinbase)
        for cell in ["", " ", "a1", " a1 ", "65f0c3d5e4b0a1b2c3d4e5f6", "ïd10", " ïd ", "a\u{0}b", String(repeating: "x", count: 300)] {
            let row = ImportRow(cells: [cell], line: 2)
            XCTAssertEqual(ids.own(row, field), ids.own(row.text(field)), cell)
        }
    }

    func testKeptCellAnswersOnlyTheSameBytes() throws {
        let field = ImportHeader.Field(index: 0, title: "Asset")
        var kept = KeptCell<String>()
        var reads = 0
        for cell in [
            "BTC", "BTC", " BTC ", "ETH", "btc", "BTC", "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOQ", "ABCDEFGHIJKLMNOPQ", "ABCDEFGHIJKLMNOPQ",
            "ÉTH", "ÉTH",
        ] {
            let row = ImportRow(cells: [cell], line: 2)
            let value = try kept.value(of: field, in: row) { row -> String in
                reads += 1
                return try row.symbol(field)
            }
            XCTAssertEqual(value, try row.symbol(field), cell)
        }
        // Twelve cells, two answered from the kept one ("BTC" again, " BTC "); 17 bytes and non-ASCII never kept.
        XCTAssertEqual(reads, 10)
        let empty = ImportRow(cells: [""], line: 3)
        XCTAssertThrowsError(try kept.value(of: field, in: empty) { try $0.symbol(field) })
        XCTAssertThrowsError(try kept.value(of: field, in: empty) { try $0.symbol(field) })
    }

    func testTextBoundAgainHoldsTheNewText() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bound-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        let sql = "SELECT ?1 || '|' || coalesce(?2, 'null'), length(?1)"
        func select(_ first: String?, _ second: String?, bindingFirstAsInt: Int? = nil) throws -> String? {
            let statement = try connection.prepared(sql)
            if let bindingFirstAsInt { statement.bind(1, bindingFirstAsInt) } else { statement.bind(1, first) }
            statement.bind(2, second)
            defer { statement.reset() }
            return try statement.next() ? statement.text(0) : nil
        }
        XCTAssertEqual(try select("abc", "x"), "abc|x")
        XCTAssertEqual(try select("abc", "x"), "abc|x")
        XCTAssertEqual(try select("abd", "x"), "abd|x")
        XCTAssertEqual(try select("abd", nil), "abd|null")
        XCTAssertEqual(try select(nil, "x"), nil)
        XCTAssertEqual(try select("abd", "x"), "abd|x")
        XCTAssertEqual(try select("", ""), "|")
        XCTAssertEqual(try select("", ""), "|")
        XCTAssertEqual(
            try select("a much longer text than thirty-two bytes, to grow the buffer", "x"),
            "a much longer text than thirty-two bytes, to grow the buffer|x")
        XCTAssertEqual(
            try select("a much longer text than thirty-two bytes, to grow the buffer", "x"),
            "a much longer text than thirty-two bytes, to grow the buffer|x")
        XCTAssertEqual(try select(nil, "x", bindingFirstAsInt: 7), "7|x")
        XCTAssertEqual(try select("7", "x"), "7|x")
        // A statement fetched again has its parameters cleared; it binds its text again.
        let statement = try connection.prepared(sql)
        statement.bind(1, "abc")
        statement.reset()
        let again = try connection.prepared(sql)
        again.bind(1, "abc")
        defer { again.reset() }
        XCTAssertTrue(try again.next())
        XCTAssertEqual(again.text(0), "abc|null")
    }
}
