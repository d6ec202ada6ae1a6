/// Bytes written at a pointer into room made beforehand: a report's row is written piece by piece
/// into a buffer on the stack and appended to the answer whole (one capacity check and one copy
/// per row, not one per key and value). The writer makes the room; nothing here checks it.
struct ByteCursor {
    /// Where the bytes go.
    let base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// What was written.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        let length = bytes.count
        let to = UnsafeMutableRawPointer(base + count)
        let source = UnsafeRawPointer(from)
        // Most pieces (a key, a date, a decimal's digits) are a few bytes: two overlapping word
        // moves instead of a call to memcpy.
        if length >= 8, length <= 16 {
            to.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4, length < 8 {
            to.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self), toByteOffset: length - 4, as: UInt32.self)
        } else if length < 4 {
            for index in 0..<length { base[count + index] = from[index] }
        } else {
            (base + count).update(from: from, count: length)
        }
        count += length
    }

    /// Ten bytes: eight from `low` (in memory order), two from `high`.
    mutating func putTen(_ low: UInt64, _ high: UInt16) {
        let to = UnsafeMutableRawPointer(base + count)
        to.storeBytes(of: low, as: UInt64.self)
        to.storeBytes(of: high, toByteOffset: 8, as: UInt16.self)
        count += 10
    }

    /// A literal's bytes.
    mutating func put(_ text: StaticString) { text.withUTF8Buffer { put($0) } }

    /// An integer's decimal digits (as `String(value)` spells it; at most 20 bytes).
    mutating func putInteger(_ value: Int64) {
        if value < 0 { put(UInt8(ascii: "-")) }
        // The length by comparisons, then the digits written backwards in place by divisions by
        // the constant 10 (a multiplication), not by a power found first (a hardware division per
        // digit): a report writes two integers a row.
        var rest = value.magnitude
        var digits = 1
        var bound: UInt64 = 10
        while digits < 20, rest >= bound {
            digits += 1
            bound = bound &* 10  // wraps only past 10¹⁹, when the loop ends
        }
        var index = count + digits
        repeat {
            let quotient = rest / 10
            index -= 1
            base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest &- quotient &* 10)
            rest = quotient
        } while rest != 0
        count += digits
    }

    /// UTF-8 text as a JSON string (at most 6 bytes per byte of text, and the quotes).
    mutating func putQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard JSONWriter.needsNoEscape(utf8) else {
            var escaped: [UInt8] = []
            JSONWriter.appendQuoted(utf8: utf8, to: &escaped)
            escaped.withUnsafeBufferPointer { put($0) }
            return
        }
        put(UInt8(ascii: "\""))
        put(utf8)
        put(UInt8(ascii: "\""))
    }
}
