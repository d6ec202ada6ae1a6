import Foundation

/// The one strict JSON reader (RFC 8259) every JSON input passes through: a cursor over UTF-8
/// bytes with the grammar written once — whitespace, string unescaping, the number grammar and
/// its conversion, literals, and whole values walked without recursion.
///
/// Everything built on it refuses the same inputs with the same reasons: any syntax error
/// (`malformed_json`: a trailing comma, a raw control character in a string, `01`, `1.`, `-`,
/// `"\x"`, text after the value), a surrogate escape outside a high-low pair (`lone_surrogate`:
/// not a Unicode character), a number beyond ±1.8e308 (`number_out_of_range`) and nesting deeper
/// than 512 arrays and objects (`too_deep`) — wherever they stand, in values nobody reads too.
/// Each error names the byte offset (`details["offset"]`). A key given twice in one object: the
/// later member wins, in every reader built on this one (`JSONValue`, `FlatJSONObject`,
/// `ChartJSONReader`) as in the simdjson markets decoder.
///
/// The bytes must be UTF-8 (`JSONSyntax.checkUTF8` checks bodies from outside first; a Swift
/// `String` always is).
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var index = 0
    /// Added to offsets in messages (bytes dropped before `bytes`, e.g. a BOM).
    let offsetBase: Int

    /// The deepest nesting accepted (as Foundation's parser, and simdjson's walk here).
    static let maximumDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>, offsetBase: Int = 0) {
        self.bytes = bytes
        self.offsetBase = offsetBase
    }

    // MARK: - Failures

    /// The error for what was found at `offset` (default: here): `.invalidArgument` with
    /// `details["reason"]` and `details["offset"]`, the message naming the byte offset.
    func failure(_ what: String, at offset: Int? = nil, reason: CoinfolioError.Reason = .malformedJSON) -> CoinfolioError {
        let offset = (offset ?? index) + offsetBase
        let message: String
        switch reason {
        case .loneSurrogate:
            message = "JSON string at byte offset \(offset) has a lone surrogate escape (\(what)), which is not a Unicode character"
        case .numberOutOfRange:
            message = "JSON number at byte offset \(offset) is out of range: \(what) is beyond ±1.8e308"
        case .tooDeep:
            message = "malformed JSON: nested deeper than \(Self.maximumDepth) levels at byte offset \(offset)"
        default:
            message = "malformed JSON at byte offset \(offset): \(what)"
        }
        return CoinfolioError(.invalidArgument, message, reason: reason, details: [.offset: .number(Double(offset))])
    }

    /// The byte at `offset` for a message: `unexpected 'x'`, `unexpected byte 0x1F`, or
    /// `the text ends`.
    func describeByte(at offset: Int? = nil) -> String {
        let offset = offset ?? index
        guard offset < bytes.count else { return "the text ends" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "unexpected '\(Character(Unicode.Scalar(byte)))'" }
        return "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: - Whitespace and structure

    @inline(__always)
    mutating func skipSpace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    /// The next byte after whitespace (not consumed); nil at the end.
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Consumes `byte` after whitespace, or fails saying what stood there instead.
    mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws {
        guard peek() == byte else { throw failure("\(describeByte()), expected \(what())") }
        index += 1
    }

    /// After an element or member of an open container: consumes `,` (true: another follows)
    /// or the container's close (false). A `,` right before the close is a trailing comma.
    mutating func nextInContainer(object: Bool) throws -> Bool {
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        guard let byte = peek() else { throw failure("the text ends inside an \(object ? "object" : "array")") }
        if byte == close {
            index += 1
            return false
        }
        guard byte == UInt8(ascii: ",") else { throw failure("\(describeByte()), expected ',' or '\(object ? "}" : "]")'") }
        index += 1
        if peek() == close { throw failure("trailing comma before '\(object ? "}" : "]")'") }
        return true
    }

    /// A member name and its colon, inside an object.
    mutating func memberName() throws -> String {
        guard let byte = peek() else { throw failure("the text ends where an object member name must be") }
        guard byte == UInt8(ascii: "\"") else {
            throw failure("\(describeByte()) where an object member name (a string) must be")
        }
        let name = try string()
        try expect(UInt8(ascii: ":"), "':' after the member name")
        return name
    }

    /// Only whitespace may follow the top-level value.
    mutating func end() throws {
        skipSpace()
        if index < bytes.count { throw failure("\(describeByte()) after the JSON value") }
    }

    /// The whole text as one JSON value read by `body`, then nothing but whitespace.
    mutating func document<T>(_ body: (inout JSONReader) throws -> T) throws -> T {
        if peek() == nil { throw failure("no JSON value (empty input)") }
        let value = try body(&self)
        try end()
        return value
    }

    // MARK: - Literals

    mutating func literal(_ word: StaticString) throws {
        let start = index
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("not a JSON literal (expected \"\(word)\")", at: start) }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("not a JSON literal (expected \"\(word)\")", at: start)
        }
        index += count
    }

    // MARK: - Strings

    /// The string at `index` (its opening quote), escapes decoded.
    mutating func string() throws -> String {
        var unescaped: [UInt8] = []
        if let plain = try scanString(unescapingInto: &unescaped) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[plain]), as: UTF8.self)
        }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// The string at `index`, checked but not kept.
    mutating func skipString() throws {
        var ignored: [UInt8] = []
        _ = try scanString(unescapingInto: &ignored, keep: false)
    }

    /// Reads a string at `index`. Without escapes, returns the byte range of its content (nothing
    /// is copied); with escapes, returns nil and leaves the decoded bytes in `out` (when `keep`).
    private mutating func scanString(unescapingInto out: inout [UInt8], keep: Bool = true) throws -> Range<Int>? {
        let start = index
        index += 1
        var runStart = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                if !escaped { return runStart..<index - 1 }
                if keep { out.append(contentsOf: bytes[runStart..<index - 1]) }
                return nil
            }
            if byte < 0x20 {
                throw failure(
                    "a raw control character (byte 0x\(String(byte, radix: 16, uppercase: true))) inside a string; it must be escaped")
            }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if keep { out.append(contentsOf: bytes[runStart..<index]) }
            escaped = true
            guard try escape(into: &out, keep: keep) else { break }
            runStart = index
        }
        throw failure("a string that starts at byte offset \(start + offsetBase) never ends", at: start)
    }

    /// One escape at `index` (its backslash), decoded into `out`; false when the text ends first.
    private mutating func escape(into out: inout [UInt8], keep: Bool) throws -> Bool {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { return false }
        let letter = bytes[index]
        index += 1
        let simple: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = letter
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { throw failure("\\u must be followed by 4 hex digits", at: escapeStart) }
            var scalar = unit
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw failure(String(format: "\\u%04x", unit), at: escapeStart, reason: .loneSurrogate)
            }
            if unit >= 0xD800 && unit <= 0xDBFF {
                // A high surrogate must be followed at once by a low one.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure(String(format: "\\u%04x", unit), at: escapeStart, reason: .loneSurrogate)
                }
                let save = index
                index += 2
                guard let low = hex4(), low >= 0xDC00 && low <= 0xDFFF else {
                    index = save
                    throw failure(String(format: "\\u%04x", unit), at: escapeStart, reason: .loneSurrogate)
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            if keep { Self.appendUTF8(scalar, to: &out) }
            return true
        default:
            throw failure(
                "invalid escape '\\\(describeByte(at: index - 1).replacingOccurrences(of: "unexpected ", with: ""))' in a string",
                at: escapeStart)
        }
        if keep { out.append(simple) }
        return true
    }

    /// `scalar` (a Unicode scalar value: no surrogate, at most 0x10FFFF) in UTF-8.
    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Four hex digits at `index`; nil (not moving) when they are not.
    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte &- 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte &- 0x57)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte &- 0x37)
            default: return nil
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }
}
