import Foundation
import XCTest

@testable import Coinfolio

/// The built-in symbol table (SPEC §18): its size, its parts agreeing, and its ids against the
/// recorded CoinGecko data when `../shared/fixtures/coingecko` is there.
final class SymbolTableTests: XCTestCase {
    func testAtLeastTheFiftyLargestCoins() {
        XCTAssertGreaterThanOrEqual(SymbolTable.largestCoins.count, 50)
        for (symbol, id) in [("BTC", "bitcoin"), ("ETH", "ethereum"), ("BNB", "binancecoin"), ("SOL", "solana"), ("XRP", "ripple")] {
            XCTAssertEqual(SymbolTable.coinID(for: symbol), id)
        }
        for (symbol, id) in [
            ("USDT", "tether"), ("USDC", "usd-coin"), ("DAI", "dai"), ("FDUSD", "first-digital-usd"), ("DOGE", "dogecoin"),
        ] {
            XCTAssertEqual(SymbolTable.coinID(for: symbol), id)
        }
    }

    /// A ticker in two parts of the table names the same coin; no ticker is money; every ticker
    /// is upper-case; Kraken's codes lead to a ticker the table or money knows.
    func testThePartsAgree() {
        var seen: [String: String] = [:]
        for (symbol, id) in SymbolTable.largestCoins + SymbolTable.stablecoins + SymbolTable.exchangeTickers {
            XCTAssertEqual(symbol, symbol.uppercased())
            XCTAssertFalse(MoneyCodes.isMoney(symbol.lowercased()), symbol)
            if let other = seen[symbol] { XCTAssertEqual(other, id, symbol) }
            seen[symbol] = id
            XCTAssertNoThrow(try CoinID.validate(id), id)
        }
        for (code, ticker) in SymbolTable.krakenCodes where !MoneyCodes.isMoney(ticker.lowercased()) {
            XCTAssertNotEqual(code, ticker)
            if ["BTC", "ETH", "DOGE", "LTC", "XRP", "XLM", "XMR", "ETC", "DOT", "ATOM", "FLOW"].contains(ticker) {
                XCTAssertNotNil(SymbolTable.coinID(for: ticker), ticker)
            }
        }
    }

    /// Every id of the table is a coin of the recorded `/coins/list` body.
    func testIDsAreCoinGeckoCoins() throws {
        let list = Repository.corpus.appendingPathComponent("coins-list/searchapp-coins-list-17k-unicode.json")
        guard FileManager.default.fileExists(atPath: list.path) else {
            throw XCTSkip("the recorded CoinGecko corpus is not at \(Repository.corpus.path)")
        }
        let coins = try JSONSerialization.jsonObject(with: Data(contentsOf: list)) as? [[String: Any]] ?? []
        let ids = Set(coins.compactMap { $0["id"] as? String })
        for (symbol, id) in SymbolTable.stablecoins + SymbolTable.exchangeTickers {
            XCTAssertTrue(ids.contains(id), "\(symbol) → \(id)")
        }
    }

    /// The generated block is what Tests/tools/symbol_table.py derives from the recorded bodies.
    func testGeneratedBlockIsUpToDate() throws {
        guard FileManager.default.fileExists(atPath: Repository.corpus.appendingPathComponent("coins-markets").path) else {
            throw XCTSkip("the recorded CoinGecko corpus is not at \(Repository.corpus.path)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.root.appendingPathComponent("Tests/tools/symbol_table.py").path, "--check"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "run python3 Tests/tools/symbol_table.py")
    }
}
