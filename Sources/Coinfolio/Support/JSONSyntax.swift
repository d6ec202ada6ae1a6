/// Checks Foundation's JSON parser leaves to chance. On Linux it accepts a trailing comma
/// (`[1,]`, `{"a":1,}`) and a second byte order mark, neither of which RFC 8259 allows; Coinfolio
/// promises `.invalidArgument` for malformed JSON, so these are rejected before parsing.
enum JSONSyntax {
    /// - Throws: `.invalidArgument` naming the offset of the first trailing comma, or of a
    ///   document that does not start with a JSON value.
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
                throw CoinfolioError(.invalidArgument, "malformed JSON: unexpected byte at offset \(index)",
                                     details: ["reason": .string("malformed_json")])
            }
        }
        var inString = false
        var pendingComma = -1
        while index < count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "\"") { inString = false }
            } else if !isSpace(byte) {
                if pendingComma >= 0, byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    throw CoinfolioError(.invalidArgument, "malformed JSON: trailing comma at offset \(pendingComma)",
                                         details: ["reason": .string("malformed_json")])
                }
                pendingComma = byte == UInt8(ascii: ",") ? index : -1
                if byte == UInt8(ascii: "\"") { inString = true }
            }
            index += 1
        }
    }
}
