/// The strict JSON check every JSON input passes before it is decoded: RFC 8259 exactly.
///
/// Foundation's parser on Linux accepts things RFC 8259 does not (a trailing comma, a second byte
/// order mark), and the tolerant decoders above it never look at values they skip, so a bad token
/// there (`[01]`, a raw TAB inside a string, `1.`, `-`, `"\x"`) would otherwise pass with `CF_OK`.
/// This one linear pass, without allocation, refuses all of them and names the byte offset.
/// Beyond the grammar it also refuses what no reader here can represent: a lone surrogate escape
/// (`\ud800`, not a Unicode character), a number outside the range of a double (`1e400`) and
/// nesting deeper than 512 levels — each with a message that says which.
enum JSONSyntax {
    /// Checks that the bytes are UTF-8 (Foundation would otherwise guess UTF-16 from a leading
    /// `FF FE`). Nearly every body is ASCII: that is checked first, fast.
    ///
    /// - Throws: `.invalidArgument` (`details["reason"]` `"bad_utf8"`) when the bytes are not UTF-8.
    static func checkUTF8(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return }
        guard String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil else {
            throw CoinfolioError(.invalidArgument, "the body is not valid UTF-8", reason: .badUTF8)
        }
    }

    /// The deepest nesting accepted (Foundation's parser refuses deeper).
    static let maximumDepth = 512

    /// Checks that `bytes` is exactly one JSON text (RFC 8259), surrounded by optional whitespace.
    ///
    /// - Parameter offsetBase: added to offsets in messages (bytes dropped before, e.g. a BOM).
    /// - Throws: `.invalidArgument` with `details.reason` `"malformed_json"` (message: "malformed
    ///   JSON at byte offset N: …"), `"lone_surrogate"`, `"number_out_of_range"` or `"too_deep"`,
    ///   and `details.offset` = N.
    static func checkStrict(_ bytes: UnsafeRawBufferPointer, offsetBase: Int = 0) throws {
        var scanner = Scanner(bytes: bytes.bindMemory(to: UInt8.self))
        if let failure = scanner.validate() {
            let offset = failure.offset + offsetBase
            let message: String
            switch failure.reason {
            case .loneSurrogate:
                message =
                    "JSON string at byte offset \(offset) has a lone surrogate escape (\(failure.what)), which is not a Unicode character"
            case .numberOutOfRange:
                message = "JSON number at byte offset \(offset) is out of range: \(failure.what) is beyond ±1.8e308"
            case .tooDeep:
                message = "malformed JSON: nested deeper than \(maximumDepth) levels at byte offset \(offset)"
            default:
                message = "malformed JSON at byte offset \(offset): \(failure.what)"
            }
            throw CoinfolioError(
                .invalidArgument, message,
                reason: failure.reason, details: ["offset": .number(Double(offset))])
        }
    }

    /// `true` when `bytes` pass `checkStrict` (for tests and the fuzz oracle).
    static func isStrictJSON(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = Scanner(bytes: bytes.bindMemory(to: UInt8.self))
        return scanner.validate() == nil
    }

    struct Failure: Equatable {
        var offset: Int
        var reason: CoinfolioError.Reason
        var what: String
    }

    /// An iterative recursive-descent recognizer: a small stack of open containers, no recursion.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Open containers, innermost last: true for an object.
        var stack: [Bool] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        private func fail(_ what: String, at offset: Int? = nil, reason: CoinfolioError.Reason = .malformedJSON) -> Failure {
            Failure(offset: offset ?? index, reason: reason, what: what)
        }

        private func describeByte(at offset: Int) -> String {
            guard offset < bytes.count else { return "the text ends" }
            let byte = bytes[offset]
            if byte >= 0x21 && byte < 0x7F { return "unexpected '\(Character(Unicode.Scalar(byte)))'" }
            return "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index += 1
            }
        }

        mutating func validate() -> Failure? {
            skipSpace()
            if index >= bytes.count { return fail("no JSON value (empty input)") }
            // After a value: expect ',' or the container's close; at top level, only whitespace.
            while true {
                // Parse one value at `index`.
                skipSpace()
                guard index < bytes.count else { return fail("expected a value but the text ends") }
                switch bytes[index] {
                case UInt8(ascii: "{"):
                    if let failure = open(object: true) { return failure }
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        stack.removeLast()
                        break
                    }
                    if let failure = memberName() { return failure }
                    continue
                case UInt8(ascii: "["):
                    if let failure = open(object: false) { return failure }
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        stack.removeLast()
                        break
                    }
                    continue
                case UInt8(ascii: "\""):
                    if let failure = string() { return failure }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let failure = number() { return failure }
                case UInt8(ascii: "t"):
                    if let failure = literal("true") { return failure }
                case UInt8(ascii: "f"):
                    if let failure = literal("false") { return failure }
                case UInt8(ascii: "n"):
                    if let failure = literal("null") { return failure }
                default:
                    return fail("\(describeByte(at: index)) where a value must start")
                }
                // A value ended: close containers while their close follows, or take a comma.
                while true {
                    skipSpace()
                    guard let isObject = stack.last else {
                        if index < bytes.count { return fail("\(describeByte(at: index)) after the JSON value") }
                        return nil
                    }
                    guard index < bytes.count else {
                        return fail("the text ends inside an \(isObject ? "object" : "array")")
                    }
                    let byte = bytes[index]
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        if isObject, let failure = memberName() { return failure }
                        if !isObject {
                            skipSpace()
                            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                                return fail("trailing comma before ']'", at: index)
                            }
                        }
                        break
                    }
                    if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        stack.removeLast()
                        continue
                    }
                    return fail("\(describeByte(at: index)), expected ',' or '\(isObject ? "}" : "]")'")
                }
            }
        }

        private mutating func open(object: Bool) -> Failure? {
            if stack.count >= JSONSyntax.maximumDepth { return fail("too deep", reason: .tooDeep) }
            stack.append(object)
            index += 1
            return nil
        }

        /// `"name"` then `:`, inside an object.
        private mutating func memberName() -> Failure? {
            skipSpace()
            guard index < bytes.count else { return fail("the text ends where an object member name must be") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { return fail("trailing comma before '}'") }
                return fail("\(describeByte(at: index)) where an object member name (a string) must be")
            }
            if let failure = string() { return failure }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                return fail("\(describeByte(at: index)), expected ':' after the member name")
            }
            index += 1
            return nil
        }

        private mutating func literal(_ word: StaticString) -> Failure? {
            let start = index
            let count = word.utf8CodeUnitCount
            let text = word.utf8Start
            for offset in 0..<count {
                guard index < bytes.count, bytes[index] == text[offset] else {
                    return fail("not a JSON literal (expected \"\(word)\")", at: start)
                }
                index += 1
            }
            return nil
        }

        private func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }

        /// Four hex digits after `\u` at `index`; nil when they are not.
        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = hexValue(bytes[index + offset]) else { return nil }
                value = value << 4 | digit
            }
            index += 4
            return value
        }

        private mutating func string() -> Failure? {
            let start = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return nil
                }
                if byte < 0x20 {
                    return fail(
                        "a raw control character (byte 0x\(String(byte, radix: 16, uppercase: true))) inside a string; it must be escaped")
                }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                let escapeStart = index
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    guard let unit = hex4() else { return fail("\\u must be followed by 4 hex digits", at: escapeStart) }
                    if unit >= 0xDC00 && unit <= 0xDFFF {
                        return fail(String(format: "\\u%04x", unit), at: escapeStart, reason: .loneSurrogate)
                    }
                    if unit >= 0xD800 && unit <= 0xDBFF {
                        // A high surrogate must be followed at once by a low one.
                        let save = index
                        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            index += 2
                            if let low = hex4(), low >= 0xDC00 && low <= 0xDFFF { continue }
                        }
                        index = save
                        return fail(String(format: "\\u%04x", unit), at: escapeStart, reason: .loneSurrogate)
                    }
                default:
                    return fail(
                        "invalid escape '\\\(describeByte(at: index).replacingOccurrences(of: "unexpected ", with: ""))' in a string",
                        at: escapeStart)
                }
            }
            return fail("a string that starts at byte offset \(start) never ends", at: start)
        }

        private func isDigit(_ offset: Int) -> Bool {
            offset < bytes.count && bytes[offset] >= UInt8(ascii: "0") && bytes[offset] <= UInt8(ascii: "9")
        }

        private mutating func number() -> Failure? {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return fail("a '-' must be followed by a digit", at: start) }
            var integerDigits = 0
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if isDigit(index) { return fail("a number may not have a leading zero", at: start) }
                integerDigits = 1
            } else {
                while isDigit(index) {
                    index += 1
                    integerDigits += 1
                }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { return fail("a '.' in a number must be followed by a digit", at: start) }
                while isDigit(index) { index += 1 }
            }
            var exponent = 0
            var hasExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                hasExponent = true
                index += 1
                var negative = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    negative = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                guard isDigit(index) else { return fail("an exponent must have digits", at: start) }
                while isDigit(index) {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                    index += 1
                }
                if negative { exponent = -exponent }
            }
            // Only a number whose magnitude might pass 1.8e308 is converted to be sure.
            if integerDigits + (hasExponent ? exponent : 0) > 308 {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                if let value = Double(text), value.isFinite { return nil }
                let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
                return fail(shown, at: start, reason: .numberOutOfRange)
            }
            return nil
        }
    }
}
