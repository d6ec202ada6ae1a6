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
