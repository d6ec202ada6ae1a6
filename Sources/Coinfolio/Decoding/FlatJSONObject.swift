/// A JSON object whose members a caller reads one by one, parsed in one strict pass (RFC 8259)
/// without Foundation: the ledger's transaction input, which is written on every
/// `add_transaction` and whose numbers must be read from their decimal text, never through a
/// binary double.
///
/// Scalars are kept (strings decoded, numbers as their text), and so are the scalar members of an
/// object that is a member of the top level (a trade's `"sent":{…}`); deeper objects and arrays
/// are checked and kept only as `.nested`. Malformed JSON, bytes that are not UTF-8, a top level that
/// is not an object and nesting deeper than 512 levels are `.invalidArgument`.
struct FlatJSONObject {
    /// A member's value.
    enum Value: Equatable {
        case string(String)
        /// A JSON number, as its text (`-1.5e3`).
        case number(String)
        case bool(Bool)
        case null
        /// An object that is a member of the top-level object: its members, kept the same way.
        case object([String: Value])
        /// An array, or an object nested deeper (checked, not kept).
        case nested
    }

    /// Members by key; a key given twice keeps its last value.
    private(set) var members: [String: Value] = [:]

    subscript(key: String) -> Value? { members[key] }

    static let maximumDepth = 512

    /// Parses `bytes`. - Throws: `.invalidArgument` ("malformed JSON: … at offset n").
    init(_ bytes: [UInt8]) throws {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        guard parser.peek() == UInt8(ascii: "{") else {
            throw parser.failure(parser.peek() == nil ? "empty input" : "expected a JSON object")
        }
        members = try parser.object(depth: 1, keep: true)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("text after the object") }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func failure(_ what: String) -> CoinfolioError {
            CoinfolioError(
                .invalidArgument, "malformed JSON: \(what) at offset \(index)", details: ["reason": .string("malformed_json")])
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func expect(_ byte: UInt8) throws {
            guard peek() == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
            index += 1
        }

        /// `{…}` at `index`; the members when `keep`.
        mutating func object(depth: Int, keep: Bool) throws -> [String: Value] {
            guard depth <= FlatJSONObject.maximumDepth else { throw failure("nesting deeper than \(FlatJSONObject.maximumDepth)") }
            try expect(UInt8(ascii: "{"))
            var result: [String: Value] = [:]
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                index += 1
                return result
            }
            while true {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key") }
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                let value = try self.value(depth: depth)
                if keep { result[key] = value }
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"))
                return result
            }
        }

        mutating func array(depth: Int) throws {
            guard depth <= FlatJSONObject.maximumDepth else { throw failure("nesting deeper than \(FlatJSONObject.maximumDepth)") }
            try expect(UInt8(ascii: "["))
            skipSpace()
            if peek() == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipSpace()
                _ = try value(depth: depth)
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"))
                return
            }
        }

        mutating func value(depth: Int) throws -> Value {
            guard let first = peek() else { throw failure("expected a value") }
            switch first {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "{"):
                let members = try object(depth: depth + 1, keep: depth == 1)
                return depth == 1 ? .object(members) : .nested
            case UInt8(ascii: "["):
                try array(depth: depth + 1)
                return .nested
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw failure("expected a value")
            }
        }

        mutating func literal(_ word: String) throws {
            for byte in word.utf8 {
                guard peek() == byte else { throw failure("expected \(word)") }
                index += 1
            }
        }

        /// RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() throws -> String {
            let start = index
            func digits() throws {
                guard let byte = peek(), byte >= 0x30, byte <= 0x39 else { throw failure("expected a digit") }
                while let byte = peek(), byte >= 0x30, byte <= 0x39 { index += 1 }
            }
            if peek() == UInt8(ascii: "-") { index += 1 }
            if peek() == UInt8(ascii: "0") {
                index += 1
            } else {
                try digits()
            }
            if peek() == UInt8(ascii: ".") {
                index += 1
                try digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                index += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
                try digits()
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A string at `index` (the opening quote), escapes decoded, UTF-8 checked.
        mutating func string() throws -> String {
            try expect(UInt8(ascii: "\""))
            var out: [UInt8] = []
            var start = index
            while true {
                guard let byte = peek() else { throw failure("unterminated string") }
                if byte == UInt8(ascii: "\"") {
                    out.append(contentsOf: bytes[start..<index])
                    index += 1
                    break
                }
                if byte < 0x20 { throw failure("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                out.append(contentsOf: bytes[start..<index])
                index += 1
                guard let escape = peek() else { throw failure("unterminated escape") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        // A high surrogate must be followed by a low one.
                        guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw failure("lone surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw failure("lone surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw failure("bad escape")
                }
                start = index
            }
            guard let text = String(validating: out, as: UTF8.self) else {
                throw CoinfolioError(.invalidArgument, "a string is not valid UTF-8", details: ["reason": .string("bad_utf8")])
            }
            return text
        }

        mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek() else { throw failure("short \\u escape") }
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
                default: throw failure("bad \\u escape")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }
    }
}
