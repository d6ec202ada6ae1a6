import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §10 "Numbers sent as strings", "A row needs only its id" and "HTML to text": the
/// decoding contract (any replacement decoder must pass these unchanged).
final class EdgeDecodingTests: XCTestCase {
    private func page(_ body: String) throws -> MarketsPage { try CoinGeckoBody.markets(Data(body.utf8)) }

    private func row(_ fields: String) -> String { #"[{"id":"coin-a","symbol":"a","name":"A",\#(fields)}]"# }

    func testANumberSentAsAStringIsReadAsThatNumber() throws {
        let decoded = try page(row(#""current_price":"0.0421""#))
        XCTAssertEqual(decoded.coins.first?.currentPrice, 0.0421)
        XCTAssertEqual(decoded.skipped, [])
        XCTAssertEqual(decoded.warnings, [])
        XCTAssertEqual(try page(row(#""current_price":"-1.5""#)).coins.first?.currentPrice, -1.5)
        XCTAssertEqual(try page(row(#""total_supply":"4.2e17""#)).coins.first?.totalSupply, 4.2e17)
        XCTAssertEqual(try page(row(#""market_cap":"1E+3""#)).coins.first?.marketCap, 1000)
        XCTAssertEqual(try page(row(#""market_cap_rank":"5""#)).coins.first?.marketCapRank, 5)
        XCTAssertEqual(
            try page(row(#""price_change_percentage_7d_in_currency":"2.5""#)).coins.first?.priceChangePercentageInCurrency[.d7], 2.5)
        XCTAssertEqual(try page(row(#""roi":{"times":"1.5","currency":"usd","percentage":"150"}"#)).coins.first?.roi?.times, 1.5)
        XCTAssertEqual(try page(row(#""sparkline_in_7d":{"price":[1,"2.5",null]}"#)).coins.first?.sparklineIn7d?.prefix(2), [1, 2.5])
    }

    func testEveryNumberFieldReadsNumberStringsAndReportsOthers() throws {
        let keys = [
            "current_price", "market_cap", "fully_diluted_valuation", "total_volume", "high_24h", "low_24h", "price_change_24h",
            "price_change_percentage_24h", "market_cap_change_24h", "market_cap_change_percentage_24h", "circulating_supply",
            "total_supply", "max_supply", "ath", "ath_change_percentage", "atl", "atl_change_percentage",
            "price_change_percentage_1h_in_currency", "price_change_percentage_24h_in_currency",
            "price_change_percentage_7d_in_currency", "price_change_percentage_14d_in_currency",
            "price_change_percentage_30d_in_currency", "price_change_percentage_200d_in_currency",
            "price_change_percentage_1y_in_currency",
        ]
        for key in keys {
            let good = try page(row(#""\#(key)":"1.5""#))
            XCTAssertEqual(good.warnings, [], key)
            XCTAssertTrue(good.json.contains(#""\#(key)":1.5"#), key)
            let bad = try page(row(#""\#(key)":"1.5x""#))
            XCTAssertEqual(bad.warnings, [DecodeWarning(index: 0, id: "coin-a", field: key, reason: "not a number")], key)
            XCTAssertTrue(bad.json.contains(#""\#(key)":null"#), key)
        }
    }

    func testAnyOtherStringIsNullAndReported() throws {
        for text in ["12abc", "", " 1", "1 ", "NaN", "Infinity", "-Infinity", "0x10", "+1", "1.", ".5", "01", "1e", "1e400", "١"] {
            let decoded = try page(row(#""current_price":"\#(text)""#))
            XCTAssertNil(decoded.coins.first?.currentPrice, text)
            XCTAssertEqual(decoded.skipped, [], text)
            XCTAssertEqual(
                decoded.warnings, [DecodeWarning(index: 0, id: "coin-a", field: "current_price", reason: "not a number")], text)
        }
    }

    func testOtherTypesAreNullAndReported() throws {
        let body = row(
            #""current_price":true,"market_cap":{},"total_volume":[1],"image":5,"market_cap_rank":1.5,"roi":"x","ath_date":false"#)
        let decoded = try page(body)
        XCTAssertEqual(decoded.coins.count, 1)
        XCTAssertEqual(
            decoded.warnings.map { [$0.field, $0.reason] },
            [
                ["image", "not a string"], ["current_price", "not a number"], ["market_cap", "not a number"],
                ["market_cap_rank", "not a whole number"], ["total_volume", "not a number"], ["ath_date", "not a string"],
                ["roi", "not an object"],
            ])
        XCTAssertTrue(decoded.warnings.allSatisfy { $0.index == 0 && $0.id == "coin-a" })
    }

    func testNestedFieldsAreReportedWithTheirPath() throws {
        let decoded = try page(
            row(#""roi":{"times":"abc","currency":1,"percentage":null},"sparkline_in_7d":{"price":[1,"x",{},null,"3"]}"#))
        XCTAssertEqual(
            decoded.warnings.map(\.field), ["roi.times", "roi.currency", "sparkline_in_7d.price[1]", "sparkline_in_7d.price[2]"])
        let prices = try XCTUnwrap(decoded.coins.first?.sparklineIn7d)
        XCTAssertEqual(prices.count, 5)
        XCTAssertEqual(prices[0], 1)
        XCTAssertTrue(prices[1].isNaN && prices[2].isNaN && prices[3].isNaN)
        XCTAssertEqual(prices[4], 3)
        XCTAssertEqual(try page(row(#""sparkline_in_7d":{"price":"x"}"#)).warnings.map(\.field), ["sparkline_in_7d.price"])
    }

    func testMissingAndNullOptionalFieldsAreNotReported() throws {
        XCTAssertEqual(try page(row(#""current_price":null,"roi":null,"sparkline_in_7d":null"#)).warnings, [])
        XCTAssertEqual(try page(#"[{"id":"coin-a","symbol":"a","name":"A"}]"#).warnings, [])
    }

    func testWarningsJSONShape() throws {
        let json = try page(#"[{"id":"a","symbol":"a","name":"A"},{"id":"coin-b","symbol":"b","name":"B","current_price":"12abc"}]"#).json
        XCTAssertTrue(
            json.hasSuffix(#""skipped":[],"warnings":[{"index":1,"id":"coin-b","field":"current_price","reason":"not a number"}]}"#), json)
    }

    func testARowNeedsOnlyItsID() throws {
        let decoded = try page(#"[{"id":"coin-a","current_price":50}]"#)
        XCTAssertEqual(decoded.coins.map(\.id), ["coin-a"])
        XCTAssertEqual(decoded.coins.first?.symbol, "")
        XCTAssertEqual(decoded.coins.first?.name, "")
        XCTAssertEqual(decoded.coins.first?.currentPrice, 50)
        XCTAssertEqual(decoded.skipped, [])
        XCTAssertEqual(
            decoded.warnings,
            [
                DecodeWarning(index: 0, id: "coin-a", field: "symbol", reason: "missing"),
                DecodeWarning(index: 0, id: "coin-a", field: "name", reason: "missing"),
            ])
        let typed = try page(#"[{"id":"coin-a","symbol":null,"name":7}]"#)
        XCTAssertEqual(typed.coins.first?.name, "")
        XCTAssertEqual(typed.warnings.map { [$0.field, $0.reason] }, [["symbol", "missing"], ["name", "not a string"]])
    }

    func testARowWithoutAUsableIDIsSkipped() throws {
        let decoded = try page(#"[{"id":1,"symbol":"a","name":"A"},{"symbol":"b"},{"id":"","symbol":"c"},{"id":"a/b"},null,{"id":"ok"}]"#)
        XCTAssertEqual(decoded.coins.map(\.id), ["ok"])
        XCTAssertEqual(decoded.skipped.map(\.index), [0, 1, 2, 3, 4])
        XCTAssertEqual(decoded.warnings.map(\.index), [5, 5], "warnings only for kept rows")
    }

    func testAReplacedDuplicateTakesItsWarningsWithIt() throws {
        let decoded = try page(#"[{"id":"a","current_price":"x"},{"id":"a","symbol":"a","name":"A","current_price":"2"}]"#)
        XCTAssertEqual(decoded.coins.first?.currentPrice, 2)
        XCTAssertEqual(decoded.warnings, [])
    }

    func testNumberStringsInGlobalAndDetail() throws {
        let global = try CoinGeckoBody.global(
            Data(
                #"{"data":{"total_market_cap":{"usd":"2.5e12","eur":"x"},"market_cap_change_percentage_24h_usd":"1.5","markets":"900"}}"#
                    .utf8))
        XCTAssertEqual(global.totalMarketCap, ["usd": 2.5e12])
        XCTAssertEqual(global.marketCapChangePercentage24hUSD, 1.5)
        XCTAssertEqual(global.markets, 900)
        let detail = try CoinGeckoBody.coinDetail(Data(#"{"id":"a","symbol":"a","name":"A","block_time_in_minutes":"10"}"#.utf8))
        XCTAssertEqual(detail.blockTimeInMinutes, 10)
    }

    func testGlobalAndDetailWarnings() throws {
        let global = try CoinGeckoBody.global(
            Data(#"{"data":{"total_market_cap":{"usd":1,"eur":"x","btc":true},"total_volume":[],"markets":1.5,"updated_at":"17"}}"#.utf8))
        XCTAssertEqual(global.updatedAt, 17)
        XCTAssertEqual(
            global.warnings.map { [$0.field, $0.reason] },
            [
                ["total_market_cap.btc", "not a number"], ["total_market_cap.eur", "not a number"],
                ["total_volume", "not an object"], ["markets", "not a whole number"],
            ])
        XCTAssertTrue(global.warnings.allSatisfy { $0.index == nil && $0.id == nil })
        XCTAssertTrue(
            global.json.hasSuffix(
                #""warnings":[{"index":null,"id":null,"field":"total_market_cap.btc","reason":"not a number"},"#
                    + #"{"index":null,"id":null,"field":"total_market_cap.eur","reason":"not a number"},"#
                    + #"{"index":null,"id":null,"field":"total_volume","reason":"not an object"},"#
                    + #"{"index":null,"id":null,"field":"markets","reason":"not a whole number"}]}"#), global.json)

        let detail = try CoinGeckoBody.coinDetail(
            Data(
                #"{"id":"a","symbol":"a","name":"A","block_time_in_minutes":"ten","hashing_algorithm":5,"categories":["x",1,null,"y"],"description":{"en":[]},"links":{"subreddit_url":7}}"#
                    .utf8))
        XCTAssertEqual(detail.categories, ["x", "y"])
        XCTAssertEqual(
            detail.warnings,
            [
                DecodeWarning(index: nil, id: "a", field: "block_time_in_minutes", reason: "not a number"),
                DecodeWarning(index: nil, id: "a", field: "hashing_algorithm", reason: "not a string"),
                DecodeWarning(index: nil, id: "a", field: "categories[1]", reason: "not a string"),
                DecodeWarning(index: nil, id: "a", field: "description.en", reason: "not a string"),
                DecodeWarning(index: nil, id: "a", field: "links.subreddit_url", reason: "not a string"),
            ])
        XCTAssertTrue(
            detail.json.contains(#"},"warnings":[{"index":null,"id":"a","field":"block_time_in_minutes","reason":"not a number"},"#))
        XCTAssertEqual(
            try CoinGeckoBody.coinDetail(Data(#"{"id":"a","symbol":"a","name":"A","categories":"x"}"#.utf8)).warnings.map(\.field),
            ["categories"])
        XCTAssertEqual(try CoinGeckoBody.global(Repository.fixture("global.json")).warnings, [])
    }

    // MARK: - HTML to text

    private func plain(_ html: String) -> String { HTMLText.plainText(html) }

    func testBareAngleBracketsAreText() {
        XCTAssertEqual(
            plain(#"Fees are < 0.1% and > 0 for <a href="https://example.org">holders</a>."#), "Fees are < 0.1% and > 0 for holders.")
        XCTAssertEqual(plain("fees < 0.1% and > 0"), "fees < 0.1% and > 0")
        XCTAssertEqual(plain("1 <2 and 3> 2"), "1 <2 and 3> 2")
        XCTAssertEqual(plain("a <b"), "a <b")
        XCTAssertEqual(plain("x<-y"), "x<-y")
    }

    func testRealTagsAreRemoved() {
        XCTAssertEqual(plain("<p>One</p><p>Two</p>"), "One\nTwo")
        XCTAssertEqual(plain("a<br>b<br/>c<BR />d"), "a\nb\nc\nd")
        XCTAssertEqual(plain("a<!-- note -->b<?xml x?>c<!DOCTYPE html>d"), "abcd")
        XCTAssertEqual(plain("<strong>bold</strong> <em>it</em>"), "bold it")
        XCTAssertEqual(plain("<bronze>x</bronze>"), "x", "only br itself is a line break")
    }

    func testEntitiesAreDecodedOnce() {
        XCTAssertEqual(plain("&lt;b&gt;"), "<b>")
        XCTAssertEqual(plain("&amp;lt;"), "&lt;")
        XCTAssertEqual(plain("Tom &amp; Jerry &#39;s &#x263A; &copy;"), "Tom & Jerry 's ☺ ©")
        XCTAssertEqual(plain("&unknown; & &;"), "&unknown; & &;")
    }

    func testLineEndings() {
        XCTAssertEqual(plain("a\r\nb\rc\nd"), "a\nb\nc\nd")
    }

    func testManyAngleBracketsStayText() {
        let text = String(repeating: "<a ", count: 100_000)
        XCTAssertEqual(plain(text), String(text.dropLast()))
        let opens = String(repeating: "<", count: 100_000) + ">"
        XCTAssertEqual(plain(opens), String(repeating: "<", count: 100_000) + ">")
        let entities = String(repeating: "&amp", count: 50_000)
        XCTAssertEqual(plain(entities), entities)
    }

    func testDetailDescriptionUsesTheRule() throws {
        let body =
            #"{"id":"a","symbol":"a","name":"A","description":{"en":"Fees are < 0.1% and > 0 for <a href=\"https://example.org\">holders</a>."}}"#
        XCTAssertEqual(try CoinGeckoBody.coinDetail(Data(body.utf8)).description, "Fees are < 0.1% and > 0 for holders.")
    }
}
