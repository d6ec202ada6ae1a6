import Foundation

/// The money-weighted return of SPEC §19 (an XIRR over the range): the yearly rate r with
///
///     start_value × (1+r)^(days/365) + Σ flow × (1+r)^(days left/365) = end_value,
///
/// solved for y = ln(1+r) by Newton's method kept inside a bracket (a bisection step whenever
/// Newton would leave it or stall). The equation's number of roots is bounded by the sign changes
/// of its coefficients ordered by exponent (Descartes' rule, which holds for real exponents): with
/// one change there is exactly one root; with none, none; with more, the root is taken only when a
/// scan of growths from e^-20 to e^20 over the range finds exactly one sign change of the
/// equation. Otherwise there is no single root: nil.
enum MoneyWeightedReturn {
    /// One term: an amount (the start value, or a flow: in > 0, out < 0) and the years it grows
    /// until the end (days ÷ 365).
    typealias Term = (amount: Double, years: Double)

    /// The yearly rate r (0.1277 for 12.77 %), or nil when the equation has no single root (or
    /// the rate is beyond a double, or the range has no length).
    static func yearlyRate(_ terms: [Term], end: Double) -> Double? {
        var coefficients = terms.filter { $0.amount != 0 && $0.amount.isFinite && $0.years.isFinite }
        guard end.isFinite, let longest = coefficients.map(\.years).max(), longest > 0 else { return nil }
        if end != 0 { coefficients.append((-end, 0)) }
        // A sum with nothing coming back: everything was lost, −100 %.
        if end == 0, coefficients.allSatisfy({ $0.amount > 0 }) { return -1 }
        coefficients.sort { $0.years > $1.years }
        // y is bounded so that e^(y × years) stays finite.
        let limit = 700 / longest
        func value(_ y: Double) -> Double { coefficients.reduce(0) { $0 + $1.amount * exp(y * $1.years) } }
        func slope(_ y: Double) -> Double { coefficients.reduce(0) { $0 + $1.amount * $1.years * exp(y * $1.years) } }
        var changes = 0
        for index in coefficients.indices.dropFirst() where (coefficients[index].amount < 0) != (coefficients[index - 1].amount < 0) {
            changes += 1
        }
        guard changes > 0 else { return nil }
        guard let (low, high) = changes == 1 ? bracket(value, limit: limit) : scan(value, longest: longest) else { return nil }
        let y = solve(value, slope, low, high)
        let rate = expm1(y)
        return rate.isFinite ? rate : nil
    }

    /// With one sign change: the root lies where `value` changes sign, found by widening from 0.
    private static func bracket(_ value: (Double) -> Double, limit: Double) -> (Double, Double)? {
        let atZero = value(0)
        if atZero == 0 { return (0, 0) }
        var previous = 0.0
        var step = min(0.1, limit)
        while true {
            if (value(step) < 0) != (atZero < 0) { return (previous, step) }
            if (value(-step) < 0) != (atZero < 0) { return (-step, -previous) }
            if step >= limit { return nil }
            previous = step
            step = min(step * 2, limit)
        }
    }

    /// With several sign changes: the one interval where `value` changes sign on a scan of the
    /// range's growth e^(y × longest) from e^-20 to e^20 in steps of 0.1 in its logarithm; nil
    /// when there is none or more than one.
    private static func scan(_ value: (Double) -> Double, longest: Double) -> (Double, Double)? {
        var found: (Double, Double)?
        var previousY = -20 / longest
        var previous = value(previousY)
        for step in -199...200 {
            let y = Double(step) / 10 / longest
            let current = value(y)
            if current == 0 || (current < 0) != (previous < 0) {
                guard found == nil else { return nil }
                found = (previousY, y)
            }
            (previousY, previous) = (y, current)
        }
        return found
    }

    /// Newton's method inside [low, high] (where `value` changes sign), bisecting when a step
    /// would leave the bracket.
    private static func solve(_ value: (Double) -> Double, _ slope: (Double) -> Double, _ low: Double, _ high: Double) -> Double {
        guard low < high else { return low }
        var (low, high) = (low, high)
        let lowNegative = value(low) < 0
        var y = (low + high) / 2
        if low <= 0, high >= 0 { y = 0 }
        for _ in 0..<200 {
            let current = value(y)
            if current == 0 { return y }
            if (current < 0) == lowNegative { low = y } else { high = y }
            let derivative = slope(y)
            var next = y - current / derivative
            if !next.isFinite || next <= low || next >= high { next = (low + high) / 2 }
            if abs(next - y) <= 1e-15 * max(1, abs(y)) || high - low <= 1e-15 * max(1, abs(y)) { return next }
            y = next
        }
        return y
    }
}
