import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// Two writers importing into a portfolio that does not exist yet (SPEC §4: several processes
/// write at once; §18: imports are idempotent). Each plans "create it" before its write; the one
/// that writes second found the portfolio already there and failed on its key (CF_STORE
/// "cannot create portfolio", a breaker's finding). It now checks again inside its write.
final class ImportRaceTests: XCTestCase {
    /// Two engines on one database import the same Kraken file into one new portfolio at the
    /// same moment, over several rounds: both calls succeed every time, the rows are written
    /// once (the second import skips them all), and the portfolio exists once.
    func testTwoImportsIntoOneNewPortfolioAtOnceBothSucceed() throws {
        let database = try TestDatabase.fresh(self)
        let engines = [try database.offlineEngine(), try database.offlineEngine()]
        let file = try Array(Data(contentsOf: ImportSampleTests.folder.appendingPathComponent("kraken-ledgers.csv")))
        for round in 0..<6 {
            let portfolio = "new\(round)"
            let failures = Mutex<[String]>([])
            let imported = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                do {
                    var options = ImportOptions()
                    options.portfolio = portfolio
                    let report = try file.withUnsafeBytes { try engines[index].importFile($0, options: options) }
                    imported.withLock { $0.append(report.imported) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            XCTAssertEqual(failures.withLock { $0 }, [], "round \(round)")
            let counts = imported.withLock { $0.sorted() }
            XCTAssertEqual(counts.count, 2)
            XCTAssertEqual(counts.first, 0, "round \(round): the second import skips every row")
            let stored = try engines[0].transactions(TransactionQuery(portfolio: portfolio, limit: 1000)).transactions.count
            XCTAssertEqual(stored, counts.last)
            XCTAssertEqual(try engines[1].portfolios().filter { $0.name == portfolio }.count, 1)
        }
    }
}
