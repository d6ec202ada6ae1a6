extension ExactDecimal {
    /// The units of `value`'s shortest round-trip decimal digits, found without text where that is
    /// quick and provably the same as parsing `value.description`; nil to have the caller parse
    /// the text (a price converts every stored point of a performance report).
    static func shortestUnits(_ value: Double) -> Int128? {
        guard let (digits, places) = shortestDigits(value) else { return nil }
        return Int128(digits) * powersOfTen[fractionDigits - places]
    }

    /// `value` as digits × 10⁻ᵖˡᵃᶜᵉˢ, its shortest round-trip decimal text (0 ≤ places ≤ 17), found
    /// without text where that is quick and provably the same as parsing `value.description`; nil
    /// where the caller has to parse the text.
    ///
    /// For k = 0, 1, … 17 fraction digits, m = round(value × 10ᵏ) is tried while |value × 10ᵏ| <
    /// 2⁴⁹; the first m with m / 10ᵏ (one correctly rounded division of two exact doubles, what
    /// reading the text "m/10ᵏ" gives) equal to `value` is the shortest text's digits. Why: below
    /// 2⁴⁹, ulp(value) × 10ᵏ ≤ |value × 10ᵏ| × 2⁻⁵² < 1/8, so the integers whose k-digit decimal
    /// rounds to `value` lie within 1/16 of the exact product (at most one of them), the computed
    /// product is within 1/32 of it (half its ulp), and rounding finds that integer; fewer fraction digits means fewer
    /// significant digits, so the first k that works is the shortest, and a whole number below
    /// 2⁴⁹ is its own shortest text. At most 17 places, so as units (m × 10¹⁸⁻ᵏ) the value is
    /// exactly what the text's parse gives (no rounding below 18 places). `ExactDecimalDoubleTests`
    /// ties this to the text.
    static func shortestDigits(_ value: Double) -> (digits: Int64, places: Int)? {
        var power = 1.0
        for k in 0...17 {
            let product = value * power
            guard product.magnitude < 562_949_953_421_312 else { return nil }  // 2⁴⁹
            let digits = product.rounded()
            if digits / power == value { return (Int64(digits), k) }
            power *= 10
        }
        return nil
    }
}
