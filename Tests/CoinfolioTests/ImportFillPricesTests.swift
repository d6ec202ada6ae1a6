import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §18 "Prices and currencies" with §17: an import's rows without a price are pending and a
/// price in another currency is converted by the rule every transaction follows (or pending until
/// the points exist); `fill_prices` then prices them against the loopback server's range route
/// (price_history.json: bitcoin 40,000 + 10 usd per hour of the day, ethereum 110 + 1 usd and
/// 100 + 1 eur; hourly points at hh:02). The files are written here with times in the past year.
final class ImportFillPricesTests: PriceServerTestCase {
    /// `t` as Koinly and Coinbase write a time: `yyyy-mm-dd HH:MM:SS UTC`.
    private func fileTime(_ t: Int64) -> String {
        String(LedgerTimestamp.format(t).prefix(19)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    private func importText(_ engine: PortfolioEngine, _ text: String) throws -> ImportReport {
        try Array(text.utf8).withUnsafeBytes { try engine.importFile($0, options: ImportOptions()) }
    }

    /// A Koinly file in a usd portfolio: a buy of 1 ethereum for 100 eur with a 2 eur fee (day −6,
    /// 00:30), a staking reward of 0.001 bitcoin and a trade of that ethereum for 0.001 bitcoin
    /// (day −4, 12:30), none with a net worth. All five rows are pending; the fill asks three
    /// ranges (ethereum usd and eur, bitcoin usd) and prices them: the buy 100 × 110 ÷ 100 = 110
    /// usd, fee 2 × 110 ÷ 100 = 2.2 (00:02 points: 110 usd, 100 eur); the reward 40,120 (the
    /// 12:02 point, 40,000 + 10 × 12); the trade's value 0.001 × 40,120 = 40.12, so ethereum sold
    /// at 40.12 and bitcoin bought at 40,120. A later Coinbase v4 buy of 2 ethereum at €50 (fee €1)
    /// on day −6 is converted as it is written: 55 usd, fee 1.1, original_price 50 eur; a later
    /// trade on day −4 takes the stored 40,120 as it is written.
    func testImportedPendingRowsAreFilledAndAnEuroPriceConverted() throws {
        let engine = try engine()
        defer { engine.close() }
        let buyTime = dayStart(6) + 30 * minute
        let laterTime = dayStart(4) + 12 * hour + 30 * minute
        let koinly = """
            Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash
            \(fileTime(buyTime)),100,EUR,1,ETH,2,EUR,,,,,
            \(fileTime(laterTime)),,,0.001,BTC,,,,,staking,,
            \(fileTime(laterTime)),1,ETH,0.001,BTC,,,,,,,

            """
        let report = try importText(engine, koinly)
        XCTAssertEqual(report.imported, 4)
        XCTAssertEqual(report.pendingPrices, 4)
        XCTAssertEqual(report.warnings, [])
        var rows = try engine.transactions().transactions
        XCTAssertEqual(rows.map(\.priceSource), [.pending, .pending, .pending, .pending])
        XCTAssertEqual(rows[0].originalPrice, 100)
        XCTAssertEqual(rows[0].priceCurrency, "eur")
        XCTAssertEqual(rows[0].fee, 2)

        let fill = try engine.fillPrices()
        XCTAssertEqual(fill.filled, 4)
        XCTAssertEqual(fill.requests, 3)
        XCTAssertEqual(fill.missing.count, 0)
        rows = try engine.transactions().transactions
        XCTAssertEqual(
            rows.map(ImportSampleTests.describe),
            [
                "buy ethereum 1 @110 fee 2.2", "income bitcoin 0.001 @40120 staking", "sell ethereum 1 @40.12", "buy bitcoin 0.001 @40120",
            ])
        XCTAssertEqual(rows.map(\.priceSource), [.user, .coingecko, .coingecko, .coingecko])
        XCTAssertEqual(rows[0].originalPrice, 100)
        XCTAssertEqual(rows[1].priceAt, dayStart(4) + 12 * hour + 2 * minute)

        let coinbase = """
            ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes
            cb-eur-1,\(fileTime(buyTime)),Buy,ETH,2,EUR,€50.00,€100.00,€101.00,€1.00,Bought 2 ETH

            """
        let second = try importText(engine, coinbase)
        XCTAssertEqual(second.imported, 1)
        XCTAssertEqual(second.pendingPrices, 0)
        let converted = try XCTUnwrap(
            engine.transactions(TransactionQuery(limit: 10)).transactions.first { $0.externalID == "coinbase:cb-eur-1" })
        XCTAssertEqual(ImportSampleTests.describe(converted), "buy ethereum 2 @55 fee 1.1")
        XCTAssertEqual(converted.originalPrice, 50)
        XCTAssertEqual(converted.priceCurrency, "eur")
        XCTAssertEqual(converted.priceSource, .user)
        // A trade without a value on a day whose points are stored now takes them as it is
        // imported (read through the import's own write); a reward without a value stays pending,
        // as every ledger write leaves one.
        let later = try importText(
            engine,
            koinly.components(separatedBy: "\n")[0] + "\n\(fileTime(laterTime)),1,ETH,0.001,BTC,,,,,,,second\n"
                + "\(fileTime(laterTime)),,,0.002,BTC,,,,,staking,,third\n")
        XCTAssertEqual(later.pendingPrices, 1)
        let written = try engine.transactions(TransactionQuery(limit: 10)).transactions.suffix(3)
        XCTAssertEqual(
            written.map(ImportSampleTests.describe),
            ["sell ethereum 1 @40.12", "buy bitcoin 0.001 @40120", "income bitcoin 0.002 @pending staking"])
        XCTAssertEqual(written.map(\.priceSource), [.coingecko, .coingecko, .pending])
        XCTAssertEqual(try rangeRequests(), 3, "an import never sends a request")
    }
}
