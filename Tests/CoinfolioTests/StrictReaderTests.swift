import Foundation
import XCTest

@testable import Coinfolio

/// One strict reader (`JSONReader`) for every JSON a host or CoinGecko sends: the chart reader
/// and the transaction reader refuse what the others refuse (issue 31, finding 6), a key given
/// twice reads as its later member everywhere, and a leap second in a timestamp is read.
final class StrictReaderTests: XCTestCase {
    private let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    private let deepest = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)

    /// The chart reader (a `/coins/{id}/market_chart` body, decoded or fetched, and the chart JSON
    /// `cf_chart_svg` draws) refuses a lone surrogate, a number beyond ±1.8e308 and nesting past
    /// 512 — in members it skips too — with the reasons and offsets of the other readers.
    func testTheChartReaderIsStrict() throws {
        let cases: [(String, CoinfolioError.Reason, Int)] = [
            (#"{"note":"\udc00","prices":[[1,2]]}"#, .loneSurrogate, 9),
            (#"{"prices":[[1,2,"\ud800"]]}"#, .loneSurrogate, 17),
            (#"{"note":1e400,"prices":[[1,2]]}"#, .numberOutOfRange, 8),
            (#"{"prices":[[1,-2e308]]}"#, .numberOutOfRange, 14),
            (#"{"prices":[[1e309,2]]}"#, .numberOutOfRange, 12),
            (#"{"extra":"# + deep + #","prices":[]}"#, .tooDeep, 520),
            (#"{"prices":[[1,2],]}"#, .malformedJSON, 17),
        ]
        for (body, reason, offset) in cases {
            let error = assertThrows(.invalidArgument) { try CoinGeckoBody.marketChart(Data(body.utf8)) }
            XCTAssertEqual(error?.reason, reason, body)
            XCTAssertEqual(error?.details["offset"], .number(Double(offset)), body)
        }
        // 512 levels in all (the object, the extra member's 511 arrays) are read.
        XCTAssertEqual(try CoinGeckoBody.marketChart(Data((#"{"extra":"# + deepest + #","prices":[[1,2]]}"#).utf8)).prices.count, 1)
        let svgCases: [(String, CoinfolioError.Reason)] = [
            (#"{"title":"\ud800","points":[[1,2]]}"#, .loneSurrogate),
            (#"{"points":[[1,2,1e400]]}"#, .numberOutOfRange),
            (#"{"points":[[1,1e999]]}"#, .numberOutOfRange),
            (#"{"x":"# + deep + #","points":[[1,2]]}"#, .tooDeep),
            (#"{"points":[[1,2,"# + deep + #"]]}"#, .tooDeep),
        ]
        for (json, reason) in svgCases {
            let error = assertThrows(.invalidArgument) { try ChartSVG.render(json: json) }
            XCTAssertEqual(error?.reason, reason, json)
        }
        XCTAssertNoThrow(try ChartSVG.render(json: #"{"x":"# + deepest + #","points":[[1,2]]}"#))
    }

    /// The transaction reader refuses a number out of range, a lone surrogate or nesting past 512
    /// in a field it does not know, and writes nothing.
    func testTheTransactionReaderRefusesOutOfRangeNumbersInUnknownFields() throws {
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: ":memory:"))
        let base = #""coin_id":"bitcoin","kind":"buy","amount":1,"price":1"#
        let cases: [(String, CoinfolioError.Reason)] = [
            ("{" + base + #","x":1e400}"#, .numberOutOfRange), ("{" + base + #","x":[{"y":-1e309}]}"#, .numberOutOfRange),
            ("{" + base + #","x":"\udfff"}"#, .loneSurrogate), ("{" + base + #","x":"# + deep + "}", .tooDeep),
        ]
        for (json, reason) in cases {
            let error = assertThrows(.invalidArgument) { try engine.addTransaction(json: json) }
            XCTAssertEqual(error?.reason, reason, String(json.prefix(80)))
            XCTAssertNotNil(error?.details["offset"])
        }
        XCTAssertEqual(try engine.transactions().total, 0)
        XCTAssertEqual(try engine.addTransaction(json: "{" + base + #","x":1e308}"#).amount, 1)
    }

    /// A key given twice: the later member wins, in every reader (configs and queries, the
    /// transaction, chart JSON, and every CoinGecko body).
    func testALaterMemberWinsInEveryReader() throws {
        XCTAssertEqual(try EngineConfiguration(json: #"{"vs_currency":"eur","vs_currency":"jpy"}"#).vsCurrency.code, "jpy")
        XCTAssertEqual(try CoinQuery(json: #"{"limit":1,"limit":2}"#).limit, 2)
        XCTAssertEqual(try MarketChartRequest(json: #"{"days":1,"days":30}"#).days, .days(30))
        let transaction = try Transaction(json: #"{"coin_id":"a","coin_id":"bitcoin","kind":"buy","amount":1,"amount":"2","price":3}"#)
        XCTAssertEqual(transaction.coinID, "bitcoin")
        XCTAssertEqual(transaction.amount, ExactDecimal("2"))
        let svg = try ChartSVG.render(json: #"{"vs_currency":"usd","points":[[1,9]],"points":[[1,2],[2,3]],"vs_currency":"eur"}"#)
        XCTAssertTrue(svg.contains("€"), svg)
        let chart = try CoinGeckoBody.marketChart(Data(#"{"prices":[[1,1]],"prices":[[2,2]]}"#.utf8))
        XCTAssertEqual(chart.prices, [ChartPoint(time: 2, value: 2)])
        let markets = #"[{"id":"a","symbol":"x","symbol":"y","name":"A","current_price":1,"current_price":2}]"#
        for page in [try CoinGeckoBody.markets(Data(markets.utf8)), try MarketsTreeDecoder.decode(Data(markets.utf8))] {
            XCTAssertEqual(page.coins.first?.symbol, "y")
            XCTAssertEqual(page.coins.first?.currentPrice, 2)
        }
        let global = try CoinGeckoBody.global(Data(#"{"data":{"markets":1,"markets":2},"data":{"markets":3}}"#.utf8))
        XCTAssertEqual(global.markets, 3)
        let detail = try CoinGeckoBody.coinDetail(Data(#"{"id":"a","symbol":"a","name":"A","name":"B"}"#.utf8))
        XCTAssertEqual(detail.name, "B")
        let prices = try CoinGeckoBody.simplePrice(Data(#"{"a":{"usd":1},"a":{"usd":2}}"#.utf8), vsCurrency: .usd)
        XCTAssertEqual(prices.prices["a"]?.price, 2)
    }

    /// RFC 3339 allows a leap second, `23:59:60`; Unix milliseconds cannot hold it, so it reads
    /// as the last millisecond of its minute (after every other instant of it, before midnight).
    func testALeapSecondIsRead() throws {
        let leap = try XCTUnwrap(LedgerTimestamp.parse("2016-12-31T23:59:60Z"))
        XCTAssertEqual(LedgerTimestamp.format(leap), "2016-12-31T23:59:59.999Z")
        XCTAssertEqual(LedgerTimestamp.parse("2016-12-31T23:59:60.5Z"), leap)
        XCTAssertEqual(LedgerTimestamp.parse("2016-12-31T15:59:60-08:00"), leap)
        XCTAssertEqual(LedgerTimestamp.parse("2017-01-01T00:59:60+01:00"), leap)
        XCTAssertLessThan(try XCTUnwrap(LedgerTimestamp.parse("2016-12-31T23:59:59.998Z")), leap)
        XCTAssertLessThan(leap, try XCTUnwrap(LedgerTimestamp.parse("2017-01-01T00:00:00Z")))
        for text in ["2016-12-31T12:00:60Z", "2016-12-31T23:58:60Z", "2016-12-31T23:59:61Z", "2016-12-31T23:59:60+01:00"] {
            XCTAssertNil(LedgerTimestamp.parse(text), text)
        }
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: ":memory:"))
        let stored = try engine.addTransaction(
            json: #"{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"timestamp":"2016-12-31T23:59:60Z"}"#)
        XCTAssertEqual(stored.json.contains(#""timestamp":"2016-12-31T23:59:59.999Z""#), true, stored.json)
    }

    /// The one number grammar and conversion: correctly rounded (the C library's, in the C
    /// locale), whole numbers of up to 15 digits read in the scan itself, each the same value
    /// Swift's own parser gives.
    func testNumbersReadAsSwiftReadsThem() throws {
        let texts = [
            "0", "-0", "7", "-42", "123456789012345", "-999999999999999", "1234567890123456", "9007199254740993", "0.1",
            "-1.5e-3", "4.2E17", "1e-320", "2.2250738585072014e-308", "1.7976931348623157e308", "0.30000000000000004",
            "43210.123456789012345678901234567890",
        ]
        for text in texts {
            let expected = try XCTUnwrap(Double(text))
            XCTAssertEqual(NumberText.parse(text)?.bitPattern, expected.bitPattern, text)
            XCTAssertEqual(try JSONValue.parse(text).double?.bitPattern, expected.bitPattern, text)
            let chart = try ChartJSONReader.read(#"{"points":[[1,\#(text)]]}"#)
            XCTAssertEqual(chart.values.first?.bitPattern, expected.bitPattern, text)
        }
        for text in ["01", "1.", ".5", "+1", "-", "1e", "1e+", "0x10", "1e400", "-1e309", " 1", "1 "] {
            XCTAssertNil(NumberText.parse(text), text)
        }
    }

    /// Messages and details are the reader's wherever the text goes: a transaction, a config and
    /// a chart name the same byte offset for the same fault.
    func testEveryReaderReportsTheSameFault() throws {
        let inputs: [(String, (String) throws -> Void)] = [
            ("transaction", { _ = try Transaction(json: $0) }), ("config", { _ = try EngineConfiguration(json: $0) }),
            ("chart", { _ = try ChartSVG.render(json: $0) }), ("global", { _ = try CoinGeckoBody.global(Data($0.utf8)) }),
        ]
        for (name, read) in inputs {
            let error = assertThrows(.invalidArgument) { try read(#"{"a":[1,2,]}"#) }
            XCTAssertEqual(error?.message, "malformed JSON at byte offset 10: trailing comma before ']'", name)
            XCTAssertEqual(error?.details, ["reason": .string("malformed_json"), "offset": .number(10)], name)
        }
    }
}

/// The fallback `/coins/markets` decoder (builds without simdjson) gives the simdjson decoder's
/// pages: every recorded body, the committed fixtures, and thousands of mutations.
final class MarketsTreeDecoderTests: XCTestCase {
    private func bodies() throws -> [(String, Data)] {
        var bodies = [
            ("markets.json", try Repository.fixture("markets.json")),
            ("markets-bad-elements.json", try Repository.fixture("markets-bad-elements.json")),
        ]
        let folder = Repository.corpus.appendingPathComponent("coins-markets")
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for name in names.sorted() where name.hasSuffix(".json") {
                bodies.append((name, try Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
        return bodies
    }

    func testTheFallbackDecodesAsSimdjson() throws {
        for (name, body) in try bodies() {
            let fast = try CoinGeckoBody.markets(body)
            let tree = try MarketsTreeDecoder.decode(body)
            XCTAssertEqual(tree, fast, name)
            XCTAssertEqual(tree.coins.map(\.sparklineIn7d?.count), fast.coins.map(\.sparklineIn7d?.count), name)
        }
        for text in [#"[1,"a",null,{"id":5},{"id":null},{},{"id":"A B"},{"id":"a"},{"id":"a","name":7}]"#, "\u{FEFF}[]", "[]"] {
            XCTAssertEqual(try MarketsTreeDecoder.decode(Data(text.utf8)), try CoinGeckoBody.markets(Data(text.utf8)), text)
        }
    }

    func testTheFallbackRefusesWhatSimdjsonRefuses() throws {
        var disagreements: [String] = []
        for body in mutatedMarketsBodies(3000) {
            let fast = Result { try CoinGeckoBody.markets(Data(body)) }
            let tree = Result { try MarketsTreeDecoder.decode(Data(body)) }
            switch (fast, tree) {
            case (.success(let a), .success(let b)) where a == b: continue
            case (.failure(let a as CoinfolioError), .failure(let b as CoinfolioError)) where a == b: continue
            default: disagreements.append(String(decoding: body, as: UTF8.self))
            }
        }
        XCTAssertEqual(Array(disagreements.prefix(5)), [], "\(disagreements.count) disagreements")
    }
}
