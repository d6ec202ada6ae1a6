import XCTest

@testable import Coinfolio

/// `FlatJSONObject` reads a ledger input in one pass over its bytes (issue 24: `add_trade`'s own
/// work). It must read exactly what the tree reader it replaced read: the whole text through
/// `JSONValue`, then the members by key with later ones replacing earlier. The oracle below is that
/// reader; every input here (duplicate keys, escapes in keys and values, numbers as strings and as
/// numbers, bad UTF-8, nesting, every prefix of a trade, seeded mutations) gives the same members,
/// or the same error (status, message, reason, offset), from both.
final class FlatJSONObjectTests: XCTestCase {
    /// A member's value with objects as dictionaries (later members replacing earlier ones).
    private indirect enum Read: Equatable {
        case string(String), number(String), bool(Bool), null, nested
        case object([String: Read])
    }

    /// The reader `FlatJSONObject` replaced: the tree, then members by key, one level of objects.
    private func oracle(_ bytes: [UInt8]) throws -> [String: Read] {
        let value = try bytes.withUnsafeBufferPointer { buffer in
            try JSONSyntax.checkUTF8(UnsafeRawBufferPointer(buffer))
            return try JSONValue.parse(buffer)
        }
        guard case .object(let members) = value else { throw CoinfolioError.invalid("expected a JSON object") }
        return kept(members, keepingObjects: true)
    }

    private func kept(_ members: [JSONValue.Member], keepingObjects: Bool) -> [String: Read] {
        var result: [String: Read] = [:]
        for member in members {
            switch member.value {
            case .string(let text): result[member.key] = .string(text)
            case .number(let text): result[member.key] = .number(text)
            case .bool(let flag): result[member.key] = .bool(flag)
            case .null: result[member.key] = .null
            case .object(let inner) where keepingObjects: result[member.key] = .object(kept(inner, keepingObjects: false))
            case .array, .object: result[member.key] = .nested
            }
        }
        return result
    }

    /// The new reader's members the same way, each key read through `subscript` (the later value).
    private func read(_ object: FlatJSONObject) -> [String: Read] {
        var result: [String: Read] = [:]
        for member in object.list {
            guard let value = object[member.key] else { continue }
            switch value {
            case .string(let text): result[member.key] = .string(text)
            case .number(let text): result[member.key] = .number(text)
            case .bool(let flag): result[member.key] = .bool(flag)
            case .null: result[member.key] = .null
            case .object(let inner): result[member.key] = .object(read(inner))
            case .nested: result[member.key] = .nested
            }
        }
        return result
    }

    /// Both readers on `bytes` (as bytes, and as a String where the bytes are UTF-8): the same
    /// members or the same error.
    private func assertSame(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let label = String(decoding: bytes.prefix(200), as: UTF8.self)
        let expected = Result { try oracle(bytes) }
        var results = [Result { try read(FlatJSONObject(bytes)) }]
        if let text = String(validating: bytes, as: UTF8.self) { results.append(Result { try read(FlatJSONObject(text)) }) }
        for result in results {
            switch (expected, result) {
            case (.success(let old), .success(let new)):
                XCTAssertEqual(new, old, label, file: file, line: line)
            case (.failure(let old as CoinfolioError), .failure(let new as CoinfolioError)):
                XCTAssertEqual(new, old, label, file: file, line: line)
            default:
                XCTFail("\(label): old \(expected), new \(result)", file: file, line: line)
            }
        }
    }

    private func assertSame(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertSame(Array(text.utf8), file: file, line: line)
    }

    private let trade =
        #"{"portfolio":"main","timestamp":"2024-01-01T00:00:00Z","sent":{"coin_id":"bitcoin","amount":0.5},"received":{"coin_id":"ethereum","amount":"10"},"value":30000.5,"fee":"1.25","fee_coin_id":"binancecoin","fee_price":310,"note":"swap \"x\"\n","external_id":"x-7"}"#

    /// Duplicate keys (top level, inside a side, a side given twice), escapes in keys and values,
    /// numbers as strings and as numbers, literals, nesting kept and not kept.
    func testEdgesReadAsTheTreeReaderReadThem() {
        let cases = [
            trade,
            #"{"value":1,"value":"2","value":null}"#,
            #"{"sent":{"coin_id":"a","coin_id":"b","amount":1},"sent":{"amount":2}}"#,
            #"{"sent":{"coin_id":"a"},"sent":[1,2]}"#,
            #"{"sent":[1,2],"sent":{"coin_id":"a"}}"#,
            #"{"co\u0069n_id":"bit\u0063oin","note":"\ud83d\ude00 \u00e9\t\/\\","a\"b":1}"#,
            #"{"K":1,"\u212a":2}"#,
            #"{"amount":-1.5e-3,"price":0,"fee":"0.1","x":1E+2,"y":true,"z":false,"w":null}"#,
            #"{"sent":{"coin_id":"a","deep":{"x":[1,{"y":2}]},"list":[]},"received":{}}"#,
            #"{}"#, #"  { "a" : 1 }  "#, "{\"a\":\"caf\u{e9}\",\"caf\u{e9}\":\"x\",\"cafe\u{301}\":\"y\"}",
            #"{"sent":{"sent":{"sent":{}}}}"#,
        ]
        for text in cases { assertSame(text) }
    }

    /// Malformed input, not an object, bad UTF-8, nesting at and past 512, numbers out of range,
    /// lone surrogates: the same error, reason and offset.
    func testRefusalsMatchTheTreeReader() {
        let deepest = String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let cases = [
            "", "   ", "[]", "1", #""x""#, "null", #"[{"a":1}"#, #"{"a":1,}"#, #"{"a":1"#, #"{"a" 1}"#, #"{"a":}"#, #"{a:1}"#,
            #"{"a":01}"#, #"{"a":1.}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":1e400}"#, #"{"sent":{"x":-1e999}}"#,
            #"{"a":"\x"}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800x"}"#, #"{"\ud800":1}"#, "{\"a\":\"\u{1}\"}", #"{"a":tru}"#,
            #"{"a":nul}"#, #"{"a":1} x"#, #"{"a":1}{}"#, #"{"a":[1,]}"#, #"{"sent":{"a":1,}}"#, #"{"sent":{"a" 1}}"#,
            #"{"sent":{"a":"#, #"{"a":@}"#, #"{"x":"# + deepest + "}", #"{"x":"# + deep + "}",
            #"{"sent":{"x":"# + deepest + "}}", #"{"sent":{"x":"# + String(deepest.dropFirst().dropLast()) + "}}",
            #"{"sent":{"x":{"y":"# + deep + "}}}",
        ]
        for text in cases { assertSame(text) }
        // Bytes that are not UTF-8, in a value, in a key, and after the object.
        for bytes: [UInt8] in [
            Array(#"{"note":""#.utf8) + [0xFF] + Array(#""}"#.utf8),
            Array(#"{""#.utf8) + [0xC3, 0x28] + Array(#"":1}"#.utf8),
            Array(#"{"a":1}"#.utf8) + [0x80],
            Array(#"{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
        ] {
            assertSame(bytes)
        }
    }

    /// Every prefix of a full trade (each place the text can end), and seeded single-byte
    /// changes of it: the same members or the same error.
    func testPrefixesAndMutationsOfATrade() {
        let bytes = Array(trade.utf8)
        for end in 0...bytes.count { assertSame(Array(bytes[..<end])) }
        var random = SplitMix64(seed: 24)
        let alphabet = Array(#"{}[]",:0123456789-+.eE\ntfalsenu \#t"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        for _ in 0..<3000 {
            var mutated = bytes
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = Int(random.next() % UInt64(mutated.count))
                switch random.next() % 3 {
                case 0: mutated[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: mutated.remove(at: at)
                default: mutated.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                }
            }
            assertSame(mutated)
        }
    }

    /// A trade read through the new reader: a side given twice is the later side whole, a number
    /// given as a string reads as the number, an escaped key is its key.
    func testATradeReadsTheLaterMembersAndEscapedKeys() throws {
        let trade = try Trade(
            json:
                #"{"sent":{"coin_id":"tether","amount":1},"sent":{"coin_id":"bitcoin","amount":"0.5"},"received":{"coin_\u0069d":"ethereum","amount":10,"amount":"12"},"value":1,"value":"30000"}"#
        )
        XCTAssertEqual(trade.sent, Trade.Side(coinID: "bitcoin", amount: ExactDecimal("0.5")!))
        XCTAssertEqual(trade.received, Trade.Side(coinID: "ethereum", amount: 12))
        XCTAssertEqual(trade.value, 30000)
        let error = assertThrows(.invalidArgument) {
            try Trade(json: #"{"sent":{"coin_id":"bitcoin","amount":1},"sent":{"amount":1},"received":{"coin_id":"ethereum","amount":1}}"#)
        }
        XCTAssertEqual(error?.details["field"], .string("sent.coin_id"))
    }
}
