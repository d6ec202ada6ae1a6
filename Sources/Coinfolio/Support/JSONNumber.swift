/// One JSON number (RFC 8259 grammar: no leading zeros, no bare `.`, no `+`, no hex, no
/// NaN/Infinity) read from bytes, correctly rounded (the C-locale `strtod` behind `Double(_:)`).
/// For the small one-pass readers that do not need a whole JSON parser.
enum JSONNumber {
    /// Reads the number starting at `index`; on success moves `index` past it.
    /// - Returns: nil (with `index` unspecified) when the bytes there are not a JSON number.
    static func read(_ b: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Double? {
        let n = b.count
        let start = index
        func digits() -> Int {
            let first = index
            while index < n, (0x30...0x39).contains(b[index]) { index += 1 }
            return index - first
        }
        if index < n, b[index] == UInt8(ascii: "-") { index += 1 }
        guard index < n else { return nil }
        if b[index] == UInt8(ascii: "0") { index += 1 } else if digits() == 0 { return nil }
        if index < n, b[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < n, b[index] == UInt8(ascii: "e") || b[index] == UInt8(ascii: "E") {
            index += 1
            if index < n, b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: b[start..<index]), as: UTF8.self))
    }
}
