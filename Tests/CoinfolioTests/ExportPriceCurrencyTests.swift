import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §16's "export → import still round-trips exactly" for a price given in another currency
/// (§17's `price_currency` and `original_price`): export writes the two columns after the long
/// header when a row has one, and import stores such a row as it was. The §17 example's numbers
/// (FillPricesEngineTests): 1 ethereum at 100 eur with a 2 eur fee, on a day ethereum was 110
/// usd and 100 eur, is 110 usd with a 2.2 usd fee once converted.
final class ExportPriceCurrencyTests: PriceServerTestCase {
    private let header = LedgerCSV.columns.joined(separator: ",")

    private func exported(_ engine: PortfolioEngine) throws -> [String] {
        let text = String(decoding: try engine.exportCSV(), as: UTF8.self)
        return text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
    }

    private func imported(_ engine: PortfolioEngine, _ lines: [String]) throws -> ImportSummary {
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        return try bytes.withUnsafeBytes { try engine.importCSV($0) }
    }

    private func only(_ engine: PortfolioEngine) throws -> Transaction {
        let rows = try engine.transactions().transactions
        XCTAssertEqual(rows.count, 1)
        return try XCTUnwrap(rows.first)
    }

    func testAPendingAndThenAConvertedEuroBuyRoundTripIntoAFreshDatabase() throws {
        let engine = try engine()
        defer { engine.close() }
        let when = dayStart(6) + 30 * minute  // 00:30: the 00:02 points, 110 usd and 100 eur
        let at = LedgerTimestamp.format(when)
        try engine.addTransaction(
            json: #"{"coin_id":"ethereum","kind":"buy","amount":1,"price":100,"fee":"2","price_currency":"EUR","timestamp":"\#(at)"}"#)

        // Pending: no price, the fee still in euros.
        let pending = try exported(engine)
        XCTAssertEqual(pending[0], header + ",price_currency,original_price")
        XCTAssertEqual(pending[1], "\(at),main,ethereum,buy,1,,2,,coinfolio:1,,,,,eur,100")
        let copy = try self.engine()
        defer { copy.close() }
        XCTAssertEqual(try imported(copy, pending).imported, 1)
        let read = try only(copy)
        XCTAssertNil(read.price)
        XCTAssertEqual(read.priceSource, .pending)
        XCTAssertEqual(read.fee, 2)
        XCTAssertEqual(read.originalPrice, 100)
        XCTAssertEqual(read.priceCurrency, "eur")
        // Filled there, it is what the first database's row becomes: 110 usd, fee 2.2 usd.
        XCTAssertEqual(try copy.fillPrices().filled, 1)
        XCTAssertEqual(try only(copy).price, 110)
        XCTAssertEqual(try only(copy).fee, ExactDecimal("2.2"))

        // Converted: the price and fee in usd, the price as given beside them.
        XCTAssertEqual(try engine.fillPrices().filled, 1)
        let converted = try exported(engine)
        XCTAssertEqual(converted[1], "\(at),main,ethereum,buy,1,110,2.2,,coinfolio:1,,,,,eur,100")
        let requests = try rangeRequests()
        let third = try self.engine()
        defer { third.close() }
        XCTAssertEqual(try imported(third, converted).imported, 1)
        let kept = try only(third)
        XCTAssertEqual(kept.price, 110)
        XCTAssertEqual(kept.fee, ExactDecimal("2.2"), "a converted fee is not converted again")
        XCTAssertEqual(kept.originalPrice, 100)
        XCTAssertEqual(kept.priceCurrency, "eur")
        XCTAssertEqual(try third.pnl().coins.first?.costBasis, PreciseDecimal(ExactDecimal("112.2") ?? 0))
        XCTAssertEqual(try rangeRequests(), requests, "an import sends no request")
        XCTAssertEqual(try exported(third)[1], converted[1], "the copy exports the same row")

        // Its own export read back into the same portfolio imports nothing; `import` with format
        // auto knows the header as Coinfolio's.
        let again = try imported(engine, converted)
        XCTAssertEqual([again.imported, again.skipped], [0, 1])
        let auto = try Array((converted.joined(separator: "\r\n") + "\r\n").utf8).withUnsafeBytes {
            try engine.importFile($0, options: ImportOptions())
        }
        XCTAssertEqual(auto.format, .coinfolio)
        XCTAssertEqual([auto.imported, auto.skipped], [0, 1])
    }

    func testAnExportWithoutSuchARowKeepsTheLongHeader() throws {
        let engine = try engine()
        defer { engine.close() }
        try engine.addTransaction(Transaction(coinID: "ethereum", kind: .buy, amount: 1, price: 7, timestamp: dayStart(3)))
        XCTAssertEqual(try exported(engine)[0], header)
        engine.close()
        let empty = try self.engine()
        defer { empty.close() }
        XCTAssertEqual(try exported(empty), [header])
    }

    func testAFileRowInThePortfoliosOwnCurrencyIsAPlainRow() throws {
        let engine = try engine()
        defer { engine.close() }
        let at = LedgerTimestamp.format(dayStart(2))
        let file = [header + ",price_currency,original_price", "\(at),main,ethereum,buy,2,7,0.5,,x-1,,,,,USD,7"]
        XCTAssertEqual(try imported(engine, file).imported, 1)
        let row = try only(engine)
        XCTAssertEqual([row.price, row.fee], [7, ExactDecimal("0.5")])
        XCTAssertNil(row.priceCurrency)
        XCTAssertNil(row.originalPrice)
        XCTAssertEqual(try exported(engine)[0], header)
    }

    /// A euro price with no stored points: pending, as `add_transaction` would leave it.
    func testAFileRowWithAnOriginalPriceOnlyIsConvertedOrPending() throws {
        let engine = try engine()
        defer { engine.close() }
        let at = LedgerTimestamp.format(dayStart(6) + 30 * minute)
        let file = [header + ",price_currency,original_price", "\(at),main,ethereum,buy,1,,2,,x-1,,,,,eur,100"]
        XCTAssertEqual(try imported(engine, file).imported, 1)
        XCTAssertEqual(try only(engine).priceSource, .pending)
        XCTAssertEqual(try engine.fillPrices().filled, 1)
        XCTAssertEqual(try only(engine).price, 110)
    }

    func testBadCurrencyCellsAreRefusedWithTheirLineAndColumnAndWriteNothing() throws {
        let engine = try engine()
        defer { engine.close() }
        let at = LedgerTimestamp.format(dayStart(2))
        let cases: [(row: String, column: String)] = [
            ("\(at),main,ethereum,buy,1,,0,,x-1,,,,,zzz,100", "price_currency"),
            ("\(at),main,ethereum,buy,1,5,0,,x-1,,,,,,100", "original_price"),
            ("\(at),main,ethereum,buy,1,5,0,,x-1,,,,,eur,-1", "original_price"),
            ("\(at),main,ethereum,buy,1,5,0,,x-1,,,,,eur,1,5", "original_price"),
            ("\(at),main,ethereum,transfer_in,1,,0,,x-1,,,,,eur,", "price_currency"),
        ]
        for (row, column) in cases {
            let file = [header + ",price_currency,original_price", "\(at),main,ethereum,buy,1,5,0,,ok,,,,,,", row]
            XCTAssertThrowsError(try imported(engine, file), row) { error in
                let error = error as? CoinfolioError
                XCTAssertEqual(error?.code, .invalidArgument, row)
                XCTAssertEqual(error?.details["line"], .number(3), row)
                if row.hasSuffix(",1,5") { return }  // a long row names no column
                XCTAssertEqual(error?.details["column"], .string(column), row)
            }
        }
        XCTAssertEqual(try engine.transactions().transactions.count, 0)
    }
}
