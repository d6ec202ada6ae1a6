extension PreciseDecimal {
    /// big + small rounded half-to-even to 38 digits without 256-bit arithmetic, when big has 38
    /// digits, `shift` (big's exponent − small's, 1…38) and the exact sum has 38 + `shift`
    /// digits: then the rounding drops exactly `shift` digits, which come from small alone.
    /// With small = q·10^shift + r (0 ≤ r < 10^shift), big·10^shift ± small is (big ± q)·10^shift
    /// ± r, so the kept digits are big + q (same signs) or big − q − (r > 0 ? 1 : 0) (opposite
    /// signs, the dropped part then 10^shift − r). nil when the sum has another digit count (a
    /// carry into a 39th digit, or a difference below 10³⁷): `exactlyRounded` then. A running
    /// total of 38-digit quotients (`realized`'s shares of proceeds) takes this path at nearly
    /// every row. `PreciseDecimalAlignedSumTests` ties it to `exactlyRounded`.
    @inline(__always) static func alignedSum(_ big: PreciseDecimal, _ small: PreciseDecimal, _ shift: Int) -> PreciseDecimal? {
        guard shift >= 1, shift <= significantDigits else { return nil }
        let bigMagnitude = big.significand.magnitude
        let divisor = DecimalDigitTable.power(shift)
        let (q, r) = small.significand.magnitude.quotientAndRemainder(dividingBy: divisor)
        let half = divisor >> 1  // 10^shift is even
        let negative = big.significand < 0
        var kept: UInt128
        var dropped: UInt128
        if negative == (small.significand < 0) {
            kept = bigMagnitude + q  // below 2·10³⁸ < 2¹²⁸
            dropped = r
            guard kept < limit else { return nil }
        } else {
            let borrow: UInt128 = r == 0 ? 0 : 1
            guard bigMagnitude >= q + borrow else { return nil }
            kept = bigMagnitude - q - borrow
            dropped = r == 0 ? 0 : divisor - r
            guard kept >= limit / 10 else { return nil }
        }
        if dropped > half || (dropped == half && kept & 1 == 1) { kept += 1 }
        var exponent = Int(big.exponent)
        if kept == limit {
            kept /= 10
            exponent += 1
        }
        return make(negative, kept, exponent)
    }
}
