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

    /// Whether the whole of `text` is a JSON number by its grammar alone (any size): the one
    /// form a ledger amount, price or fee sent as a string takes (SPEC §10, §12), so `"+1"`,
    /// `"1."`, `".5"`, `"01"` and `" 1"` are refused as a JSON number would be.
    static func spellsNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { spellsNumber($0) }
    }

    /// Whether the whole of UTF-8 `bytes` is a JSON number by its grammar alone (any size): the
    /// form a coinfolio CSV's amount, price and fee cells take too (SPEC §18: that format stays
    /// strict).
    static func spellsNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard case .success(let shape) = JSONReader.numberShape(bytes, at: 0) else { return false }
        return shape.end == bytes.count
    }

}
