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
        /// The value of an integral number of at most 15 digits (exact in a double), read in the
        /// same pass; nil otherwise.
        var smallInteger: Double?

        /// Whether the magnitude might pass 1.8e308, so the text must be converted to be sure.
        var mayOverflow: Bool { integerDigits + exponent > 308 }
    }

    /// RFC 8259's number grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, at `start`
    /// of `bytes`: the number's shape, or what is wrong when the bytes there are not one. The one
    /// place the grammar is written; every reader and `NumberText` use it.
    @inline(__always)
    static func numberShape(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Result<NumberShape, NumberError> {
        var index = start
        let count = bytes.count
        let negative = index < count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < count, bytes[index] &- 0x30 < 10 else { return .failure(.noDigit) }
        var mantissa: UInt64 = 0
        let digitsStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, bytes[index] &- 0x30 < 10 { return .failure(.leadingZero) }
        } else {
            while index < count {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
        }
        let integerDigits = index - digitsStart
        var isIntegral = true
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < count, bytes[index] &- 0x30 < 10 else { return .failure(.pointWithoutDigit) }
            while index < count, bytes[index] &- 0x30 < 10 { index += 1 }
            isIntegral = false
        }
        var exponent = 0
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            isIntegral = false
            var negativeExponent = false
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count, bytes[index] &- 0x30 < 10 else { return .failure(.exponentWithoutDigit) }
            while index < count {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { break }
                if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        var smallInteger: Double?
        if isIntegral, integerDigits <= 15 {
            let value = Double(mantissa)
            smallInteger = negative ? -value : value
        }
        return .success(
            NumberShape(end: index, integerDigits: integerDigits, exponent: exponent, isIntegral: isIntegral, smallInteger: smallInteger))
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
            if shape.mayOverflow, !Self.convert(bytes, start..<shape.end).isFinite {
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
            if let value = shape.smallInteger { return value }
            let value = Self.convert(bytes, start..<shape.end)
            if !value.isFinite {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<shape.end]), as: UTF8.self)
                throw failure(text.count > 40 ? String(text.prefix(40)) + "…" : text, at: start, reason: .numberOutOfRange)
            }
            return value
        }
    }

    /// The value of number text `range` (already checked against the grammar; see also
    /// `NumberShape.smallInteger`), correctly rounded whatever the process's locale; ±infinity
    /// beyond a double's range.
    static func convert(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        // strtod on a stack copy, in the C locale (a host's LC_NUMERIC could make ',' the point):
        // a String per number would cost more than the rest of the reading.
        guard range.count < 64, let source = bytes.baseAddress else {
            return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)) ?? .nan
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard let base = buffer.baseAddress else { return .nan }
            UnsafeMutableRawPointer(base).copyMemory(from: source + range.lowerBound, byteCount: range.count)
            base[range.count] = 0
            let previous = uselocale(cLocale)
            defer { uselocale(previous) }
            return strtod(base, nil)
        }
    }

    /// The value of a number's text whose shape is `shape` (starting at `start`).
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ shape: NumberShape) -> Double {
        shape.smallInteger ?? convert(bytes, start..<shape.end)
    }

    /// The C locale, for `strtod`.
    nonisolated(unsafe) private static let cLocale = newlocale(LC_NUMERIC_MASK, "C", nil)
}
