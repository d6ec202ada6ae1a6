/// A 256-bit unsigned integer, only as wide as `PreciseDecimal` needs: the exact product of two
/// 38-digit significands, or a significand shifted up to line up with another, before it is
/// rounded back to 38 digits.
struct WideMagnitude: Comparable {
    var high: UInt128
    var low: UInt128

    init(high: UInt128 = 0, low: UInt128) {
        self.high = high
        self.low = low
    }

    /// a × b, exact: four 64-bit products of the processor (the generic 128-bit full-width
    /// product is several times slower).
    init(_ a: UInt128, times b: UInt128) {
        let (a1, a0) = (UInt64(truncatingIfNeeded: a >> 64), UInt64(truncatingIfNeeded: a))
        let (b1, b0) = (UInt64(truncatingIfNeeded: b >> 64), UInt64(truncatingIfNeeded: b))
        let p00 = a0.multipliedFullWidth(by: b0)
        let p01 = a0.multipliedFullWidth(by: b1)
        let p10 = a1.multipliedFullWidth(by: b0)
        let p11 = a1.multipliedFullWidth(by: b1)
        // Words of the product, lowest first, each carrying into the next.
        var (word1, c1) = p00.high.addingReportingOverflow(p01.low)
        var (sum1, c2) = word1.addingReportingOverflow(p10.low)
        word1 = sum1
        var carry: UInt64 = (c1 ? 1 : 0) + (c2 ? 1 : 0)
        var (word2, c3) = p01.high.addingReportingOverflow(p10.high)
        (sum1, c1) = word2.addingReportingOverflow(p11.low)
        word2 = sum1
        var high2: UInt64 = (c3 ? 1 : 0) + (c1 ? 1 : 0)
        (word2, c2) = word2.addingReportingOverflow(carry)
        high2 += c2 ? 1 : 0
        carry = high2
        let word3 = p11.high &+ carry
        self.init(
            high: UInt128(truncatingIfNeeded: word3) << 64 | UInt128(truncatingIfNeeded: word2),
            low: UInt128(truncatingIfNeeded: word1) << 64 | UInt128(truncatingIfNeeded: p00.low))
    }

    static func < (a: WideMagnitude, b: WideMagnitude) -> Bool { a.high != b.high ? a.high < b.high : a.low < b.low }

    /// a + b (the callers' values stay far below 2²⁵⁶).
    static func + (a: WideMagnitude, b: WideMagnitude) -> WideMagnitude {
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        return WideMagnitude(high: a.high &+ b.high &+ (carry ? 1 : 0), low: low)
    }

    /// a − b for a ≥ b.
    static func - (a: WideMagnitude, b: WideMagnitude) -> WideMagnitude {
        let (low, borrow) = a.low.subtractingReportingOverflow(b.low)
        return WideMagnitude(high: a.high &- b.high &- (borrow ? 1 : 0), low: low)
    }

    /// The quotient and remainder of a division by `divisor` (> 0); the quotient must fit 128
    /// bits, which the callers ensure.
    func divided(by divisor: UInt128) -> (quotient: UInt128, remainder: UInt128) {
        if divisor >> 64 == 0 { return divided(bySmall: UInt64(divisor)) }
        let (_, carried) = high.quotientAndRemainder(dividingBy: divisor)
        return divisor.dividingFullWidth((carried, low))
    }

    /// As `divided(by:)` for a divisor of 64 bits: four divisions of the processor, 64 bits of the
    /// value at a time, each with the remainder of the one before.
    func divided(bySmall divisor: UInt64) -> (quotient: UInt128, remainder: UInt128) {
        let (_, r3) = divisor.dividingFullWidth((0, UInt64(truncatingIfNeeded: high >> 64)))
        let (_, r2) = divisor.dividingFullWidth((r3, UInt64(truncatingIfNeeded: high)))
        let (q1, r1) = divisor.dividingFullWidth((r2, UInt64(truncatingIfNeeded: low >> 64)))
        let (q0, r0) = divisor.dividingFullWidth((r1, UInt64(truncatingIfNeeded: low)))
        // The quotient fits 128 bits (the callers' values stay below 10⁷⁷ and drop ≥ 1 digit
        // per 3.4 bits), so its two upper limbs are zero.
        return (UInt128(truncatingIfNeeded: q1) << 64 | UInt128(truncatingIfNeeded: q0), UInt128(truncatingIfNeeded: r0))
    }

    /// How many decimal digits the value has (1 for 0); values stay below 10⁷⁷.
    var digitCount: Int {
        guard high != 0 else { return DecimalDigitTable.digitCount(low) }
        let bits = 256 - high.leadingZeroBitCount
        // ⌊bits × log10(2)⌋ is the count or one less.
        let estimate = (bits * 1233) >> 12
        return estimate <= 76 && !(self < Self.power(estimate)) ? estimate + 1 : estimate
    }

    /// 10ⁿ for 0 ≤ n ≤ 76.
    static func power(_ n: Int) -> WideMagnitude {
        n <= 38
            ? WideMagnitude(low: DecimalDigitTable.power(n))
            : WideMagnitude(DecimalDigitTable.power(38), times: DecimalDigitTable.power(n - 38))
    }
}

/// Powers of ten that fit 128 bits, and digit counts. The powers are constants in a switch, not
/// an array: a static array costs a lazy-initialisation check and a retain on every read, which
/// showed in every decimal sum of a pnl.
@usableFromInline enum DecimalDigitTable {
    /// 10ⁿ for 0 ≤ n ≤ 18.
    @inlinable @inline(__always) static func smallPower(_ n: Int) -> Int64 {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        default: return 1_000_000_000_000_000_000
        }
    }

    /// 10ⁿ for 0 ≤ n ≤ 38 (0 for any other n).
    @inline(__always) static func power(_ n: Int) -> UInt128 {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        case 18: return 1_000_000_000_000_000_000
        case 19: return 10_000_000_000_000_000_000
        case 20: return 100_000_000_000_000_000_000
        case 21: return 1_000_000_000_000_000_000_000
        case 22: return 10_000_000_000_000_000_000_000
        case 23: return 100_000_000_000_000_000_000_000
        case 24: return 1_000_000_000_000_000_000_000_000
        case 25: return 10_000_000_000_000_000_000_000_000
        case 26: return 100_000_000_000_000_000_000_000_000
        case 27: return 1_000_000_000_000_000_000_000_000_000
        case 28: return 10_000_000_000_000_000_000_000_000_000
        case 29: return 100_000_000_000_000_000_000_000_000_000
        case 30: return 1_000_000_000_000_000_000_000_000_000_000
        case 31: return 10_000_000_000_000_000_000_000_000_000_000
        case 32: return 100_000_000_000_000_000_000_000_000_000_000
        case 33: return 1_000_000_000_000_000_000_000_000_000_000_000
        case 34: return 10_000_000_000_000_000_000_000_000_000_000_000
        case 35: return 100_000_000_000_000_000_000_000_000_000_000_000
        case 36: return 1_000_000_000_000_000_000_000_000_000_000_000_000
        case 37: return 10_000_000_000_000_000_000_000_000_000_000_000_000
        case 38: return 100_000_000_000_000_000_000_000_000_000_000_000_000
        default: return 0
        }
    }

    /// Decimal digits of `value` (1 for 0).
    static func digitCount(_ value: UInt128) -> Int {
        let bits = 128 - value.leadingZeroBitCount
        // ⌊bits × log10(2)⌋ is the count or one less.
        let estimate = (bits * 1233) >> 12
        return estimate < 39 && value >= power(estimate) ? estimate + 1 : max(estimate, 1)
    }
}
