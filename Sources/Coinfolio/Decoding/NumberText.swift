/// Numbers sent as JSON strings (SPEC §10): a string whose whole content is a JSON number
/// (RFC 8259 grammar, `JSONReader.numberShape`) reads as that number. Anything else — `"12abc"`,
/// `""`, `" 1"`, `"+1"`, `"NaN"`, `"Infinity"`, `"0x10"`, `"1."` — and a number beyond a double's
/// range (`"1e400"`) is not a number.
enum NumberText {
    /// The number `text` spells, or nil.
    static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// The number UTF-8 `bytes` spell, or nil.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard case .success(let shape) = JSONReader.numberShape(bytes, at: 0), shape.end == bytes.count else { return nil }
        let value = JSONReader.value(bytes, at: 0, shape)
        return value.isFinite ? value : nil
    }

}
