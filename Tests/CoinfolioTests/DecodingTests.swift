import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §2: tolerant, per-element decoding, keyed by id.
final class DecodingTests: XCTestCase {
    func testMarketsKeepNullsTinyAndHugeValues() throws {
        let page = try CoinGeckoBody.markets(Repository.fixture("markets.json"))
        XCTAssertEqual(page.skipped, [])
        let byID = Dictionary(uniqueKeysWithValues: page.coins.map { ($0.id, $0) })
        XCTAssertNil(try XCTUnwrap(byID["compound-usdt"]).currentPrice)
        XCTAssertNil(try XCTUnwrap(byID["hive_dollar"]).marketCapRank)
        XCTAssertEqual(byID["baby-doge-coin"]?.currentPrice, 1.186e-09)
        XCTAssertEqual(byID["baby-doge-coin"]?.totalSupply, 4.2e17)
        XCTAssertEqual(byID["bitcoin"]?.currentPrice, 57000.123)
    }

    func testSparklinesOfAnyLength() throws {
        let page = try CoinGeckoBody.markets(Repository.fixture("markets.json"))
        let lengths = Dictionary(uniqueKeysWithValues: page.coins.map { ($0.id, $0.sparklineIn7d?.count ?? -1) })
        XCTAssertEqual(lengths["bitcoin"], 170)
        XCTAssertEqual(lengths["boringdao-[old]"], 0)
    }

    func testDuplicateSymbolsAreDifferentCoins() throws {
        let page = try CoinGeckoBody.markets(Repository.fixture("markets.json"))
        XCTAssertEqual(page.coins.filter { $0.symbol == "weth" }.map(\.id).sorted(), ["binance-peg-weth", "weth"])
        XCTAssertEqual(Set(page.coins.map(\.id)).count, page.coins.count)
    }

    func testRoiAndChangeWindowsAndDates() throws {
        let page = try CoinGeckoBody.markets(Repository.fixture("markets.json"))
        let ethereum = try XCTUnwrap(page.coins.first { $0.id == "ethereum" })
        XCTAssertEqual(ethereum.roi?.currency, "usd")
        XCTAssertNotNil(ethereum.priceChangePercentageInCurrency[.h1])
        let bitcoin = try XCTUnwrap(page.coins.first { $0.id == "bitcoin" })
        XCTAssertNil(bitcoin.roi)
        XCTAssertNotNil(Coin.date("2021-11-10T14:24:11.849Z"))
        XCTAssertNotNil(Coin.date("2021-03-13T20:49:26Z"))
        XCTAssertNotNil(Coin.date(bitcoin.athDate))
    }

    func testOneBadElementIsSkippedAndReportedNeverTheList() throws {
        let page = try CoinGeckoBody.markets(Repository.fixture("markets-bad-elements.json"))
        // A row needs only its id (SPEC §10): "numeric-name" is kept with name "" and a warning.
        XCTAssertEqual(page.coins.map(\.id), ["bitcoin", "ethereum", "numeric-name", "tether"])
        XCTAssertEqual(page.skipped.map(\.index), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(page.warnings, [DecodeWarning(index: 7, id: "numeric-name", field: "name", reason: "not a string")])
        XCTAssertTrue(page.skipped.contains { $0.reason.contains("duplicate id") })
        XCTAssertEqual(page.coins.first { $0.id == "ethereum" }?.currentPrice, 3928.55)
    }

    func testExponentNumbersAndIntegralRanks() throws {
        let body =
            #"[{"id":"a","symbol":"a","name":"A","current_price":1.186E-9,"market_cap_rank":3.0,"total_supply":4.2e+17,"high_24h":"oops"}]"#
        let coin = try XCTUnwrap(CoinGeckoBody.markets(Data(body.utf8)).coins.first)
        XCTAssertEqual(coin.currentPrice, 1.186e-9)
        XCTAssertEqual(coin.marketCapRank, 3)
        XCTAssertEqual(coin.totalSupply, 4.2e17)
        XCTAssertNil(coin.high24h, "a mistyped optional field reads as nil")
    }

    func testGlobalAndDetail() throws {
        let data = try CoinGeckoBody.global(Repository.fixture("global.json"))
        XCTAssertEqual(data.totalMarketCap?["usd"], 2.58e12)
        XCTAssertEqual(data.marketCapPercentage?["btc"], 42.5)
        let detail = try CoinGeckoBody.coinDetail(Repository.detailBody("bitcoin"))
        XCTAssertEqual(detail.homepage, "https://bitcoin.org")
        let text = try XCTUnwrap(detail.description)
        XCTAssertFalse(text.contains("<a"))
        XCTAssertFalse(text.contains("&amp;"))
        XCTAssertFalse(text.contains("\r"))
        XCTAssertTrue(text.contains("first & best"))
    }

    func testBadBodiesGiveClearErrors() {
        assertThrows(.invalidArgument) { try CoinGeckoBody.markets(Data()) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.markets(Data([0xFF, 0xFE])) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.markets(Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.markets(Data("[{\"id\":".utf8)) }
        assertThrows(.decode) { try CoinGeckoBody.markets(Data("{}".utf8)) }
        assertThrows(.decode) { try CoinGeckoBody.global(Data("[]".utf8)) }
        assertThrows(.decode) { try CoinGeckoBody.coinDetail(Data("{\"id\":\"x\"}".utf8)) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.markets(Data(String(repeating: "[", count: 100_000).utf8)) }
        let deep = assertThrows(.invalidArgument) {
            try CoinGeckoBody.markets(Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8))
        }
        XCTAssertTrue(deep?.message.contains("nested deeper than 512") ?? false)
        assertThrows(.invalidArgument) { try CoinGeckoBody.markets(Data("[1,]".utf8)) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.global(Data(#"{"data":{"markets":1,}}"#.utf8)) }
        assertThrows(.invalidArgument) { try CoinGeckoBody.global(Data(String(repeating: "{\"a\":", count: 100_000).utf8)) }
    }

    func testCoinIDRule() {
        for good in [
            "bitcoin", "1move token", "boringdao-[old]", "hive_dollar", "x'); DROP TABLE holding;--", "%2e%2e",
            String(repeating: "a", count: 128),
        ] {
            XCTAssertTrue(CoinID.isValid(good), good)
        }
        for bad in ["", ".", "..", "a/b", "../global", "tab\there", "\u{7f}", String(repeating: "a", count: 129)] {
            XCTAssertFalse(CoinID.isValid(bad), bad)
        }
        XCTAssertEqual(CoinID.percentEncoded("bitcoin?x=1"), "bitcoin%3Fx%3D1")
        XCTAssertEqual(CoinID.percentEncoded("1move token"), "1move%20token")
        XCTAssertEqual(CoinID.percentEncoded("%2e%2e"), "%252e%252e")
    }

    /// Every recorded body of ../shared/fixtures/coingecko decodes with every coin kept and every
    /// value equal to the raw JSON. JSONSerialization on Linux keeps numbers as text-exact NSNumbers
    /// whose `doubleValue` can be an ULP off (100632.33885893488 → 100632.3388589349), so the
    /// oracle reads each number's own text with `Double(String)`, which rounds correctly.
    func testRecordedCorpusDecodesEveryCoinExactly() throws {
        let folder = Repository.corpus.appendingPathComponent("coins-markets")
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw XCTSkip("recorded corpus not found at \(Repository.corpus.path) (shared/ beside the checkout)")
        }
        let numericKeys = [
            "current_price", "market_cap", "fully_diluted_valuation", "total_volume", "high_24h", "low_24h",
            "price_change_24h", "price_change_percentage_24h", "market_cap_change_24h",
            "market_cap_change_percentage_24h", "circulating_supply", "total_supply", "max_supply", "ath",
            "ath_change_percentage", "atl", "atl_change_percentage",
        ]
        var files = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            files += 1
            let body = try Data(contentsOf: folder.appendingPathComponent(name))
            let page = try CoinGeckoBody.markets(body)
            let raw = try XCTUnwrap(JSONSerialization.jsonObject(with: CoinGeckoBody.withoutBOM(body)) as? [[String: Any]])
            XCTAssertEqual(page.skipped.count, 0, name)
            XCTAssertEqual(page.coins.count, Set(raw.compactMap { $0["id"] as? String }).count, name)
            let decoded = Dictionary(page.coins.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            var w = JSONWriter()
            for element in raw {
                let id = try XCTUnwrap(element["id"] as? String)
                let coin = try XCTUnwrap(decoded[id], "\(name): \(id) lost")
                w = JSONWriter(); w.beginObject(); coin.writeJSON(to: &w); w.endObject()
                let written = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
                for key in numericKeys {
                    let expected = exact(element[key])
                    let actual = exact(written[key])
                    XCTAssertEqual(actual, expected, "\(name): \(id).\(key)")
                }
                XCTAssertEqual((written["market_cap_rank"] as? NSNumber)?.intValue, (element["market_cap_rank"] as? NSNumber)?.intValue)
                let rawSparkline = (element["sparkline_in_7d"] as? [String: Any])?["price"] as? [NSNumber]
                XCTAssertEqual(coin.sparklineIn7d?.count, rawSparkline?.count, "\(name): \(id) sparkline")
                for (a, b) in zip(coin.sparklineIn7d ?? [], rawSparkline ?? []) {
                    XCTAssertEqual(a, exact(b), "\(name): \(id) sparkline")
                }
            }
        }
        XCTAssertGreaterThan(files, 0)
        for (folderName, decode) in [
            ("global", { (d: Data) in _ = try CoinGeckoBody.global(d) }),
            ("coins-id", { (d: Data) in _ = try CoinGeckoBody.coinDetail(d) }),
        ] {
            let other = Repository.corpus.appendingPathComponent(folderName)
            for name in try FileManager.default.contentsOfDirectory(atPath: other.path) where name.hasSuffix(".json") {
                XCTAssertNoThrow(try decode(Data(contentsOf: other.appendingPathComponent(name))), "\(folderName)/\(name)")
            }
        }
    }

    /// A JSON number as the correctly rounded Double of its text.
    private func exact(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber else { return nil }
        return Double(number.description)
    }

    func testOneBadEntryOfAGlobalMapDropsOnlyThatEntry() throws {
        let data = try CoinGeckoBody.global(Data(#"{"data":{"total_market_cap":{"usd":1e12,"eur":"x","gbp":null}}}"#.utf8))
        XCTAssertEqual(data.totalMarketCap, ["usd": 1e12])
    }

    func testDescriptionsFullOfAngleBracketsDecodeInLinearTime() throws {
        // Quadratic tag search took 16 s for 40,000 "<"; this must finish at once.
        let description = String(repeating: "<", count: 200_000)
        let body = #"{"id":"x","symbol":"x","name":"X","description":{"en":"a<b>c\#(description)"}}"#
        let detail = try CoinGeckoBody.coinDetail(Data(body.utf8))
        XCTAssertEqual(detail.description?.utf8.count, 2 + 200_000)
    }

    func testRanksOfZeroOrBelowMeanUnranked() throws {
        let body = #"[{"id":"a","symbol":"a","name":"A","market_cap_rank":0},{"id":"b","symbol":"b","name":"B","market_cap_rank":-5}]"#
        XCTAssertEqual(try CoinGeckoBody.markets(Data(body.utf8)).coins.map(\.marketCapRank), [nil, nil])
    }
}
