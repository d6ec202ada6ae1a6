/// A decimal floating-point number with 38 significant digits: what the ledger derives from its
/// exact inputs (a lot's cost, cost basis, proceeds, realized and unrealized P&L, values, income).
///
/// The value is `significand × 10^exponent` with |significand| < 10³⁸. Sums, differences and
/// products are exact whenever the exact result has at most 38 significant digits (every sum of
/// ledger amounts, prices and fees, each at most 20 integer and 18 fraction digits, and every
/// product of two of them with at most 38 digits); otherwise, and for quotients, they are rounded
/// half-to-even at the 38th significant digit — never to a fixed number of places, so dust stays
/// dust (1e-18 units at 0.000002 cost 2e-24) and no sum of the ledger's values clamps or wraps
/// (8e19 + 8e19 is 1.6e20). The exponent range (±2·10⁹) is far beyond any ledger value.
///
/// Text out is the shortest exact form (`description`), written as JavaScript writes numbers:
/// `"246"`, `"0.1"`, `"40003.1"`, `"320000000000000000000"`, and `"2e-24"` below 10⁻⁷.
public struct PreciseDecimal: Sendable, Comparable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    // The significand is kept as two 64-bit halves, not an Int128: with a stored Int128 (16-byte
    // alignment) beside the exponent, debug builds of Swift 6.3 read an optional value with an
    // aligned vector load from a misaligned stack slot and crash.
    @usableFromInline var high: Int64
    @usableFromInline var low: UInt64
    @usableFromInline var exponent: Int32

    /// |significand| < 10³⁸.
    @inlinable var significand: Int128 { Int128(high) << 64 | Int128(low) }

    @inlinable init(significand: Int128, exponent: Int32) {
        high = Int64(truncatingIfNeeded: significand >> 64)
        low = UInt64(truncatingIfNeeded: significand)
        self.exponent = exponent
    }

    /// Significant digits kept.
    public static let significantDigits = 38
    @usableFromInline static let limit: UInt128 = 100_000_000_000_000_000_000_000_000_000_000_000_000

    /// Zero.
    public static let zero = PreciseDecimal(significand: 0, exponent: 0)

    /// A whole number.
    public init(integerLiteral value: Int64) { self.init(significand: Int128(value), exponent: 0) }

    /// A whole number.
    public init(_ value: Int) { self.init(significand: Int128(value), exponent: 0) }

    /// A ledger value, exactly (its trailing zeros dropped, so later products stay in the fast path).
    public init(_ value: ExactDecimal) {
        let units = value.units
        guard units != 0 else {
            self = .zero
            return
        }
        let magnitude = units.magnitude
        var digits: UInt128
        var exponent = -18
        if magnitude <= UInt128(truncatingIfNeeded: UInt64.max) {
            var small = UInt64(magnitude)
            while small % 10 == 0 {
                small /= 10
                exponent += 1
            }
            digits = UInt128(truncatingIfNeeded: small)
        } else {
            let (whole, fraction) = magnitude.quotientAndRemainder(dividingBy: ExactDecimal.unsignedScale)
            if fraction == 0, whole <= UInt128(UInt64.max) {
                // A whole number (a price of 1000): its zeros dropped by 64-bit division.
                var small = UInt64(truncatingIfNeeded: whole)
                exponent = 0
                while small % 10 == 0 {
                    small /= 10
                    exponent += 1
                }
                digits = UInt128(truncatingIfNeeded: small)
            } else if fraction == 0 {
                digits = whole
                exponent = 0
                while digits % 10 == 0 {
                    digits /= 10
                    exponent += 1
                }
            } else {
                var small = UInt64(fraction)
                var places = 18
                while small % 10 == 0 {
                    small /= 10
                    places -= 1
                }
                digits = whole * DecimalDigitTable.power(places) + UInt128(truncatingIfNeeded: small)
                exponent = -places
            }
        }
        let signed = Int128(bitPattern: digits)  // below 10³⁸ < 2¹²⁷
        self.init(significand: units < 0 ? -signed : signed, exponent: Int32(exponent))
    }

    @inline(__always) static func make(_ negative: Bool, _ magnitude: UInt128, _ exponent: Int) -> PreciseDecimal {
        PreciseDecimal(
            significand: negative ? -Int128(bitPattern: magnitude) : Int128(bitPattern: magnitude),  // below 10³⁸ < 2¹²⁷
            exponent: magnitude == 0 ? 0 : Int32(clamping: exponent))
    }

    /// `magnitude × 10^exponent` rounded half-to-even to 38 significant digits.
    static func rounded(_ negative: Bool, _ magnitude: WideMagnitude, _ exponent: Int) -> PreciseDecimal {
        if magnitude.high == 0, magnitude.low < limit { return make(negative, magnitude.low, exponent) }
        let drop = magnitude.digitCount - significantDigits
        let divisor = DecimalDigitTable.power(drop)
        var (quotient, remainder) = magnitude.divided(by: divisor)
        let half = divisor >> 1
        if remainder > half || (remainder == half && quotient & 1 == 1) { quotient += 1 }
        var exponent = exponent + drop
        if quotient == limit {
            quotient /= 10
            exponent += 1
        }
        return make(negative, quotient, exponent)
    }

    /// Whether the value is 0.
    @inlinable public var isZero: Bool { significand == 0 }
    /// Whether the value is below 0.
    @inlinable public var isNegative: Bool { significand < 0 }
    /// The value without its sign.
    @inlinable public var magnitude: PreciseDecimal {
        PreciseDecimal(significand: significand < 0 ? -significand : significand, exponent: exponent)
    }

    /// −a, exact.
    @inlinable public static prefix func - (a: PreciseDecimal) -> PreciseDecimal {
        PreciseDecimal(significand: 0 - a.significand, exponent: a.exponent)
    }

    /// The significand when it fits 64 bits (what almost every ledger value and sum has).
    @inlinable @inline(__always) var smallSignificand: Int64? {
        Int64(bitPattern: low) >> 63 == high ? Int64(bitPattern: low) : nil
    }

    /// a + b: exact when the result fits 38 significant digits, else rounded half-to-even there.
    /// Inlined: two significands of 64 bits whose exponents differ by at most 18 add in 64-bit
    /// arithmetic (the sum, below 2⁶³, is exact); the rest is `added`.
    @inlinable @inline(__always)
    public static func + (a: PreciseDecimal, b: PreciseDecimal) -> PreciseDecimal {
        if let x = a.smallSignificand, let y = b.smallSignificand {
            if x == 0 { return b }
            if y == 0 { return a }
            if a.exponent == b.exponent {
                let (sum, overflow) = x.addingReportingOverflow(y)
                if !overflow { return PreciseDecimal(significand: Int128(sum), exponent: a.exponent) }
            } else {
                let aBigger = a.exponent > b.exponent
                let shift = aBigger ? Int(a.exponent) - Int(b.exponent) : Int(b.exponent) - Int(a.exponent)
                if shift <= 18 {
                    let (scaled, overflow) = (aBigger ? x : y).multipliedReportingOverflow(by: DecimalDigitTable.smallPower(shift))
                    if !overflow {
                        let (sum, sumOverflow) = scaled.addingReportingOverflow(aBigger ? y : x)
                        if !sumOverflow {
                            return PreciseDecimal(significand: Int128(sum), exponent: aBigger ? b.exponent : a.exponent)
                        }
                    }
                }
            }
        }
        return added(a, b)
    }

    /// a + b in 128 bits, else through 256 (see `+`).
    @usableFromInline static func added(_ a: PreciseDecimal, _ b: PreciseDecimal) -> PreciseDecimal {
        if a.significand == 0 { return b }
        if b.significand == 0 { return a }
        if a.exponent == b.exponent {
            let (sum, overflow) = a.significand.addingReportingOverflow(b.significand)
            if !overflow, sum.magnitude < limit { return PreciseDecimal(significand: sum, exponent: a.exponent) }
        } else {
            let (big, small) = a.exponent > b.exponent ? (a, b) : (b, a)
            let shift = Int(big.exponent) - Int(small.exponent)
            if shift <= 38, big.significand.magnitude < DecimalDigitTable.power(38 - shift) {
                let scaled = big.significand * Int128(bitPattern: DecimalDigitTable.power(shift))  // ≤ 10³⁸ < 2¹²⁷
                let (sum, overflow) = scaled.addingReportingOverflow(small.significand)
                if !overflow, sum.magnitude < limit { return PreciseDecimal(significand: sum, exponent: small.exponent) }
            }
        }
        return widelyAdded(a, b)
    }

    /// a + b through 256 bits, rounded to 38 digits.
    private static func widelyAdded(_ a: PreciseDecimal, _ b: PreciseDecimal) -> PreciseDecimal {
        let (big, small) = a.exponent >= b.exponent ? (a, b) : (b, a)
        let shift = Int(big.exponent) - Int(small.exponent)
        let bigMagnitude = big.significand.magnitude
        let bigDigits = DecimalDigitTable.digitCount(bigMagnitude)
        // Beyond 76 digits the smaller term lies below the last digit the result can keep.
        guard shift <= 76 - bigDigits else { return big }
        if bigDigits == significantDigits, let sum = alignedSum(big, small, shift) { return sum }
        return exactlyRounded(big, small, shift)
    }

    /// `widelyAdded` through 256 bits, rounded once to 38 digits (what `alignedSum` must equal).
    static func exactlyRounded(_ big: PreciseDecimal, _ small: PreciseDecimal, _ shift: Int) -> PreciseDecimal {
        let bigMagnitude = big.significand.magnitude
        let scaled =
            shift <= 38
            ? WideMagnitude(bigMagnitude, times: DecimalDigitTable.power(shift))
            : WideMagnitude(bigMagnitude * DecimalDigitTable.power(shift - 38), times: DecimalDigitTable.power(38))
        let other = WideMagnitude(low: small.significand.magnitude)
        let bigNegative = big.significand < 0
        let smallNegative = small.significand < 0
        let exponent = Int(small.exponent)
        if bigNegative == smallNegative { return rounded(bigNegative, scaled + other, exponent) }
        if other < scaled { return rounded(bigNegative, scaled - other, exponent) }
        if scaled < other { return rounded(smallNegative, other - scaled, exponent) }
        return .zero
    }

    /// a − b (see `+`).
    @inlinable public static func - (a: PreciseDecimal, b: PreciseDecimal) -> PreciseDecimal { a + -b }
    /// a = a + b.
    @inlinable public static func += (a: inout PreciseDecimal, b: PreciseDecimal) { a = a + b }
    /// a = a − b.
    @inlinable public static func -= (a: inout PreciseDecimal, b: PreciseDecimal) { a = a + -b }

    /// a × b: exact when the product fits 38 significant digits, else rounded half-to-even there.
    public static func * (a: PreciseDecimal, b: PreciseDecimal) -> PreciseDecimal {
        if a.significand == 0 || b.significand == 0 { return .zero }
        let negative = (a.significand < 0) != (b.significand < 0)
        let x = a.significand.magnitude
        let y = b.significand.magnitude
        let exponent = Int(a.exponent) + Int(b.exponent)
        if x >> 64 == 0, y >> 64 == 0 {
            let product = x &* y
            if product < limit { return make(negative, product, exponent) }
            return rounded(negative, WideMagnitude(low: product), exponent)
        }
        return rounded(negative, WideMagnitude(x, times: y), exponent)
    }

    /// self ÷ b to 38 significant digits (half-to-even; exact when the quotient has fewer); nil
    /// when b is 0.
    public func divided(by b: PreciseDecimal) -> PreciseDecimal? {
        guard b.significand != 0 else { return nil }
        guard significand != 0 else { return .zero }
        let negative = (significand < 0) != (b.significand < 0)
        let x = significand.magnitude
        let y = b.significand.magnitude
        // An exact quotient of the significands keeps its few digits (a lot's cost ÷ 1 unit, or
        // halved): later sums then stay in the fast path.
        if x >> 64 == 0, y >> 64 == 0 {
            let (quotient, remainder) = UInt64(x).quotientAndRemainder(dividingBy: UInt64(y))
            if remainder == 0 { return Self.make(negative, UInt128(truncatingIfNeeded: quotient), Int(exponent) - Int(b.exponent)) }
        }
        // Scaled so that the quotient has 37 or 38 digits: x·10^s has 37 + digits(y) digits.
        let shift = 37 + DecimalDigitTable.digitCount(y) - DecimalDigitTable.digitCount(x)
        let dividend =
            shift <= 38
            ? WideMagnitude(x, times: DecimalDigitTable.power(shift))
            : WideMagnitude(x * DecimalDigitTable.power(shift - 38), times: DecimalDigitTable.power(38))
        var (quotient, remainder) = dividend.divided(by: y)
        let twice = remainder << 1
        if twice > y || (twice == y && quotient & 1 == 1) { quotient += 1 }
        var exponent = Int(exponent) - Int(b.exponent) - shift
        if quotient == Self.limit {
            quotient /= 10
            exponent += 1
        }
        return Self.make(negative, quotient, exponent)
    }

    /// `self` rounded half to even to a multiple of 10^`target` (as it is when it is one already).
    func quantized(toExponent target: Int) -> PreciseDecimal {
        let shift = target - Int(exponent)
        guard shift > 0, significand != 0 else { return self }
        // |self| < 10^(38 + exponent) ≤ 10^(target − 1): below half a step.
        guard shift <= 38 else { return .zero }
        let divisor = DecimalDigitTable.power(shift)
        var (quotient, remainder) = significand.magnitude.quotientAndRemainder(dividingBy: divisor)
        let half = divisor >> 1
        if remainder > half || (remainder == half && quotient & 1 == 1) { quotient += 1 }
        return Self.make(significand < 0, quotient, target)
    }

    /// The exponent of the 38th significant digit of a value as large as `self`: parts of it
    /// that are multiples of this step add up, with their remainder, to it exactly.
    var finestStep: Int {
        Int(exponent) + DecimalDigitTable.digitCount(significand.magnitude) - Self.significantDigits
    }

    /// self × b ÷ c (c ≠ 0; 0 when c is 0): a lot's share of its cost.
    public func multiplied(by b: PreciseDecimal, dividedBy c: PreciseDecimal) -> PreciseDecimal {
        (self * b).divided(by: c) ?? .zero
    }

    /// −1, 0 or 1 as a is below, equal to or above b.
    @usableFromInline static func compare(_ a: PreciseDecimal, _ b: PreciseDecimal) -> Int {
        let signA = a.significand.signum()
        let signB = b.significand.signum()
        if signA != signB { return signA < signB ? -1 : 1 }
        if signA == 0 { return 0 }
        let order = compareMagnitudes(a, b)
        return signA > 0 ? order : -order
    }

    private static func compareMagnitudes(_ a: PreciseDecimal, _ b: PreciseDecimal) -> Int {
        let x = a.significand.magnitude
        let y = b.significand.magnitude
        if a.exponent == b.exponent { return x < y ? -1 : (x > y ? 1 : 0) }
        // Line the one of the larger exponent up with the other; when that overflows 128 bits it
        // is the larger (the other is below 10³⁸).
        let shift = abs(Int(a.exponent) - Int(b.exponent))
        guard shift <= 38 else { return a.exponent > b.exponent ? 1 : -1 }
        if a.exponent > b.exponent {
            let (scaled, overflow) = x.multipliedReportingOverflow(by: DecimalDigitTable.power(shift))
            if overflow { return 1 }
            return scaled < y ? -1 : (scaled > y ? 1 : 0)
        }
        let (scaled, overflow) = y.multipliedReportingOverflow(by: DecimalDigitTable.power(shift))
        if overflow { return -1 }
        return x < scaled ? -1 : (x > scaled ? 1 : 0)
    }

    /// Whether a is below b. Inlined: two significands of 64 bits whose exponents differ by at
    /// most 18 compare in 64-bit arithmetic when lined up without overflow; the rest `compare`.
    @inlinable @inline(__always)
    public static func < (a: PreciseDecimal, b: PreciseDecimal) -> Bool {
        if let x = a.smallSignificand, let y = b.smallSignificand {
            if a.exponent == b.exponent { return x < y }
            if a.exponent > b.exponent {
                let shift = Int(a.exponent) - Int(b.exponent)
                if shift <= 18 {
                    let (scaled, overflow) = x.multipliedReportingOverflow(by: DecimalDigitTable.smallPower(shift))
                    if !overflow { return scaled < y }
                }
            } else {
                let shift = Int(b.exponent) - Int(a.exponent)
                if shift <= 18 {
                    let (scaled, overflow) = y.multipliedReportingOverflow(by: DecimalDigitTable.smallPower(shift))
                    if !overflow { return x < scaled }
                }
            }
        }
        return compare(a, b) < 0
    }
    /// Whether a and b are the same number (1.50 equals 1.5).
    public static func == (a: PreciseDecimal, b: PreciseDecimal) -> Bool {
        a.exponent == b.exponent ? a.significand == b.significand : compare(a, b) == 0
    }

    /// Hashes the number, not its spelling.
    public func hash(into hasher: inout Hasher) {
        let (digits, exponent) = normalized
        hasher.combine(significand < 0)
        hasher.combine(digits)
        hasher.combine(exponent)
    }

    /// Whether `value` % 10 == 0, without a 128-bit division (most long significands end in
    /// another digit): even, and a multiple of 5 — 2⁶⁴ ≡ 1 (mod 5), so the remainders of the
    /// two 64-bit halves add up to the whole's.
    @inline(__always) static func isMultipleOfTen(_ value: UInt128) -> Bool {
        let low = UInt64(truncatingIfNeeded: value)
        let high = UInt64(truncatingIfNeeded: value >> 64)
        return low & 1 == 0 && (low % 5 + high % 5) % 5 == 0
    }

    /// The magnitude without trailing zeros and its exponent ((0, 0) for zero).
    var normalized: (digits: UInt128, exponent: Int) {
        var digits = significand.magnitude
        guard digits != 0 else { return (0, 0) }
        var exponent = Int(self.exponent)
        while digits > UInt128(truncatingIfNeeded: UInt64.max), Self.isMultipleOfTen(digits) {
            digits /= 10
            exponent += 1
        }
        if digits <= UInt128(truncatingIfNeeded: UInt64.max) {
            var small = UInt64(digits)
            while small % 10 == 0 {
                small /= 10
                exponent += 1
            }
            digits = UInt128(truncatingIfNeeded: small)
        }
        return (digits, exponent)
    }
}
