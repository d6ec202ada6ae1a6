import XCTest

@testable import Coinfolio

/// Issue 30 (SPEC §22): the trigram search finds exactly what a scan of every coin's folded text
/// finds, in the same order, for needles of every length, with few and with many matches.
final class SearchIndexTests: XCTestCase {
    /// Coins named like the benchmark's (ids with numbers, repeated names) plus folded text.
    private let texts: [String] = (0..<600).map { n in
        let names = ["Ethereum", "Tether", "Bitcoin", "Pokémon Token", "Straße", "Wrapped Ether", "Lido Staked ETH", "aaa"]
        let symbols = ["eth", "usdt", "btc", "pkmn", "str", "weth", "steth", "aa"]
        return "\(names[n % names.count])\u{0}\(symbols[n % symbols.count])\u{0}coin-\(n)"
    }

    private func scan(_ needle: [UInt8], _ folded: [[UInt8]], _ order: [Int]) -> [Int] {
        order.filter { position in
            let haystack = folded[position]
            guard needle.count <= haystack.count else { return false }
            return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
        }
    }

    func testTheIndexFindsWhatAScanFindsInTheSameOrder() {
        let folded = texts.map(SearchText.fold)
        let index = SearchIndex(texts: folded)
        // An order that is not the positions' own: every coin, shuffled deterministically.
        let order = (0..<folded.count).map { ($0 * 367) % folded.count }
        var rank = [Int32](repeating: 0, count: order.count)
        for (place, position) in order.enumerated() { rank[position] = Int32(place) }
        let needles = [
            "e", "et", "eth", "ethe", "ether", "ethereum", "tether", "coin-5", "coin-59", "coin-599", "coin-600", "pokemon",
            "strasse", "okémon", "xyz", "aaa", "aaaa", "a", "h\u{0}e", "\u{0}", "m\u{0}eth", "eth\u{0}coin", "d eth", "sta",
        ]
        for text in needles {
            let needle = SearchText.fold(text)
            XCTAssertEqual(index.matches(needle, order: order, rank: rank), scan(needle, folded, order), text)
        }
    }

    func testTheEngineListsEveryMatchInRankOrder() throws {
        let engine = try PortfolioEngine(
            configuration: EngineConfiguration(
                database: ":memory:", api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
        let coins = (0..<300).map { n in
            #"{"id":"coin-\#(n)","symbol":"c\#(n)","name":"\#(["Ethereum", "Tether", "Bitcoin"][n % 3]) \#(n)","current_price":\#(n + 1),"market_cap_rank":\#(300 - n)}"#
        }
        try engine.load(marketsBody: Data("[\(coins.joined(separator: ","))]".utf8), globalBody: nil)
        let listing = try engine.coins(CoinQuery(search: "ether", limit: 5))
        // "Ethereum n" and "Tether n" (n % 3 is 0 or 1); rank 300 − n, so the highest n first.
        XCTAssertEqual(listing.total, 200)
        XCTAssertEqual(listing.coins.map(\.id), ["coin-298", "coin-297", "coin-295", "coin-294", "coin-292"])
        XCTAssertEqual(try engine.coins(CoinQuery(search: "coin-29", sort: .rank)).total, 11)
        XCTAssertEqual(try engine.coins(CoinQuery(search: "zz")).total, 0)
    }
}
