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

    /// a × b, exact.
    init(_ a: UInt128, times b: UInt128) {
        let product = a.multipliedFullWidth(by: b)
        self.init(high: product.high, low: product.low)
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
        let (_, carried) = high.quotientAndRemainder(dividingBy: divisor)
        return divisor.dividingFullWidth((carried, low))
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
        n <= 38 ? WideMagnitude(low: DecimalDigitTable.power(n)) : WideMagnitude(DecimalDigitTable.power(38), times: DecimalDigitTable.power(n - 38))
    }
}

/// Powers of ten that fit 128 bits, and digit counts.
enum DecimalDigitTable {
    /// 10⁰ … 10³⁸.
    static let powers: [UInt128] = {
        var table: [UInt128] = [1]
        for _ in 1...38 { table.append(table[table.count - 1] * 10) }
        return table
    }()

    /// 10ⁿ for 0 ≤ n ≤ 38.
    @inline(__always) static func power(_ n: Int) -> UInt128 { powers[n] }

    /// Decimal digits of `value` (1 for 0).
    static func digitCount(_ value: UInt128) -> Int {
        let bits = 128 - value.leadingZeroBitCount
        // ⌊bits × log10(2)⌋ is the count or one less.
        let estimate = (bits * 1233) >> 12
        return estimate < 39 && value >= powers[estimate] ? estimate + 1 : max(estimate, 1)
    }
}
