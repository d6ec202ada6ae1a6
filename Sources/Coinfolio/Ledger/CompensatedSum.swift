/// A running sum of `PreciseDecimal`s that keeps what each 38-digit rounding drops, so the total
/// is the exact sum rounded once (SPEC §12 "Exact amounts"): `realized`'s totals add shares of
/// proceeds and cost that are 38-digit quotients, and a plain running sum, rounded at every row,
/// ends with dust (102290.79932187982535460000000000000001) where the exact sum terminates
/// (102290.7993218798253546).
///
/// Each addition s = a + b that rounds (its exponent above the smaller operand's) leaves the
/// residue (a + b) − s, which is exact as (big − s) + small, big being the operand of the larger
/// exponent: big − s is a multiple of 10^exponent(s) below 10^(38 − dropped digits) + 1 in units
/// of it, so it has at most 38 digits; the residue itself is below half a unit of s and lies in
/// the digits s dropped (at most 39, when a carry adds one: then it is rounded again, 76 digits
/// below the sum). The residues add up in `dropped`; `total` is `sum + dropped`.
/// `CompensatedSumTests` ties it to the exact sum of rational numbers.
struct CompensatedSum: Hashable, Sendable {
    /// The running sum, rounded at each addition as `+` rounds.
    private(set) var sum = PreciseDecimal.zero
    /// Σ what the roundings of `sum` dropped.
    private(set) var dropped = PreciseDecimal.zero

    /// Adds `value`.
    @inline(__always) mutating func add(_ value: PreciseDecimal) {
        let before = sum
        sum = before + value
        // Exact unless the result's last digit lies above the smaller operand's (a zero result is exact).
        guard sum.exponent > min(before.exponent, value.exponent), !sum.isZero else { return }
        let (big, small) = before.exponent >= value.exponent ? (before, value) : (value, before)
        dropped += (big - sum) + small
    }

    /// The sum rounded once to 38 digits.
    var total: PreciseDecimal { sum + dropped }
}
