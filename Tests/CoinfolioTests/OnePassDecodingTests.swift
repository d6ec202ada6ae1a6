#if SimdJSON
    import CSimdJSON
    import Foundation
    import XCTest

    @testable import Coinfolio

    /// Issue 11: the one-pass decoder (simdjson On-Demand through Sources/CSimdJSON) keeps every rule
    /// of the Foundation decoder it replaced, checks strict JSON in the same pass, and leaves
    /// sparklines undecoded until read.
    final class OnePassDecodingTests: XCTestCase {
        private func markets(_ text: String) throws -> MarketsPage { try CoinGeckoBody.markets(Data(text.utf8)) }

        /// Every recorded /coins/markets body gives the same coins (every field, every sparkline point
        /// bit for bit) and the same skipped rows as the Foundation decoder.
        func testEveryRecordedBodyDecodesAsTheFoundationDecoderDid() throws {
            let folder = Repository.corpus.appendingPathComponent("coins-markets")
            guard FileManager.default.fileExists(atPath: folder.path) else {
                throw XCTSkip("recorded corpus not found at \(Repository.corpus.path) (shared/ beside the checkout)")
            }
            var bodies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.map {
                ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
            }
            bodies.append(("markets.json", try Repository.fixture("markets.json")))
            var points = 0
            for (name, body) in bodies {
                let fast = try CoinGeckoBody.markets(body)
                let reference = try CoinGeckoBody.marketsWithFoundation(body)
                XCTAssertEqual(fast.coins.count, reference.coins.count, name)
                XCTAssertEqual(fast.skipped, reference.skipped, name)
                XCTAssertEqual(fast.warnings, reference.warnings, name)
                for (a, b) in zip(fast.coins, reference.coins) {
                    XCTAssertEqual(a, b, "\(name): \(a.id)")
                    let (p, q) = (a.sparklineIn7d ?? [], b.sparklineIn7d ?? [])
                    XCTAssertEqual(p.map(\.bitPattern), q.map(\.bitPattern), "\(name): \(a.id) sparkline")
                    points += p.count
                }
            }
            XCTAssertGreaterThan(points, 41_000)
        }

        /// Large bodies are decoded in pieces of whole rows: same page as in one piece, for every
        /// recorded body cut into pieces of a few rows, and the same refusals.
        func testPiecewiseDecodingGivesTheSamePage() throws {
            var bodies = [
                ("markets.json", try Repository.fixture("markets.json")), ("bad", try Repository.fixture("markets-bad-elements.json")),
            ]
            let folder = Repository.corpus.appendingPathComponent("coins-markets")
            if let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {
                for name in names where name.hasSuffix(".json") {
                    bodies.append((name, try Data(contentsOf: folder.appendingPathComponent(name))))
                }
            }
            for (name, body) in bodies {
                let data = CoinGeckoBody.withoutBOM(body)
                let whole = try MarketsDecoder.decode(data, offsetBase: 0)
                for piece in [1, 3000, 100_000] {
                    let pieces = try MarketsDecoder.decode(data, offsetBase: 0, piecewiseAbove: 0, pieceBytes: piece)
                    XCTAssertEqual(pieces, whole, "\(name) in pieces of \(piece) bytes")
                    XCTAssertEqual(pieces.coins.map(\.sparklineIn7d?.count), whole.coins.map(\.sparklineIn7d?.count), name)
                }
            }
            let tricky = [#"[1,"a]b",{"id":"x","s":"}\""}, [[]] ,null]"#, #"[ {"id":"a"} , {"id":"b"} ]"#, "[1]"]
            for text in tricky {
                let whole = try MarketsDecoder.decode(Data(text.utf8), offsetBase: 0)
                XCTAssertEqual(try MarketsDecoder.decode(Data(text.utf8), offsetBase: 0, piecewiseAbove: 0, pieceBytes: 1), whole, text)
            }
            // Rows longer than the row scanner's 64-byte blocks: brackets, quotes and escapes inside
            // strings at every offset from a block's start, strings open across a block's end, nesting.
            for pad in 0..<70 {
                let fill = String(repeating: "a", count: pad)
                let nest = String(repeating: "[", count: pad) + String(repeating: "]", count: pad)
                let text = #"[{"id":"x\#(fill)","s":"}]{[\"\\","roi":{"times":1,"t":[{"u":"]}"},[[]]]},"name":"\#(fill)[{\"}"},"#
                    + #" {"id":"y","z":[\#(nest)],"w":"\\\#(fill)\\"}, "\#(fill)]}", [\#(nest)]]"#
                let whole = try MarketsDecoder.decode(Data(text.utf8), offsetBase: 0)
                XCTAssertEqual(whole.coins.count, 2, text)
                XCTAssertEqual(try MarketsDecoder.decode(Data(text.utf8), offsetBase: 0, piecewiseAbove: 0, pieceBytes: 1), whole, text)
            }
            for depth in [100, 1000] {
                let text = #"[{"id":"d","n":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}]"
                let whole = try? MarketsDecoder.decode(Data(text.utf8), offsetBase: 0)
                XCTAssertEqual(try? MarketsDecoder.decode(Data(text.utf8), offsetBase: 0, piecewiseAbove: 0, pieceBytes: 1), whole)
                XCTAssertEqual(whole == nil, depth > 512)
            }
            for text in ["[1,]", "[{\"id\":\"a\"} x]", "[1] 2", "[{\"id\":\"a\",}]", "[\"a", "[[[", "[01]"] {
                XCTAssertThrowsError(try MarketsDecoder.decode(Data(text.utf8), offsetBase: 0, piecewiseAbove: 0, pieceBytes: 1), text) {
                    XCTAssertEqual(($0 as? CoinfolioError)?.code, .invalidArgument, text)
                }
            }
        }

        /// Differential: thousands of one- or two-byte mutations of a small body; the decoder refuses
        /// exactly the bodies the strict check (the one every JSON entry point runs, plus Foundation's
        /// parser) refuses.
        func testRefusesExactlyWhatTheStrictCheckRefuses() throws {
            var disagreements: [String] = []
            for body in mutatedMarketsBodies(4000) {
                let data = Data(body)
                let strict =
                    (try? CoinGeckoBody.prepared(data)) != nil
                    && (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
                var refused = false
                do { _ = try CoinGeckoBody.markets(data) } catch let error as CoinfolioError { refused = error.code == .invalidArgument }
                if refused == strict { disagreements.append(String(decoding: body, as: UTF8.self)) }
            }
            XCTAssertEqual(Array(disagreements.prefix(5)), [], "\(disagreements.count) disagreements")
        }

        /// One list of a coin's keys (`Coin.JSONKey`): the scanner's key table (C++) must know every
        /// one. A coin with every field set to a distinct value, written by `Coin.writeJSON` and read
        /// back by the decoder, comes back equal; and the decoder's field names are exactly those keys.
        func testTheScannerKnowsEveryKeyOfCoin() throws {
            var coin = Coin(id: "every-key", symbol: "ek", name: "Every Key")
            coin.image = "https://example.org/i.png"
            coin.athDate = "2021-11-10T14:24:11.849Z"
            coin.atlDate = "2013-07-06T00:00:00.000Z"
            coin.lastUpdated = "2024-12-19T10:44:55.946Z"
            coin.roi = Coin.ROI(times: 1.25, currency: "usd", percentage: 125.5)
            coin.sparklineIn7d = [1.5, .nan, 2.5]
            let doubles: [WritableKeyPath<Coin, Double?>] = [
                \.currentPrice, \.marketCap, \.fullyDilutedValuation, \.totalVolume, \.high24h, \.low24h, \.priceChange24h,
                \.priceChangePercentage24h, \.marketCapChange24h, \.marketCapChangePercentage24h, \.circulatingSupply,
                \.totalSupply, \.maxSupply, \.ath, \.athChangePercentage, \.atl, \.atlChangePercentage,
            ]
            for (n, path) in doubles.enumerated() { coin[keyPath: path] = Double(n) + 0.5 }
            coin.marketCapRank = 7
            for (n, window) in Coin.ChangeWindow.allCases.enumerated() { coin.priceChangePercentageInCurrency[window] = -Double(n) - 0.25 }
            var w = JSONWriter()
            w.beginArray(); w.beginObject(); coin.writeJSON(to: &w); w.endObject(); w.endArray()
            let decoded = try XCTUnwrap(CoinGeckoBody.markets(Data(w.bytes)).coins.first)
            XCTAssertEqual(decoded, coin)
            let known = Set(MarketsDecoder.numberKeys + MarketsDecoder.stringKeys + ["roi", "sparkline_in_7d"])
            let model = Set(Coin.JSONKey.allCases.map(\.rawValue) + Coin.ROI.JSONKey.allCases.map { "roi.\($0.rawValue)" })
            XCTAssertEqual(known, model)
        }

        /// The scanner's key list (the X-macro `CF_SJ_COIN_FIELDS` of CSimdJSON.h, from which its
        /// records and key table are made) is `Coin.JSONKey`, in order: one list, two languages.
        func testTheScannersKeyListIsCoinJSONKey() {
            let scanner = (0..<Int(CF_SJ_KEY_COUNT)).map { String(cString: cf_sj_coin_key(Int32($0))) }
            XCTAssertEqual(scanner, Coin.JSONKey.allCases.map(\.rawValue), "CF_SJ_COIN_FIELDS in CSimdJSON.h is Coin.JSONKey")
            XCTAssertNil(cf_sj_coin_key(Int32(CF_SJ_KEY_COUNT)))
            XCTAssertEqual(MarketsDecoder.windows.map(\.0), Coin.ChangeWindow.allCases, "every change window is a scanned field")
            for (window, field) in MarketsDecoder.windows {
                XCTAssertEqual(MarketsDecoder.numberKeys[field], window.jsonKey.rawValue, "the field of \(window)")
            }
            XCTAssertEqual(MarketsDecoder.numberKeys.suffix(2), ["roi.times", "roi.percentage"])
            // `Coin.Numbers(record:)` reads the first eighteen in this order.
            XCTAssertEqual(
                Array(MarketsDecoder.numberKeys.prefix(18)),
                [
                    "current_price", "market_cap", "market_cap_rank", "fully_diluted_valuation", "total_volume", "high_24h", "low_24h",
                    "price_change_24h", "price_change_percentage_24h", "market_cap_change_24h", "market_cap_change_percentage_24h",
                    "circulating_supply", "total_supply", "max_supply", "ath", "ath_change_percentage", "atl", "atl_change_percentage",
                ])
            XCTAssertTrue(MarketsDecoder.recordIsNumbersOrder)
            XCTAssertEqual(MarketsDecoder.stringKeys.last, "roi.currency")
        }

        /// A client call's decoding stops at its deadline (harden's `DecodeDeadline`), in one piece
        /// and piece by piece; outside a call there is none.
        func testDecodingStopsAtADeadline() throws {
            let body = try Repository.fixture("markets.json")
            for pieceBytes in [0, 2000] {
                do {
                    _ = try DecodeDeadline.$current.withValue(.now() - 1) {
                        try pieceBytes == 0
                            ? CoinGeckoBody.markets(body)
                            : MarketsDecoder.decode(body, offsetBase: 0, piecewiseAbove: 0, pieceBytes: pieceBytes)
                    }
                    XCTFail("decoded past the deadline")
                } catch let error as CoinfolioError {
                    XCTAssertEqual(error.code, .network)
                    XCTAssertEqual(error.details["reason"], .string("deadline"))
                } catch is DecodeDeadline.Passed {
                    XCTAssertNotEqual(pieceBytes, 0, "CoinGeckoBody.markets maps it to the network error")
                }
            }
            XCTAssertNoThrow(try CoinGeckoBody.markets(body))
        }

        /// The two implementations of SPEC §2/§10's rules agree: the one-pass decoder and the
        /// Foundation decoder (`marketsWithFoundation`) give the same coins, skips and warnings.
        func testAgreesWithTheFoundationDecoderOnEveryRule() throws {
            let bodies = [
                #"[{"id":"a","symbol":"a","name":"A","current_price":"0.0421","market_cap":"-1.5","total_supply":"4.2e17","high_24h":"12abc","#
                    + #""low_24h":"","ath":" 1","atl":"NaN","max_supply":"Infinity","total_volume":"0x10","market_cap_rank":true,"image":42,"roi":[1]}]"#,
                #"[{"id":"a","market_cap_rank":1.5,"sparkline_in_7d":{"price":[1,"x",true,null,"2"]}},{"id":"b","sparkline_in_7d":{"price":{}}},"#
                    + #"{"id":"c","sparkline_in_7d":[]},{"id":"d","sparkline_in_7d":{"price":null}},{"id":"e","current_price":"?"},{"id":"e"}]"#,
                #"[null,42,"x",[1],{"symbol":"x"},{"id":5},{"id":"a/b"},{"id":""},{"id":"ok","symbol":7,"name":null,"roi":{"times":"2","currency":3}}]"#,
                #"[{"id":"r","market_cap_rank":0},{"id":"s","market_cap_rank":-3},{"id":"t","market_cap_rank":1e16},{"id":"u","market_cap_rank":"7"}]"#,
            ]
            for body in bodies {
                let fast = try markets(body)
                let reference = try CoinGeckoBody.marketsWithFoundation(Data(body.utf8))
                XCTAssertEqual(fast.coins, reference.coins, body)
                XCTAssertEqual(fast.skipped.map(\.index), reference.skipped.map(\.index), body)
                XCTAssertEqual(fast.warnings, reference.warnings, body)
            }
        }

        func testSparklinesStayUndecodedUntilRead() throws {
            let page = try CoinGeckoBody.markets(Repository.fixture("markets.json"))
            let bitcoin = try XCTUnwrap(page.coins.first { $0.id == "bitcoin" })
            XCTAssertEqual(bitcoin.sparkline?.isUndecoded, true)
            XCTAssertEqual(bitcoin.sparklineIn7d?.count, 170)
            // The raw text round-trips: a sparkline made from it reads the same points.
            let raw = try XCTUnwrap(bitcoin.sparkline?.jsonUTF8)
            XCTAssertEqual(raw.first, UInt8(ascii: "["))
            XCTAssertEqual(Sparkline(json: raw)?.prices, bitcoin.sparklineIn7d)
            XCTAssertNil(Sparkline(json: Array("[1,]".utf8)))
            XCTAssertNil(Sparkline(json: Array("{}".utf8)))
            // Points that are null or not numbers are gaps (NaN); a string that is a number counts.
            let coin = try XCTUnwrap(
                markets(#"[{"id":"a","symbol":"a","name":"A","sparkline_in_7d":{"price":[1.5,null,"2.25",true,{"x":[]},-0.0]}}]"#)
                    .coins.first)
            let prices = try XCTUnwrap(coin.sparklineIn7d)
            XCTAssertEqual(prices.count, 6)
            XCTAssertEqual(prices[0], 1.5)
            XCTAssertTrue(prices[1].isNaN)
            XCTAssertEqual(prices[2], 2.25)
            XCTAssertTrue(prices[3].isNaN)
            XCTAssertTrue(prices[4].isNaN)
            XCTAssertEqual(prices[5].bitPattern, (-0.0).bitPattern)
            // Setting values keeps them as values.
            var copy = coin
            copy.sparklineIn7d = [1, 2]
            XCTAssertEqual(copy.sparkline?.isUndecoded, false)
            XCTAssertEqual(copy.sparklineIn7d, [1, 2])
        }

        func testNumbersSentAsStringsReadAsNumbersOtherStringsAsNullWithAWarning() throws {
            let page = try markets(
                #"[{"id":"a","symbol":"a","name":"A","current_price":"0.0421","market_cap":"-1.5","total_supply":"4.2e17","#
                    + #""high_24h":"12abc","low_24h":"","ath":" 1","atl":"NaN","max_supply":"Infinity","total_volume":"0x10","#
                    + #""market_cap_rank":true,"image":42,"roi":[1]}]"#)
            let coin = try XCTUnwrap(page.coins.first)
            XCTAssertEqual(coin.currentPrice, 0.0421)
            XCTAssertEqual(coin.marketCap, -1.5)
            XCTAssertEqual(coin.totalSupply, 4.2e17)
            for value in [coin.high24h, coin.low24h, coin.ath, coin.atl, coin.maxSupply, coin.totalVolume] { XCTAssertNil(value) }
            XCTAssertNil(coin.marketCapRank)
            XCTAssertNil(coin.image)
            XCTAssertNil(coin.roi)
            XCTAssertEqual(
                Set(page.warnings.map(\.field)),
                ["high_24h", "low_24h", "ath", "atl", "max_supply", "total_volume", "market_cap_rank", "image", "roi"])
            XCTAssertEqual(
                page.warnings.first { $0.field == "high_24h" },
                DecodeWarning(index: 0, id: "a", field: "high_24h", reason: "not a number"))
            XCTAssertEqual(page.warnings.first { $0.field == "market_cap_rank" }?.reason, "not a number")
            XCTAssertEqual(page.warnings.first { $0.field == "image" }?.reason, "not a string")
            XCTAssertEqual(page.warnings.first { $0.field == "roi" }?.reason, "not an object")
            XCTAssertTrue(page.warnings.allSatisfy { $0.index == 0 && $0.id == "a" })
            // In the order the fields are read.
            XCTAssertEqual(
                page.warnings.map(\.field),
                ["image", "market_cap_rank", "total_volume", "high_24h", "low_24h", "max_supply", "ath", "atl", "roi"])
        }

        func testSparklineAndRankWarnings() throws {
            let page = try markets(
                #"[{"id":"a","market_cap_rank":1.5,"sparkline_in_7d":{"price":[1,"x",true,null,"2"]}},"#
                    + #"{"id":"b","sparkline_in_7d":{"price":{}}},{"id":"c","sparkline_in_7d":[]},{"id":"d","sparkline_in_7d":{"price":null}},"#
                    + #"{"id":"e","current_price":"?"},{"id":"e","current_price":2}]"#)
            let fields = page.warnings.map { "\($0.index!) \($0.field) \($0.reason)" }
            XCTAssertEqual(
                fields,
                [
                    "0 symbol missing", "0 name missing", "0 market_cap_rank not a whole number", "0 sparkline_in_7d.price[1] not a number",
                    "0 sparkline_in_7d.price[2] not a number", "1 symbol missing", "1 name missing", "1 sparkline_in_7d.price not an array",
                    "2 symbol missing", "2 name missing", "2 sparkline_in_7d not an object", "3 symbol missing", "3 name missing",
                    // The first "e" was replaced by the later row: its warnings go with it.
                    "5 symbol missing", "5 name missing",
                ])
            let a = try XCTUnwrap(page.coins.first)
            XCTAssertNil(a.marketCapRank)
            let prices = try XCTUnwrap(a.sparklineIn7d)
            XCTAssertEqual(prices.count, 5)
            XCTAssertEqual(prices[4], 2)
            XCTAssertTrue(prices[1].isNaN && prices[2].isNaN && prices[3].isNaN)
            XCTAssertNil(page.coins[1].sparklineIn7d)
            XCTAssertEqual(page.coins.last?.currentPrice, 2)
        }

        func testARowNeedsOnlyItsID() throws {
            let page = try markets(#"[{"id":"only-id","current_price":2},{"symbol":"x","name":"X"},{"id":"a/b"},{"id":5}]"#)
            XCTAssertEqual(page.coins.map(\.id), ["only-id"])
            XCTAssertEqual(page.coins.first?.symbol, "")
            XCTAssertEqual(page.coins.first?.name, "")
            XCTAssertEqual(page.coins.first?.currentPrice, 2)
            XCTAssertEqual(page.warnings.map(\.field), ["symbol", "name"])
            XCTAssertEqual(page.skipped.map(\.index), [1, 2, 3])
            XCTAssertEqual(page.skipped.map(\.reason)[0], "missing id")
            XCTAssertEqual(page.skipped.map(\.reason)[2], "id is not a string")
        }

        func testByteOrderMarkAndDuplicateIDsLaterWins() throws {
            let body = Data([0xEF, 0xBB, 0xBF]) + Data(#"[{"id":"a","symbol":"a","name":"1"},{"id":"a","symbol":"a","name":"2"}]"#.utf8)
            let page = try CoinGeckoBody.markets(body)
            XCTAssertEqual(page.coins.map(\.name), ["2"])
            XCTAssertEqual(page.skipped, [MarketsPage.Skipped(index: 0, reason: #"duplicate id "a": a later row replaces it"#)])
            XCTAssertEqual(page.elementCount, 2)
        }

        /// Bad JSON anywhere — in a field no model reads, inside a sparkline, in a key — is refused.
        func testStrictJSONEverywhereInTheBody() {
            let bad = [
                "[01]", "[1.]", "[-]", "[1e]", "[.5]", "[1,]", "[1 2]", "[tru]", "[nul]", "[\"\\x\"]", "[\"a\tb\"]", "[1]x", "[] []",
                "[\"\\ud800\"]", "[1e400]", "",
            ]
            let places = [
                "%@",
                #"[{"id":"a","symbol":"a","name":"A","extra":%@}]"#,
                #"[{"id":"a","symbol":"a","name":"A","sparkline_in_7d":{"price":%@}}]"#,
                #"[{"id":"a","symbol":"a","name":"A","roi":{"times":%@}}]"#,
            ]
            for place in places {
                for text in bad {
                    let body = place.replacingOccurrences(of: "%@", with: text)
                    assertThrows(.invalidArgument, "\(body)") { try markets(body) }
                }
            }
            for text in [
                #"[{"id":"a","current_price":01}]"#, #"[{"id":"a","current_price":1.}]"#, #"[{"id":"a","na\me":"x"}]"#,
                #"[{"id":"a","image":"\u12"}]"#, #"[{"id":"a",}]"#, #"[{"id":"a" "name":"x"}]"#, #"[{"id":"a","x":[1,]}]"#,
            ] {
                assertThrows(.invalidArgument, text) { try markets(text) }
            }
            // Valid oddities pass: escapes in keys, -0, exponents, empty containers, deep-but-allowed nesting.
            let fine = #"[{"i\u0064":"a","symbol":"a","name":"A","extra":[{},[],-0,1E+2,"\ud83d\ude00",true,false,null]}]"#
            XCTAssertEqual(try markets(fine).coins.map(\.id), ["a"])
            let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
            XCTAssertNoThrow(try markets(#"[{"id":"a","extra":"# + nested + "}]"))
        }

        /// Nesting a million levels deep is refused with a message, without recursion (no stack
        /// overflow), in a field nobody reads as well as at the top.
        func testDeepInputIsRefusedNotACrash() {
            let deep = String(repeating: "[", count: 1_000_000)
            assertThrows(.invalidArgument) { try markets(deep) }
            assertThrows(.invalidArgument) { try markets(#"[{"id":"a","extra":"# + deep + "}]") }
            let closed = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
            assertThrows(.invalidArgument) { try markets(#"[{"id":"a","extra":"# + closed + "}]") }
            assertThrows(.invalidArgument) { try markets(closed) }
        }

        func testNotAnArrayIsADecodeError() {
            assertThrows(.decode) { try markets("{}") }
            assertThrows(.decode) { try markets("42") }
            // ...but malformed JSON after the top level is still malformed.
            assertThrows(.invalidArgument) { try markets("{} x") }
            assertThrows(.invalidArgument) { try markets(#"{"a":01}"#) }
        }

        func testNotUTF8IsRefused() {
            let error = assertThrows(.invalidArgument) { try CoinGeckoBody.markets(Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])) }
            XCTAssertEqual(error?.details["reason"], .string("bad_utf8"))
        }
    }

    extension XCTestCase {
        @discardableResult
        fileprivate func assertThrows<T>(
            _ code: CoinfolioError.Code, _ label: String = "", file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
        ) -> CoinfolioError? {
            do {
                _ = try body()
                XCTFail("expected \(code.name), nothing thrown: \(label)", file: file, line: line)
            } catch let error as CoinfolioError {
                XCTAssertEqual(error.code, code, "\(label): \(error)", file: file, line: line)
                return error
            } catch {
                XCTFail("expected CoinfolioError \(code.name), got \(error)", file: file, line: line)
            }
            return nil
        }
    }
#endif  // SimdJSON
