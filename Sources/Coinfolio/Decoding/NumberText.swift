/// Numbers sent as JSON strings (SPEC §10): a string whose whole content is a JSON number
/// (RFC 8259 grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) reads as that number.
/// Anything else — `"12abc"`, `""`, `" 1"`, `"+1"`, `"NaN"`, `"Infinity"`, `"0x10"`, `"1."` — and
/// a number beyond a double's range (`"1e400"`) is not a number.
enum NumberText {
    /// The number `text` spells, or nil.
    static func parse(_ text: String) -> Double? {
        guard isJSONNumber(text.utf8) else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Whether `bytes` are exactly one JSON number.
    static func isJSONNumber<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var index = bytes.startIndex
        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        func digits() -> Int {
            var count = 0
            while isDigit(peek()) {
                index = bytes.index(after: index)
                count += 1
            }
            return count
        }
        if peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
        if peek() == UInt8(ascii: "0") {
            index = bytes.index(after: index)
        } else if isDigit(peek()) {
            _ = digits()
        } else {
            return false
        }
        if peek() == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            guard digits() > 0 else { return false }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}
