import Foundation
import XCTest

@testable import Coinfolio

/// Issue 17, fault 1: RFC 8259 strictly at every JSON entry point, with the byte offset named.
/// These are also the contract any new decoder keeps (the fuzz oracle checks the same rule).
final class StrictJSONTests: XCTestCase {
    /// Asserts `.invalidArgument` with `details.offset` and `details.reason`.
    private func assertRefused(
        _ reason: String, offset: Int, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) {
        guard let error = assertThrows(.invalidArgument, file: file, line: line, body) else { return }
        XCTAssertEqual(error.details["reason"], .string(reason), "\(error)", file: file, line: line)
        XCTAssertEqual(error.details["offset"], .number(Double(offset)), "\(error)", file: file, line: line)
        XCTAssertTrue(error.message.contains("byte offset \(offset)"), error.message, file: file, line: line)
    }

    func testMalformedMarketsBodiesAreRefusedWithTheOffset() {
        assertRefused("malformed_json", offset: 1) { _ = try CoinGeckoBody.markets(Data("[01]".utf8)) }
        assertRefused("malformed_json", offset: 3) { _ = try CoinGeckoBody.markets(Data("[\"a\tb\"]".utf8)) }
        assertRefused("malformed_json", offset: 51) {
            _ = try CoinGeckoBody.markets(Data(#"[{"id":"a","symbol":"b","name":"c","current_price":1.}]"#.utf8))
        }
        assertRefused("malformed_json", offset: 2) { _ = try CoinGeckoBody.markets(Data(#"["\x"]"#.utf8)) }
        assertRefused("malformed_json", offset: 3) { _ = try CoinGeckoBody.markets(Data("[1,]".utf8)) }
        // A BOM is skipped, and the offset still counts from the first byte given.
        assertRefused("malformed_json", offset: 4) { _ = try CoinGeckoBody.markets(Data([0xEF, 0xBB, 0xBF] + Array("[01]".utf8))) }
    }

    func testMalformedGlobalAndDetailBodiesAreRefused() {
        assertRefused("malformed_json", offset: 19) { _ = try CoinGeckoBody.global(Data(#"{"data":{"markets":-}}"#.utf8)) }
        assertRefused("malformed_json", offset: 11) {
            _ = try CoinGeckoBody.coinDetail(Data(#"{"id":"a"  "symbol":"b","name":"c"}"#.utf8))
        }
    }

    func testMalformedConfigsAndQueriesAreRefused() {
        assertRefused("malformed_json", offset: 5) { _ = try ClientConfiguration(json: #"{"x":-}"#) }
        assertRefused("malformed_json", offset: 10) { _ = try EngineConfiguration(json: #"{"api":{}}}"#) }
        assertRefused("malformed_json", offset: 9) { _ = try CoinQuery(json: #"{"limit":01}"#) }
        assertRefused("malformed_json", offset: 8) { _ = try PortfolioQuery(json: #"{"sort":'holdings'}"#) }
        assertRefused("malformed_json", offset: 0) { _ = try MarketsRequest(json: "") }
    }

    func testLoneSurrogateInAConfigSaysSo() {
        let error = assertThrows(.invalidArgument) { _ = try ClientConfiguration(json: #"{"api_key":"\ud800"}"#) }
        XCTAssertEqual(error?.details["reason"], .string("lone_surrogate"))
        XCTAssertEqual(
            error?.message, #"JSON string at byte offset 12 has a lone surrogate escape (\ud800), which is not a Unicode character"#)
        // A proper pair is one character.
        XCTAssertNoThrow(try ClientConfiguration(json: #"{"base_url":"https://example.org/\ud83d\ude00"}"#))
        // A low surrogate alone, and a high one followed by something else.
        assertRefused("lone_surrogate", offset: 2) { _ = try CoinGeckoBody.markets(Data(#"["\udc00"]"#.utf8)) }
        assertRefused("lone_surrogate", offset: 2) { _ = try CoinGeckoBody.markets(Data(#"["\ud800\u0041"]"#.utf8)) }
    }

    func testOutOfRangeNumberInAConfigSaysSo() {
        let error = assertThrows(.invalidArgument) { _ = try ClientConfiguration(json: #"{"timeout_ms":1e400}"#) }
        XCTAssertEqual(error?.details["reason"], .string("number_out_of_range"))
        XCTAssertEqual(error?.message, "JSON number at byte offset 14 is out of range: 1e400 is beyond ±1.8e308")
        XCTAssertNoThrow(try CoinGeckoBody.markets(Data(#"[{"id":"a","symbol":"a","name":"A","current_price":1e308}]"#.utf8)))
        XCTAssertNoThrow(try CoinGeckoBody.markets(Data(#"[{"id":"a","symbol":"a","name":"A","current_price":1e-400}]"#.utf8)))
    }

    func testEngineLoadRefusesMalformedMarketsAndKeepsTheSnapshot() throws {
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: ":memory:"))
        try engine.load(marketsBody: Repository.fixture("markets.json"), globalBody: nil)
        let before = try engine.coins(CoinQuery(limit: 1000)).total
        let error = assertThrows(.invalidArgument) {
            _ = try engine.load(marketsBody: Data(#"[{"id":"a","symbol":"b","name":"c","current_price":1.}]"#.utf8), globalBody: nil)
        }
        XCTAssertEqual(error?.details["offset"], .number(51))
        XCTAssertEqual(try engine.coins(CoinQuery(limit: 1000)).total, before)
    }

    /// A table of small texts: RFC 8259 says yes or no, the checker agrees.
    func testCheckerAgreesWithRFC8259() {
        let valid = [
            "0", "-0", "1.5e+3", "-12.25E-2", "\"\"", "\"\\u00e9\\n\\/\"", "[]", "{}", " [ 1 , 2 ] ", "{\"a\":{\"b\":[null,true,false]}}",
            "\"é😀\"", "[\"\\ud83d\\ude00\"]", "1e308",
        ]
        let invalid = [
            "", " ", "[01]", "[1.]", "[.5]", "[+1]", "[1e]", "[1e+]", "[-]", "[--1]", "[0x10]", "[NaN]", "[Infinity]", "[tru]",
            "[nul]", "[True]", "[1,]", "{\"a\":1,}", "[,1]", "{,}", "{\"a\"}", "{\"a\" 1}", "{a:1}", "{'a':1}", "['a']", "[\"\\x\"]",
            "[\"\\u12\"]", "[\"\\u12g4\"]", "[\"a\nb\"]", "[\"a\u{01}b\"]", "[1 2]", "[1]]", "[[1]", "{\"a\":1}}", "1 2",
            "[\"unterminated]",
            "[1]x", "\u{FEFF}[]", "[-01]", "[1.e5]", "[1e5.5]", "{\"a\":1 \"b\":2}", "[\"\\ud800\"]", "[1e400]", "[-1e400]",
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        ]
        for text in valid {
            XCTAssertTrue(Data(text.utf8).withUnsafeBytes(JSONSyntax.isStrictJSON), "should accept: \(text)")
        }
        for text in invalid {
            XCTAssertFalse(Data(text.utf8).withUnsafeBytes(JSONSyntax.isStrictJSON), "should refuse: \(text.debugDescription)")
        }
        let nested512 = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertTrue(Data(nested512.utf8).withUnsafeBytes(JSONSyntax.isStrictJSON))
    }

    func testEveryFixtureIsStrictJSON() throws {
        for name in ["markets.json", "global.json", "details.json", "markets-bad-elements.json"] {
            XCTAssertTrue(try Repository.fixture(name).withUnsafeBytes(JSONSyntax.isStrictJSON), name)
        }
    }
}
