import Foundation

/// An exact decimal number with up to 18 fraction digits: the ledger's amounts, prices, fees and
/// money values (SPEC §12 "exact amounts").
///
/// Stored as a 128-bit integer count of 10⁻¹⁸ units, so sums and differences are exact
/// (0.3 − 0.1 − 0.2 is exactly 0 and a closed position is 0, never dust) and range over
/// ±8.5 × 10¹⁹. Products and quotients are not done here: what the ledger derives (a lot's cost,
/// a share of it, an average) is a `PreciseDecimal`, never rounded to these 18 places. Text in,
/// text out: `ExactDecimal("0.1")` is one tenth exactly, and `description` is the shortest
/// decimal text (`"0.1"`, `"246"`, `"-0.000001"`), never exponent form. 18 fraction digits are as
/// many as ERC-20 tokens (wei) use.
public struct ExactDecimal: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The value in units of 10⁻¹⁸.
    @usableFromInline var units: Int128

    /// 10¹⁸: one whole in units.
    @usableFromInline static let scale: Int128 = 1_000_000_000_000_000_000
    /// Fraction digits kept.
    public static let fractionDigits = 18

    @inlinable init(units: Int128) { self.units = units }

    /// Zero.
    public static let zero = ExactDecimal(units: 0)

    /// A whole number.
    public init(integerLiteral value: Int64) { units = Int128(value) * Self.scale }

    /// A whole number.
    public init(_ value: Int) { units = Int128(value) * Self.scale }

    /// Reads decimal text: an optional sign, digits with an optional point, an optional exponent
    /// (`"0.1"`, `"-2"`, `".5"`, `"1.186e-09"`). Nil for anything else (`"NaN"`, `"1,5"`, `""`,
    /// `" 1"`, hexadecimal), for more than 18 significant fraction digits, and for values beyond
    /// ±8.5 × 10¹⁹.
    public init?(_ text: String) {
        // From the contiguous bytes (the same bytes as `text.utf8`, without the view's indexing).
        var text = text
        guard let value = text.withUTF8({ Self.parse($0, rounding: false) }) else { return nil }
        self = value
    }

    /// Like `init?(_:)`, but rounds (half-to-even) past the 18th fraction digit instead of
    /// refusing: for market prices that arrive as binary doubles.
    public init?(rounding text: String) {
        guard let value = Self.parse(text.utf8, rounding: true) else { return nil }
        self = value
    }

    /// A binary double by its shortest round-trip text (0.1 → 0.1), rounded to 18 fraction
    /// digits. Nil for NaN, ±Inf and values out of range.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if let units = Self.shortestUnits(value) {
            self.init(units: units)
            return
        }
        // Parsed from the text's contiguous UTF-8 bytes, not through `String.UTF8View` (a
        // performance report converts every stored point: the view's indexing cost more than
        // producing the text).
        var text = value.description
        guard let parsed = text.withUTF8({ Self.parse($0, rounding: true) }) else { return nil }
        self = parsed
    }

    /// Why decimal text `init?(_:)` refuses is refused, when its form is a number's (digits, at
    /// most one point, an optional sign and exponent): its size (`beyondRange`, past ±8.5 × 10¹⁹
    /// exactly) or its precision (`fractionDigits`, past 18 fraction
    /// digits, 1e-400 included). Nil for text that is no number at all ("0x10", "inf", "1,5").
    enum TextRefusal { case beyondRange, fractionDigits }

    static func refusal<C: Collection>(_ bytes: C) -> TextRefusal? where C.Element == UInt8 {
        // Digits, ".", "e", "E", "+", "-"; Double's reading then settles the form.
        let decimalBytes = bytes.allSatisfy { (0x30...0x39).contains($0) || [0x2E, 0x65, 0x45, 0x2B, 0x2D].contains($0) }
        guard decimalBytes, bytes.contains(where: { (0x30...0x39).contains($0) }),
            let value = Double(String(decoding: bytes, as: UTF8.self))
        else { return nil }
        if value.isFinite, abs(value) < 1 { return .fractionDigits }
        return parse(bytes, rounding: true) == nil ? .beyondRange : .fractionDigits
    }

    /// A Foundation `Decimal` by its text; nil past 18 fraction digits or out of range.
    public init?(_ value: Decimal) {
        guard value.isFinite else { return nil }
        self.init(value.description)
    }

    /// Parses bytes of decimal text (see `init?(_:)`).
    static func parse<C: Collection>(_ bytes: C, rounding: Bool) -> ExactDecimal? where C.Element == UInt8 {
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index != end else { return nil }
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index = bytes.index(after: index)
        }
        // Digits collected as a mantissa and a decimal exponent.
        var mantissa: Int128 = 0
        var exponent = 0
        var digits = 0
        var sawPoint = false
        var droppedNonZero = false  // digits past what the mantissa holds
        var lastDropped: UInt8 = 0
        var droppedCount = 0
        while index != end {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                if mantissa <= Self.mantissaLimit {
                    mantissa = mantissa &* 10 &+ Int128(truncatingIfNeeded: byte &- 0x30)
                    if sawPoint { exponent -= 1 }
                } else {
                    // Too many digits to hold: keep the exponent right and remember them for rounding.
                    if !sawPoint { exponent += 1 }
                    if droppedCount == 0 { lastDropped = byte - 0x30 } else if byte != 0x30 { droppedNonZero = true }
                    droppedCount += 1
                }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        guard digits > 0 else { return nil }
        if index != end {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index = bytes.index(after: index)
            guard index != end else { return nil }
            var exponentNegative = false
            if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index = bytes.index(after: index)
            }
            var value = 0
            var exponentDigits = 0
            while index != end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if value < 100_000 { value = value * 10 + Int(bytes[index] - 0x30) }
                exponentDigits += 1
                index = bytes.index(after: index)
            }
            guard exponentDigits > 0, index == end else { return nil }
            exponent += exponentNegative ? -value : value
        }
        if droppedCount > 0 {
            // Only zeros may be dropped exactly; otherwise round when allowed.
            if lastDropped != 0 || droppedNonZero {
                guard rounding else { return nil }
                if lastDropped > 5 || (lastDropped == 5 && (droppedNonZero || mantissa % 2 == 1)) { mantissa += 1 }
            }
        }
        // units = mantissa × 10^(exponent + 18)
        var shift = exponent + fractionDigits
        var units = mantissa
        if shift >= 0 {
            // One multiply by 10^shift: it overflows exactly when some step of ×10 would (the
            // units only grow); 10^39 and above overflow any units but 0.
            if units != 0 && shift > 0 {
                guard shift < Self.powersOfTen.count else { return nil }
                let (next, overflow) = units.multipliedReportingOverflow(by: Self.powersOfTen[shift])
                guard !overflow else { return nil }
                units = next
            }
        } else {
            var remainderNonZero = false
            var last: Int128 = 0
            while shift < 0 {
                if units == 0 { break }
                let (quotient, remainder) = units.quotientAndRemainder(dividingBy: 10)
                if last != 0 { remainderNonZero = true }
                last = remainder
                units = quotient
                shift += 1
            }
            if last != 0 || remainderNonZero {
                guard rounding else { return nil }
                if last > 5 || (last == 5 && (remainderNonZero || units % 2 == 1)) { units += 1 }
            }
        }
        // Keep the range symmetric and away from Int128's edge so that negation never traps.
        guard units <= Self.maximumUnits else { return nil }
        return ExactDecimal(units: negative ? -units : units)
    }

    /// 8.5 × 10¹⁹ exactly, in units: the documented bound of the ledger (amounts, prices, fees and
    /// their running sums), exactly 8.5e19 included. Well inside Int128 (about 1.7 × 10³⁸), so a
    /// sum or difference of two values in range never wraps and negation never traps.
    @usableFromInline static let maximumUnits: Int128 = 85 * scale * scale

    /// x × y ÷ z, exact to the last unit: the 256-bit product of the units divided once and
    /// rounded half-to-even to 18 fraction digits (never rounded to 38 digits on the way, so
    /// never twice); nil when z is 0 or the result is beyond the ledger's range. The one rule for
    /// prices found by division (`Trade.price`, `PriceConversion`).
    static func product(_ x: ExactDecimal, _ y: ExactDecimal, dividedBy z: ExactDecimal) -> ExactDecimal? {
        guard z.units != 0 else { return nil }
        let negative = ((x.units < 0) != (y.units < 0)) != (z.units < 0)
        let divisor = z.units.magnitude
        // Units carry 10¹⁸ each: (X/10¹⁸)(Y/10¹⁸)/(Z/10¹⁸) is X·Y/Z units.
        let wide = WideMagnitude(x.units.magnitude, times: y.units.magnitude)
        // A quotient of 2¹²⁸ or more is far past the range (and would not fit the division).
        guard wide.high < divisor else { return nil }
        var (units, remainder) = wide.divided(by: divisor)
        // The remainder and divisor stay below 2¹²⁷ (units of the ledger), so twice fits.
        let twice = remainder << 1
        if twice > divisor || (twice == divisor && units & 1 == 1) { units += 1 }
        guard units <= UInt128(maximumUnits) else { return nil }
        let magnitude = Int128(bitPattern: units)
        return ExactDecimal(units: negative ? -magnitude : magnitude)
    }

    /// The largest mantissa another digit may still join without overflowing: up to 38 digits
    /// are read exactly, so every value in range (8.5 × 10³⁷ units, 38 digits with its 18
    /// fraction digits) reads back from its own text. (The limit was 10³⁴: a trade priced by
    /// division could store a 37-digit price that no reader took back.)
    private static let mantissaLimit: Int128 = (Int128.max - 9) / 10

    /// 10⁰ … 10³⁸: every power of ten an `Int128` holds.
    static let powersOfTen: [Int128] = {
        var powers: [Int128] = [1]
        for _ in 1...38 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()

    /// The shortest decimal text: no exponent, no trailing zeros, no "-0".
    public var description: String { withText { String(decoding: $0, as: UTF8.self) } }

    /// Appends `description`'s UTF-8 bytes (for JSON and CSV writers: no String in between).
    func appendText(to bytes: inout [UInt8]) {
        withText { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with `description`'s UTF-8 bytes, written on the stack (no allocation: the
    /// ledger's writes bind three of these a row).
    func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        // At most a sign, 21 whole digits (8.5e19), a point and 18 fraction digits.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[..<write(into: buffer)]))
        }
    }

    /// Writes `description` into `buffer` (48 bytes or more); the number of bytes written.
    private func write(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        if units == 0 {
            buffer[0] = UInt8(ascii: "0")
            return 1
        }
        var count = 0
        let magnitude = units.magnitude
        let whole: UInt128
        let fraction: UInt128
        if magnitude <= UInt128(UInt64.max) {  // below 18.4: one 64-bit division
            let split = UInt64(truncatingIfNeeded: magnitude).quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
            whole = UInt128(split.quotient)
            fraction = UInt128(split.remainder)
        } else {
            let split = magnitude.quotientAndRemainder(dividingBy: Self.unsignedScale)
            whole = split.quotient
            fraction = split.remainder
        }
        if units < 0 {
            buffer[0] = UInt8(ascii: "-")
            count = 1
        }
        // The whole part's digits, written backwards after the sign, then turned around.
        let start = count
        func writeDigits<Whole: FixedWidthInteger & UnsignedInteger>(_ whole: Whole) {
            var rest = whole
            repeat {
                let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
                buffer[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: digit)
                count += 1
                rest = quotient
            } while rest > 0
        }
        // Below 2^64 (every whole part but the largest): 64-bit divisions, not 128-bit ones.
        if let small = UInt64(exactly: whole) { writeDigits(small) } else { writeDigits(whole) }
        buffer[start..<count].reverse()
        guard fraction != 0 else { return count }
        // fraction < 10^18 < 2^64: 18 digits with leading zeros, trailing zeros dropped.
        var digits = UInt64(fraction)
        var width = Self.fractionDigits
        while digits % 10 == 0 {
            digits /= 10
            width -= 1
        }
        buffer[count] = UInt8(ascii: ".")
        count += 1
        var index = count + width - 1
        for _ in 0..<width {
            buffer[index] = UInt8(ascii: "0") + UInt8(digits % 10)
            digits /= 10
            index -= 1
        }
        return count + width
    }

    /// The nearest binary double (for display and ratios).
    public var double: Double {
        let magnitude = units.magnitude
        let (whole, fraction) = magnitude.quotientAndRemainder(dividingBy: Self.unsignedScale)
        // Both halves through UInt64 (the generic UInt128 → Double conversion is slow).
        let wholeValue =
            Double(UInt64(truncatingIfNeeded: whole >> 64)) * 18_446_744_073_709_551_616.0
            + Double(UInt64(truncatingIfNeeded: whole))
        let value = wholeValue + Double(UInt64(truncatingIfNeeded: fraction)) / 1e18
        return units < 0 ? -value : value
    }

    @usableFromInline static let unsignedScale = UInt128(1_000_000_000_000_000_000 as UInt64)

    /// The value as a Foundation `Decimal` (exact: 18 fraction digits fit its 38-digit mantissa).
    public var decimal: Decimal { Decimal(string: description, locale: Locale(identifier: "en_US_POSIX")) ?? 0 }

    /// Whether the value is 0.
    @inlinable public var isZero: Bool { units == 0 }
    /// Whether the value is below 0.
    @inlinable public var isNegative: Bool { units < 0 }
    /// The value without its sign (|a|).
    var magnitude: ExactDecimal { ExactDecimal(units: units < 0 ? 0 &- units : units) }

    /// Whether a is below b.
    @inlinable public static func < (a: ExactDecimal, b: ExactDecimal) -> Bool { a.units < b.units }
    /// a + b, exact.
    @inlinable public static func + (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal { ExactDecimal(units: a.units &+ b.units) }
    /// a − b, exact.
    @inlinable public static func - (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal { ExactDecimal(units: a.units &- b.units) }
    /// −a, exact.
    @inlinable public static prefix func - (a: ExactDecimal) -> ExactDecimal { ExactDecimal(units: 0 &- a.units) }
    /// a = a + b, exact.
    @inlinable public static func += (a: inout ExactDecimal, b: ExactDecimal) { a.units = a.units &+ b.units }
    /// a = a − b, exact.
    @inlinable public static func -= (a: inout ExactDecimal, b: ExactDecimal) { a.units = a.units &- b.units }

    /// a + b, or nil when the sum is beyond ±8.5 × 10¹⁹ (what the ledger keeps exactly).
    public func adding(_ b: ExactDecimal) -> ExactDecimal? {
        let (sum, overflow) = units.addingReportingOverflow(b.units)
        guard !overflow, sum.magnitude <= Self.maximumUnits.magnitude else { return nil }
        return ExactDecimal(units: sum)
    }

    /// One.
    public static let one = ExactDecimal(units: scale)
}
