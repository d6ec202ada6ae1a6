import Foundation

/// Text, doubles and the ledger's fixed form of a `PreciseDecimal`.
extension PreciseDecimal {
    /// Reads decimal text (`"-12.5"`, `"2e-24"`, `"1E+3"`); nil for anything else, and for a
    /// number that needs more than 38 significant digits.
    public init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: UInt128 = 0
        var count = 0
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        while let byte = bytes.first {
            if byte >= 0x30, byte <= 0x39 {
                sawDigit = true
                if count == 38 {
                    // Past 38 significant digits only zeros are exact.
                    guard byte == 0x30 else { return nil }
                    if !sawPoint { exponent += 1 }
                } else {
                    if digits != 0 || byte != 0x30 { count += 1 }
                    digits = digits * 10 + UInt128(byte - 0x30)
                    if sawPoint { exponent -= 1 }
                }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard sawDigit else { return nil }
        if let byte = bytes.first {
            guard byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else { return nil }
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty, bytes.count <= 9, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let value = bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            exponent += exponentNegative ? -value : value
        }
        self = Self.make(negative, digits, exponent)
    }

    /// The shortest exact text, written as JavaScript writes numbers: plain decimal for
    /// 10⁻⁷ ≤ |x| < 10²¹ (`"246"`, `"0.1"`, `"-40003.1"`, `"320000000000000000000"`), the
    /// exponent form outside (`"2e-24"`, `"1.5e21"`); never `"-0"`, no trailing zeros.
    public var description: String {
        var bytes: [UInt8] = []
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `description`'s UTF-8 bytes (for JSON writers).
    func appendText(to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.textCapacity) { text in
            guard let base = text.baseAddress else { return }
            var cursor = ByteCursor(base)
            writeText(to: &cursor)
            bytes.append(contentsOf: cursor.written)
        }
    }

    /// The most bytes `writeText` writes: a sign, "0.", five zeros and 38 digits, or a sign, 38
    /// digits, a point, "e" and an exponent of at most 20.
    static let textCapacity = 64

    /// Writes `description`'s UTF-8 bytes (at most `textCapacity`).
    func writeText(to bytes: inout ByteCursor) {
        let magnitude = significand.magnitude
        guard magnitude != 0 else {
            bytes.put(UInt8(ascii: "0"))
            return
        }
        if significand < 0 { bytes.put(UInt8(ascii: "-")) }
        // The digits are written into a buffer on the stack, not an array (reports write
        // hundreds of thousands of values), and appended as buffers, not slices (a slice's bytes
        // go through the generic element-by-element copy). The trailing zeros are dropped from
        // the written digits (`normalized`'s digits, without its 128-bit divisions by 10).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.digitCapacity) { buffer in
            let first = Self.writeDigits(magnitude, into: buffer)
            var end = Self.digitCapacity
            while buffer[end - 1] == UInt8(ascii: "0") { end -= 1 }  // the first digit is not 0
            let exponent = Int(self.exponent) + (Self.digitCapacity - end)
            let digits = UnsafeBufferPointer(rebasing: buffer[first..<end])
            let count = digits.count
            let zero = UInt8(ascii: "0")
            // The value is 0.d₁d₂… × 10^point (ECMAScript's Number::toString).
            let point = exponent + count
            if count <= point, point <= 21 {
                bytes.put(digits)
                for _ in 0..<(point - count) { bytes.put(zero) }
            } else if 0 < point, point <= 21 {
                bytes.put(UnsafeBufferPointer(rebasing: digits[..<point]))
                bytes.put(UInt8(ascii: "."))
                bytes.put(UnsafeBufferPointer(rebasing: digits[point...]))
            } else if -6 < point, point <= 0 {
                bytes.put(zero)
                bytes.put(UInt8(ascii: "."))
                for _ in 0..<(-point) { bytes.put(zero) }
                bytes.put(digits)
            } else {
                bytes.put(digits[0])
                if count > 1 {
                    bytes.put(UInt8(ascii: "."))
                    bytes.put(UnsafeBufferPointer(rebasing: digits[1...]))
                }
                bytes.put(UInt8(ascii: "e"))
                bytes.putInteger(Int64(point - 1))
            }
        }
    }

    /// Room for the digits of any significand (below 10³⁸: at most 38 digits).
    private static let digitCapacity = 40

    /// Writes the ASCII digits of `value` (above 0) at the end of `buffer` (`digitCapacity`
    /// bytes), through 64- and 32-bit arithmetic (the generic 128-bit conversion to text is
    /// several times slower), eight digits at a time as two independent halves of two pairs
    /// each (not one long chain of divisions by 100: reports write hundreds of thousands of
    /// values, most of 38 digits); returns the index of the first.
    private static func writeDigits(_ value: UInt128, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = digitCapacity
        var rest = value
        // Nineteen digits at a time: 10¹⁹ fits 64 bits.
        let tenToThe19: UInt64 = 10_000_000_000_000_000_000
        let tenToThe8: UInt64 = 100_000_000
        while rest > UInt128(UInt64.max) {
            var (high, low) = (UInt128(0), UInt128(0))
            let top = UInt64(truncatingIfNeeded: rest >> 64)
            if top < tenToThe19 {
                // One 128-by-64-bit division (the quotient fits 64 bits), not the generic 128-bit one.
                let (quotient, remainder) = tenToThe19.dividingFullWidth((top, UInt64(truncatingIfNeeded: rest)))
                (high, low) = (UInt128(quotient), UInt128(remainder))
            } else {
                (high, low) = rest.quotientAndRemainder(dividingBy: UInt128(tenToThe19))
            }
            // The chunk's 19 digits: 3, then 8 and 8.
            let chunk = UInt64(low)
            let (upper, lower) = chunk.quotientAndRemainder(dividingBy: tenToThe8 * tenToThe8)
            let (middle, last) = lower.quotientAndRemainder(dividingBy: tenToThe8)
            writeEight(UInt32(truncatingIfNeeded: last), at: index - 8, into: buffer)
            writeEight(UInt32(truncatingIfNeeded: middle), at: index - 16, into: buffer)
            let hundreds = UInt32(truncatingIfNeeded: upper) / 100  // below 10: upper is below 1000
            writePair(UInt32(truncatingIfNeeded: upper) &- hundreds &* 100, at: index - 18, into: buffer)
            buffer[index - 19] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds)
            index -= 19
            rest = high
        }
        var small = UInt64(rest)
        while small >= tenToThe8 {
            let quotient = small / tenToThe8
            index -= 8
            writeEight(UInt32(truncatingIfNeeded: small &- quotient &* tenToThe8), at: index, into: buffer)
            small = quotient
        }
        var tail = UInt32(truncatingIfNeeded: small)  // below 10⁸
        while tail >= 100 {
            let quotient = tail / 100
            index -= 2
            writePair(tail &- quotient &* 100, at: index, into: buffer)
            tail = quotient
        }
        if tail >= 10 {
            index -= 2
            writePair(tail, at: index, into: buffer)
        } else {
            index -= 1
            buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tail)
        }
        return index
    }

    /// Writes the eight decimal digits of `value` (below 10⁸, leading zeros written) at `index`.
    @inline(__always) private static func writeEight(_ value: UInt32, at index: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let high = value / 10_000
        let low = value &- high &* 10_000
        let (a, b) = (high / 100, low / 100)
        writePair(a, at: index, into: buffer)
        writePair(high &- a &* 100, at: index + 2, into: buffer)
        writePair(b, at: index + 4, into: buffer)
        writePair(low &- b &* 100, at: index + 6, into: buffer)
    }

    /// Writes the two decimal digits of `pair` (below 100) at `index` and `index + 1`, copied
    /// from a table of "00"…"99" (a literal: no lazy global to check), not worked out by a
    /// division by 10 (a 38-digit value writes nineteen pairs).
    @inline(__always) private static func writePair(_ pair: UInt32, at index: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let pairs: StaticString = """
            0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
            5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
            """
        let from = pairs.utf8Start + 2 * Int(pair)
        buffer[index] = from[0]
        buffer[index + 1] = from[1]
    }

    /// The nearest binary double (correctly rounded for significands below 2⁵³; within an ulp or
    /// two for longer ones): for display and ratios.
    public var double: Double {
        guard significand != 0 else { return 0 }
        let magnitude = significand.magnitude
        // Exact operands, one correctly rounded operation.
        if magnitude < (1 << 53), exponent >= -22, exponent <= 22 {
            let value = Double(UInt64(magnitude))
            let scaled = exponent >= 0 ? value * Self.doublePowers[Int(exponent)] : value / Self.doublePowers[Int(-exponent)]
            return significand < 0 ? -scaled : scaled
        }
        if magnitude < (1 << 53) { return Double(description) ?? (significand < 0 ? -.infinity : .infinity) }
        // A long significand (a quotient): within an ulp or two, for ratios and display.
        let value =
            (Double(UInt64(truncatingIfNeeded: magnitude >> 64)) * 18_446_744_073_709_551_616.0
                + Double(UInt64(truncatingIfNeeded: magnitude))) * pow(10, Double(exponent))
        return significand < 0 ? -value : value
    }

    private static let doublePowers: [Double] = (0...22).map { pow(10, Double($0)) }

    /// A stored CoinGecko price exactly as the ledger reads it: `PreciseDecimal(ExactDecimal(value))`
    /// (its shortest round-trip text rounded to 18 fraction digits, trailing zeros dropped), nil
    /// where that is nil (NaN, ±Inf, beyond ±8.5 × 10¹⁹). Straight from the double's shortest
    /// digits where `ExactDecimal.shortestDigits` finds them (no 128-bit units between: a
    /// performance report converts every stored point it values), else through `ExactDecimal`.
    /// `ExactDecimalDoubleTests` ties the two, value and form.
    init?(price value: Double) {
        guard let (digits, places) = ExactDecimal.shortestDigits(value) else {
            guard let exact = ExactDecimal(value) else { return nil }
            self.init(exact)
            return
        }
        guard digits != 0 else {
            self = .zero
            return
        }
        var magnitude = digits.magnitude
        var exponent = -places
        while magnitude % 10 == 0 {
            magnitude /= 10
            exponent += 1
        }
        let significand = Int128(magnitude)
        self.init(significand: digits < 0 ? -significand : significand, exponent: Int32(exponent))
    }

    /// The value rounded half-to-even to the ledger's 18 fraction digits; nil when that is
    /// beyond ±8.5 × 10¹⁹ (the ledger's limit): a trade's price found by division, a moved lot's
    /// units.
    public var roundedToLedger: ExactDecimal? {
        guard significand != 0 else { return .zero }
        let magnitude = significand.magnitude
        let shift = Int(exponent) + ExactDecimal.fractionDigits
        var units: UInt128
        if shift >= 0 {
            guard shift <= 38 else { return nil }
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: DecimalDigitTable.power(shift))
            guard !overflow else { return nil }
            units = product
        } else if -shift > 38 {
            units = 0
        } else {
            let divisor = DecimalDigitTable.power(-shift)
            let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: divisor)
            units = quotient
            let half = divisor / 2
            if remainder > half || (remainder == half && quotient & 1 == 1) { units += 1 }
        }
        guard units <= UInt128(ExactDecimal.maximumUnits) else { return nil }
        return ExactDecimal(units: significand < 0 ? -Int128(bitPattern: units) : Int128(bitPattern: units))
    }
}

extension JSONWriter {
    /// A derived ledger value as a JSON number in its shortest exact form, or null.
    mutating func decimal(_ value: PreciseDecimal?) {
        guard let value else {
            null()
            return
        }
        rawBytes { value.appendText(to: &$0) }
    }
}
