import Foundation

/// Numbers: RFC 8259's grammar, written once (every reader and `NumberText` use it), the range
/// check (±1.8e308) and the conversion, correctly rounded whatever the process's locale.
extension JSONReader {
    /// The shape of a number's text, from the grammar alone.
    struct NumberShape {
        /// One past its last byte.
        var end: Int
        /// Digits before the point.
        var integerDigits: Int
        /// The exponent's value (clamped to ±100,000), 0 without one.
        var exponent: Int
        /// No fraction and no exponent.
        var isIntegral: Bool

        /// Whether the magnitude might pass 1.8e308, so the text must be converted to be sure.
        var mayOverflow: Bool { integerDigits + exponent > 308 }
    }

    /// RFC 8259's number grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, at `start`
    /// of `bytes`: the number's shape, or nil (with what is wrong) when the bytes there are not
    /// one. The one place the grammar is written; every reader and `NumberText` use it.
    static func numberShape(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Result<NumberShape, NumberError> {
        var index = start
        let count = bytes.count
        @inline(__always) func isDigit(_ offset: Int) -> Bool { offset < count && bytes[offset] &- 0x30 < 10 }
        if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return .failure(.noDigit) }
        var integerDigits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return .failure(.leadingZero) }
            integerDigits = 1
        } else {
            while isDigit(index) {
                index += 1
                integerDigits += 1
            }
        }
        var isIntegral = true
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return .failure(.pointWithoutDigit) }
            while isDigit(index) { index += 1 }
            isIntegral = false
        }
        var exponent = 0
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            isIntegral = false
            var negative = false
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { return .failure(.exponentWithoutDigit) }
            while isDigit(index) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] &- 0x30) }
                index += 1
            }
            if negative { exponent = -exponent }
        }
        return .success(NumberShape(end: index, integerDigits: integerDigits, exponent: exponent, isIntegral: isIntegral))
    }

    /// Why bytes are not a JSON number.
    enum NumberError: Error {
        case noDigit, leadingZero, pointWithoutDigit, exponentWithoutDigit

        var message: String {
            switch self {
            case .noDigit: return "a '-' must be followed by a digit"
            case .leadingZero: return "a number may not have a leading zero"
            case .pointWithoutDigit: return "a '.' in a number must be followed by a digit"
            case .exponentWithoutDigit: return "an exponent must have digits"
            }
        }
    }

    /// The number at `index`: its text's range, checked against the grammar and the range of a
    /// double.
    mutating func numberText() throws -> Range<Int> {
        let start = index
        switch Self.numberShape(bytes, at: start) {
        case .failure(let error): throw failure(error.message, at: start)
        case .success(let shape):
            index = shape.end
            if shape.mayOverflow, !Self.convert(bytes, start..<shape.end, isIntegral: false).isFinite {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<shape.end]), as: UTF8.self)
                throw failure(text.count > 40 ? String(text.prefix(40)) + "…" : text, at: start, reason: .numberOutOfRange)
            }
            return start..<shape.end
        }
    }

    /// The number at `index`, correctly rounded (never ±infinity: that is out of range).
    mutating func double() throws -> Double {
        let start = index
        switch Self.numberShape(bytes, at: start) {
        case .failure(let error): throw failure(error.message, at: start)
        case .success(let shape):
            index = shape.end
            let value = Self.convert(bytes, start..<shape.end, isIntegral: shape.isIntegral)
            if !value.isFinite {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<shape.end]), as: UTF8.self)
                throw failure(text.count > 40 ? String(text.prefix(40)) + "…" : text, at: start, reason: .numberOutOfRange)
            }
            return value
        }
    }

    /// The value of number text `range` (already checked against the grammar), correctly
    /// rounded, whatever the process's locale; ±infinity beyond a double's range.
    static func convert(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, isIntegral: Bool) -> Double {
        if isIntegral, range.count <= 15 {
            // Whole numbers below 10^15 (timestamps in ms) are exact in a double: no strtod.
            var value = 0.0
            var negative = false
            for offset in range {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "-") { negative = true } else { value = value * 10 + Double(byte &- 0x30) }
            }
            return negative ? -value : value
        }
        // strtod on a stack copy, in the C locale (a host's LC_NUMERIC could make ',' the point):
        // a String per number would cost more than the rest of the reading.
        guard range.count < 64 else {
            return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)) ?? .nan
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            for (offset, byte) in bytes[range].enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[range.count] = 0
            guard let base = buffer.baseAddress else { return .nan }
            let previous = uselocale(cLocale)
            defer { uselocale(previous) }
            return strtod(base, nil)
        }
    }

    /// The C locale, for `strtod`.
    nonisolated(unsafe) private static let cLocale = newlocale(LC_NUMERIC_MASK, "C", nil)
}
