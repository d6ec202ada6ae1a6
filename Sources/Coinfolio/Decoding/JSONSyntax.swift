/// Checks Foundation's JSON parser leaves to chance. On Linux it accepts a trailing comma
/// (`[1,]`, `{"a":1,}`) and a second byte order mark, neither of which RFC 8259 allows, and it
/// refuses nesting deeper than 512 levels with only "not valid JSON". Coinfolio promises
/// `.invalidArgument` with a clear message for malformed JSON, so these are found first.
enum JSONSyntax {
    /// Checks that the bytes are UTF-8 (Foundation would otherwise guess UTF-16 from a leading
    /// `FF FE`). Nearly every body is ASCII: that is checked first, fast.
    ///
    /// - Throws: `.invalidArgument` (`details["reason"]` `"bad_utf8"`) when the bytes are not UTF-8.
    static func checkUTF8(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return }
        guard String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil else {
            throw CoinfolioError(.invalidArgument, "the body is not valid UTF-8", details: ["reason": .string("bad_utf8")])
        }
    }

    /// The deepest nesting Foundation's parser accepts.
    static let maximumDepth = 512

    /// Checks what Foundation's parser lets through or words vaguely: a document that does not
    /// start with a JSON value, a trailing comma, nesting deeper than `maximumDepth`.
    ///
    /// - Throws: `.invalidArgument` naming the offset of the first trailing comma, of a document
    ///   that does not start with a JSON value, or of the bracket nested too deep
    ///   (`details["reason"]` `"malformed_json"` or `"too_deep"`).
    static func checkStrict(_ bytes: UnsafeRawBufferPointer) throws {
        var index = 0
        let count = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        while index < count, isSpace(bytes[index]) { index += 1 }
        if index < count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                break
            default:
                throw CoinfolioError(
                    .invalidArgument, "malformed JSON: unexpected byte at offset \(index)",
                    details: ["reason": .string("malformed_json")])
            }
        }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var pendingComma = -1
        var depth = 0
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                // Skip the string: to its closing quote, stepping over escapes.
                index += 1
                while index < count {
                    let inner = base[index]
                    if inner == UInt8(ascii: "\"") { break }
                    index += inner == UInt8(ascii: "\\") ? 2 : 1
                }
                pendingComma = -1
            } else if byte == UInt8(ascii: ",") {
                pendingComma = index
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
                pendingComma = -1
                if depth > maximumDepth {
                    throw CoinfolioError(
                        .invalidArgument, "malformed JSON: nested deeper than \(maximumDepth) levels at offset \(index)",
                        details: ["reason": .string("too_deep")])
                }
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth -= 1
                if pendingComma >= 0 {
                    throw CoinfolioError(
                        .invalidArgument, "malformed JSON: trailing comma at offset \(pendingComma)",
                        details: ["reason": .string("malformed_json")])
                }
            } else if !isSpace(byte) {
                pendingComma = -1
            }
            index += 1
        }
    }
}
