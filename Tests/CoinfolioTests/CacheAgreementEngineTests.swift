import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// Adversarial checks of what the engine keeps between calls (the owner view's ledger cache,
/// `LedgerDerivations`, the write positions, the snapshot's reused id index) and of
/// `ExactDecimal(Double)`: every answer equals a freshly opened engine's (or the text path's).
/// NFC and NFD spellings of a portfolio name are two portfolios to the database, one to Swift's
/// `==`: every cache keyed by `String` mixed them up, so names are keyed by their bytes.
final class CacheAgreementEngineTests: XCTestCase {
    private static func body(_ rows: [(String, String)]) -> Data {
        Data(
            ("["
                + rows.map { #"{"id":"\#($0.0)","symbol":"\#($0.0.prefix(3))","name":"\#($0.0)","current_price":\#($0.1)}"# }
                .joined(separator: ",") + "]").utf8)
    }

    /// Everything a reader answers about the owner, as text.
    private func answers(_ engine: PortfolioEngine, portfolios: [String]) throws -> [String] {
        var out: [String] = []
        for name in portfolios {
            for method in CostBasisMethod.allCases {
                out.append("\(name) \(method): \(try engine.pnl(PnLOptions(portfolio: name, method: method)))")
            }
            let result = try engine.portfolio(PortfolioQuery(portfolio: name))
            out.append(
                "\(name) holdings: \(result.entries.map { "\($0.coinID)=\($0.amount)=\(String(describing: $0.value))" }) \(String(describing: result.totalValue))"
            )
        }
        out.append("stats: \(try engine.statistics().map { "\($0.title)=\($0.value)=\(String(describing: $0.percentageChange))" })")
        return out
    }

    private func assertSame(
        _ reader: PortfolioEngine, _ database: TestDatabase, _ portfolios: [String], _ step: String,
        line: UInt = #line
    ) throws {
        let fresh = try database.offlineEngine()
        let expected = try answers(fresh, portfolios: portfolios)
        // Twice: the second answers from the kept derivations.
        for pass in 0..<2 {
            let got = try answers(reader, portfolios: portfolios)
            for (a, b) in zip(got, expected) where a != b { XCTFail("\(step) pass \(pass):\n got \(a)\nwant \(b)", line: line) }
        }
    }

    func testTwoEnginesOnOneFileAgreeWithAFreshEngineAfterEveryWrite() throws {
        let database = try TestDatabase.fresh(self)
        let writer = try database.offlineEngine()
        try writer.load(marketsBody: Self.body([("bitcoin", "50000"), ("ethereum", "3000"), ("binancecoin", "300")]), globalBody: nil)
        let reader = try database.offlineEngine()
        var names = ["main"]
        try assertSame(reader, database, names, "empty")
        _ = try writer.addTransaction(json: #"{"coin_id":"bitcoin","kind":"buy","amount":"2","price":"100","timestamp":"2024-01-01"}"#)
        try assertSame(reader, database, names, "add")
        try assertSame(writer, database, names, "add (writer)")
        _ = try writer.addTransaction(
            json: #"{"coin_id":"binancecoin","kind":"buy","amount":"5","price":"200","timestamp":"2024-01-02"}"#)
        _ = try writer.addTransaction(
            json:
                #"{"coin_id":"bitcoin","kind":"sell","amount":"0.5","price":"40000","fee":"0.01","fee_coin_id":"binancecoin","fee_price":310,"timestamp":"2024-01-03"}"#
        )
        try assertSame(reader, database, names, "fee coin")
        let trade = try writer.addTrade(
            json:
                #"{"timestamp":"2024-01-05","sent":{"coin_id":"bitcoin","amount":0.5},"received":{"coin_id":"ethereum","amount":10},"value":30000}"#
        )
        try assertSame(reader, database, names, "trade")
        try writer.createPortfolio(name: "cold")
        names.append("cold")
        try assertSame(reader, database, names, "create")
        _ = try writer.move(json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":"0.5","timestamp":"2024-03-01"}"#)
        try assertSame(reader, database, names, "move")
        try assertSame(writer, database, names, "move (writer)")
        _ = try writer.addTransaction(
            json: #"{"coin_id":"ethereum","kind":"income","income_type":"staking","amount":"1","timestamp":"2024-03-02"}"#)
        try assertSame(reader, database, names, "income pending")
        try writer.deleteTransaction(id: String(try XCTUnwrap(trade.transactions[1].id)))
        try assertSame(reader, database, names, "delete group")
        try writer.renamePortfolio("cold", to: "vault")
        names[1] = "vault"
        try assertSame(reader, database, names, "rename")
        try writer.setPrice(PriceSetting(coinID: "solana", time: nil, price: ExactDecimal("20")))
        _ = try writer.addTransaction(json: #"{"coin_id":"solana","kind":"buy","amount":"3","price":"10","timestamp":"2024-04-01"}"#)
        try assertSame(reader, database, names, "manual price")
        let csv = Array(
            "timestamp,portfolio,coin_id,kind,amount,price\n2024-02-01,vault,ethereum,buy,3,10\n2023-01-01,main,bitcoin,buy,1,5\n".utf8)
        _ = try csv.withUnsafeBytes { try writer.importCSV($0) }
        try assertSame(reader, database, names, "import")
        try assertSame(writer, database, names, "import (writer)")
        // A new snapshot: a coin removed, the rest reordered, a duplicate id (the later row wins).
        try reader.load(
            marketsBody: Self.body([("solana", "30"), ("ethereum", "1"), ("bitcoin", "60000"), ("ethereum", "3500")]), globalBody: nil)
        try assertSame(reader, database, names, "load reordered")
        try writer.load(marketsBody: Self.body([("binancecoin", "1"), ("bitcoin", "2")]), globalBody: nil)
        try assertSame(writer, database, names, "load removed")
        // The reader sees the writer's snapshot at its next version check (at most once a second).
        Thread.sleep(forTimeInterval: 1.1)
        try assertSame(reader, database, names, "reader after the writer's load")
        try writer.deletePortfolio("vault", force: true)
        names.removeLast()
        try assertSame(reader, database, names, "delete portfolio")
        try writer.createPortfolio(name: "vault")
        try assertSame(reader, database, names + ["vault"], "recreated")
    }

    /// Two portfolios whose names are canonically equivalent (NFC "café", NFD "cafe\u{301}")
    /// but different bytes: two portfolios in the database, so two answers.
    func testCanonicallyEquivalentPortfolioNamesAreTwoPortfolios() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try database.offlineEngine()
        try engine.load(marketsBody: Self.body([("bitcoin", "50000"), ("ethereum", "3000")]), globalBody: nil)
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        XCTAssertEqual(composed, decomposed, "Swift compares them canonically")
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        try engine.createPortfolio(name: composed)
        try engine.createPortfolio(name: decomposed)
        _ = try engine.addTransaction(
            json: #"{"portfolio":"\#(composed)","coin_id":"bitcoin","kind":"buy","amount":"1","price":"10","timestamp":"2024-01-01"}"#)
        _ = try engine.addTransaction(
            json: #"{"portfolio":"\#(decomposed)","coin_id":"ethereum","kind":"buy","amount":"2","price":"5","timestamp":"2024-01-01"}"#)
        XCTAssertEqual(try engine.portfolios().count, 3)
        // Read the composed one first, then the decomposed one: each must be its own.
        _ = try answers(engine, portfolios: [composed])
        let fresh = try database.offlineEngine()
        XCTAssertEqual(try answers(engine, portfolios: [decomposed]), try answers(fresh, portfolios: [decomposed]))
        XCTAssertEqual(try engine.portfolio(PortfolioQuery(portfolio: decomposed)).entries.map(\.coinID), ["ethereum"])
        // A write's never-negative check reads the positions of its own portfolio, not the other's.
        _ = try engine.addTransaction(
            json: #"{"portfolio":"\#(decomposed)","coin_id":"ethereum","kind":"sell","amount":"1","price":"6","timestamp":"2024-01-02"}"#)
        assertThrows(.invalidArgument) {
            try engine.addTransaction(
                json: #"{"portfolio":"\#(decomposed)","coin_id":"bitcoin","kind":"sell","amount":"1","price":"6","timestamp":"2024-01-02"}"#
            )
        }
        XCTAssertEqual(try answers(engine, portfolios: [composed, decomposed]), try answers(fresh, portfolios: [composed, decomposed]))
        // A move between them: the lots moved in keep their cost (the other portfolio's lots are read).
        _ = try engine.move(
            json: #"{"from":"\#(composed)","to":"\#(decomposed)","coin_id":"bitcoin","amount":"1","timestamp":"2024-01-03"}"#)
        let moved = try engine.pnl(PnLOptions(portfolio: decomposed)).coins.first { $0.coinID == "bitcoin" }
        XCTAssertEqual(moved?.costBasis.map { "\($0)" }, "10")
        // The move left the composed one nothing: a sell from it goes short.
        assertThrows(.invalidArgument) {
            try engine.addTransaction(
                json: #"{"portfolio":"\#(composed)","coin_id":"bitcoin","kind":"sell","amount":"1","price":"6","timestamp":"2024-01-04"}"#)
        }
        XCTAssertEqual(try answers(engine, portfolios: [composed, decomposed]), try answers(fresh, portfolios: [composed, decomposed]))
    }

    /// A realized report of the portfolio a move went into reads the other spelling's lots.
    func testARealizedReportAfterAMoveBetweenCanonicallyEquivalentPortfolios() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try database.offlineEngine()
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        try engine.createPortfolio(name: composed)
        try engine.createPortfolio(name: decomposed)
        _ = try engine.addTransaction(
            json: #"{"portfolio":"\#(composed)","coin_id":"bitcoin","kind":"buy","amount":"1","price":"10","timestamp":"2024-01-01"}"#)
        _ = try engine.move(
            json: #"{"from":"\#(composed)","to":"\#(decomposed)","coin_id":"bitcoin","amount":"1","timestamp":"2024-01-03"}"#)
        _ = try engine.addTransaction(
            json: #"{"portfolio":"\#(decomposed)","coin_id":"bitcoin","kind":"sell","amount":"1","price":"25","timestamp":"2024-01-04"}"#)
        let rows = try engine.realized(RealizedOptions(portfolio: decomposed)).rows
        XCTAssertEqual(rows.map { "\(String(describing: $0.cost)) \(String(describing: $0.gain))" }, ["Optional(10) Optional(15)"])
    }

    /// Renaming the NFC spelling to the NFD one renames it (two names to the database).
    func testRenamingToTheOtherSpellingRenames() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try database.offlineEngine()
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        try engine.createPortfolio(name: composed)
        try engine.renamePortfolio(composed, to: decomposed)
        let names = try engine.portfolios().map { Array($0.name.utf8) }
        XCTAssertTrue(names.contains(Array(decomposed.utf8)), "\(names)")
        XCTAssertFalse(names.contains(Array(composed.utf8)), "\(names)")
    }

    /// An import's never-negative check per portfolio tells the two spellings apart too.
    func testAnImportChecksCanonicallyEquivalentPortfoliosApart() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try database.offlineEngine()
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        try engine.createPortfolio(name: composed)
        try engine.createPortfolio(name: decomposed)
        let csv = Array(
            ("timestamp,portfolio,coin_id,kind,amount,price\n2024-01-01,\(composed),bitcoin,buy,1,10\n"
                + "2024-01-02,\(decomposed),bitcoin,sell,1,10\n").utf8)
        assertThrows(.invalidArgument) { try csv.withUnsafeBytes { try engine.importCSV($0) } }
        XCTAssertEqual(try engine.portfolio(PortfolioQuery(portfolio: decomposed)).entries.map(\.coinID), [])
        XCTAssertEqual(try engine.transactions(TransactionQuery(portfolio: decomposed)).total, 0)
    }

    func testManyThreadsOnOneEngineAgreeWithAFreshEngine() throws {
        let database = try TestDatabase.fresh(self)
        let engine = try database.offlineEngine()
        try engine.load(marketsBody: Self.body([("bitcoin", "50000"), ("ethereum", "3000")]), globalBody: nil)
        try engine.createPortfolio(name: "cold")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            do {
                for step in 0..<15 {
                    if thread == 0 {
                        _ = try engine.addTransaction(
                            json:
                                #"{"coin_id":"bitcoin","kind":"buy","amount":"1","price":"\#(step + 1)","timestamp":"2024-01-0\#(step % 9 + 1)"}"#
                        )
                    } else if thread == 1 {
                        _ = try engine.addTransaction(
                            json:
                                #"{"portfolio":"cold","coin_id":"ethereum","kind":"buy","amount":"2","price":"\#(step + 1)","timestamp":"2024-02-01"}"#
                        )
                    } else {
                        _ = try engine.pnl(PnLOptions(portfolio: thread == 2 ? "main" : "cold", method: step % 2 == 0 ? .fifo : .hifo))
                        _ = try engine.statistics()
                        _ = try engine.portfolio()
                    }
                }
            } catch { failures.withLock { $0.append("\(thread): \(error)") } }
        }
        XCTAssertEqual(failures.withLock { $0 }, [String]())
        try assertSame(engine, database, ["main", "cold"], "after threads")
    }

    /// ExactDecimal(Double) equals the parse of the double's shortest text.
    func testExactDecimalFromDoubleIsTheParseOfItsText() {
        var values: [Double] = [
            -0.0, 0.5, -0.5, 2.5, -2.5, 0.1, -0.1, 0.3, 1e-18, 5e-19, 1.5e-17, -1.5e-17, 1e-17, 9.999999999999999e-18,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, 123.456, -123.456, 0.1 + 0.2,
            562_949_953_421_311, 562_949_953_421_312, 562_949_953_421_313, -562_949_953_421_311, 562_949_953_421_311.5,
            281_474_976_710_655.75, 9_007_199_254_740_991, 9_007_199_254_740_992, -9_007_199_254_740_993, 4_503_599_627_370_495.5,
            1e15, 1e16, 1.7e17, 99_999_999_999_999.99, 12345.678901234567, 0.000001, 1e-7, 5e-324, 2.2250738585072014e-308,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20000 {
            let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
            let random = Double(bitPattern: bits)
            if random.isFinite { values.append(random) }
            let scale = Double(sign: .plus, exponent: Int.random(in: -70...60, using: &generator), significand: 1)
            values.append(Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator)) / 1000 * scale)
            let digits = Double(Int.random(in: -99_999_999...99_999_999, using: &generator))
            values.append(digits / [1, 10, 100, 1e4, 1e8, 1e12, 1e16, 1e18][Int.random(in: 0..<8, using: &generator)])
        }
        var mismatches = 0
        for value in values {
            let fast = ExactDecimal(value)
            let text = ExactDecimal(rounding: value.description)
            if fast != text {
                mismatches += 1
                if mismatches < 10 {
                    XCTFail("\(value) (\(value.description)): \(String(describing: fast)) vs text \(String(describing: text))")
                }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// One multiply by 10^shift refuses exactly what the text with the zeros written out refuses.
    func testExponentScalingEqualsTheZerosWrittenOut() {
        for mantissa in ["1", "7", "17", "99999", "170141183460469231731687303715884105727", "0", "0.0001", "12.5"] {
            for exponent in 0...45 {
                let scaled = ExactDecimal("\(mantissa)e\(exponent)")
                let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
                var whole = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
                for _ in 0..<exponent {
                    if fraction.isEmpty { whole += "0" } else { whole.append(fraction.removeFirst()) }
                }
                let written = ExactDecimal(fraction.isEmpty ? whole : whole + "." + fraction)
                XCTAssertEqual(scaled, written, "\(mantissa)e\(exponent)")
            }
        }
    }

    /// Keys and strings at every offset around 16-byte boundaries, escaped quotes and backslashes
    /// at the end of a body: the one-pass decoder equals the Foundation decoder, whole and in pieces.
    func testEscapesAtEveryOffsetDecodeAsTheFoundationDecoder() throws {
        #if SimdJSON
            for pad in 0..<40 {
                let filler = String(repeating: "x", count: pad)
                let names = [#"a\"b"#, #"a\\"#, #"\\\""#, #"\\"#, #"q\"\#(filler)\\"#, filler + #"\"\\"#, filler]
                for name in names {
                    let bodies = [
                        #"[{"id":"c\#(pad)","name":"\#(name)","\#(filler)":"\#(name)","n\#(filler)\"k":1,"symbol":"\#(name)"}]"#,
                        #"[{"\#(filler)":1,"id":"c","name":"\#(name)"},{"id":"c","symbol":"\#(name)"}]"#,
                        #"[{"id":"\#(filler)\\","name":"\#(name)"}]"#,
                    ]
                    for text in bodies {
                        let body = Data(text.utf8)
                        let reference = try CoinGeckoBody.marketsWithFoundation(body)
                        let fast = try CoinGeckoBody.markets(body)
                        XCTAssertEqual(fast.coins, reference.coins, text)
                        XCTAssertEqual(fast.skipped.map(\.index), reference.skipped.map(\.index), text)
                        let data = CoinGeckoBody.withoutBOM(body)
                        let whole = try MarketsDecoder.decode(data, offsetBase: 0)
                        for piece in [1, 7, 64] {
                            XCTAssertEqual(
                                try MarketsDecoder.decode(data, offsetBase: 0, piecewiseAbove: 0, pieceBytes: piece), whole,
                                "\(text) / \(piece)")
                        }
                    }
                }
            }
        #endif
    }
}
