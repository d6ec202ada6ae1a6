import Foundation

/// The round values a chart's value axis is labelled with, and their labels.
///
/// The step between ticks is 1, 2 or 5 × 10ⁿ; there are 3 to 6 ticks (fewer than 6 only where
/// the height has no room for 6 labels); the first is at or below the lowest value and the last at
/// or above the highest, so the axis covers the data and the chart's scale runs from the first
/// tick to the last. Of the steps that give at most that many ticks the smallest is taken, so the
/// line fills as much of the height as round ticks allow (28,368…40,697 → 25,000, 30,000, …,
/// 45,000; 0.98…1.02 → 0.98, 0.99, …, 1.02).
///
/// A flat series (a single value) gets three ticks: its value rounded to a step of 1, 2 or 5 ×
/// 10ⁿ that is at least 1 % of it (1 for 0), and one step either side (1 → 0.99, 1, 1.01).
///
/// Labels are `NumberFormat.tick`: the currency's digits as `cf_format_value` writes them, more
/// where the step needs them. Extremes no round tick can express (a range that overflows, or
/// finer than a Double resolves) fall back to the highest, middle and lowest values written as
/// prices (`NumberFormat.price`).
struct ValueAxis: Equatable {
    /// The tick values, ascending.
    var ticks: [Double]
    /// The tick labels, in the order of `ticks`.
    var labels: [String]

    /// The bottom of the scale (the first tick).
    var low: Double { ticks.first ?? 0 }
    /// The top of the scale (the last tick).
    var high: Double { ticks.last ?? 0 }

    /// The most ticks an axis has.
    static let mostTicks = 6
    /// The fewest ticks an axis has.
    static let fewestTicks = 3

    /// The axis of values from `low` to `high` (finite, `low` ≤ `high`) in `vsCurrency`, with at
    /// most `maximumCount` ticks (clamped to 3…6).
    init(low: Double, high: Double, vsCurrency: VsCurrency, maximumCount: Int = mostTicks) {
        if let (first, count, step) = Self.round(low: low, high: high, maximumCount: maximumCount) {
            ticks = (0..<count).map { step.value(first + $0) }
            labels = ticks.map { NumberFormat.tick($0, fractionDigits: step.fractionDigits, vsCurrency: vsCurrency) }
        } else {
            ticks = low < high ? [low, high / 2 + low / 2, high] : [low]
            labels = ticks.map { NumberFormat.price($0, vsCurrency: vsCurrency) }
        }
    }

    /// A step of `mantissa` × 10^`exponent`, mantissa 1, 2, 5 (or 10 while searching).
    struct Step: Equatable {
        var mantissa: Int
        var exponent: Int

        /// The digits after the point that multiples of the step need.
        var fractionDigits: Int { max(0, -exponent) }

        /// `multiple` × the step, computed so that round values are the nearest Double
        /// (98 × 0.01 is 0.98, not 0.9800000000000001).
        func value(_ multiple: Int) -> Double {
            let whole = Double(multiple) * Double(mantissa)
            return exponent >= 0 ? whole * pow(10, Double(exponent)) : whole / pow(10, Double(-exponent))
        }

        /// The step as a Double.
        var size: Double { value(1) }

        /// The next step up: 1 → 2 → 5 → 10.
        var next: Step {
            switch mantissa {
            case 1: return Step(mantissa: 2, exponent: exponent)
            case 2: return Step(mantissa: 5, exponent: exponent)
            default: return Step(mantissa: 1, exponent: exponent + 1)
            }
        }
    }

    /// The first multiple, the count and the step of the round ticks, or nil when they cannot be
    /// expressed (see the type's comment).
    static func round(low: Double, high: Double, maximumCount: Int = mostTicks) -> (first: Int, count: Int, step: Step)? {
        guard low.isFinite, high.isFinite, low <= high else { return nil }
        let most = min(max(maximumCount, fewestTicks), mostTicks)
        if low == high { return flat(low) }
        // Halves, so that a range near ±Double.greatestFiniteMagnitude does not overflow.
        let halfRange = high / 2 - low / 2
        guard halfRange > 0, halfRange.isFinite else { return nil }
        // One decade below the step of about six intervals: that step gives far more than 6 ticks.
        var step = Step(mantissa: 1, exponent: Int((log10(halfRange) + log10(2.0 / 6)).rounded(.down)) - 1)
        for _ in 0..<12 {
            let size = step.size
            guard size > 0, size.isFinite else { return nil }
            let first = Self.multiple(low / size, .down), last = Self.multiple(high / size, .up)
            guard abs(first) < 1e15, abs(last) < 1e15 else { return nil }
            let count = Int(last - first) + 1
            if count <= most {
                return checked(first: Int(first), count: max(count, fewestTicks), step: step)
            }
            step = step.next
        }
        return nil
    }

    /// `quotient` rounded to a whole multiple, taking one within a few ulps of a whole number as
    /// that number (0.98 / 0.01 is 97.99999999999999: the tick is 0.98, not 0.97).
    private static func multiple(_ quotient: Double, _ rule: FloatingPointRoundingRule) -> Double {
        let nearest = quotient.rounded()
        return abs(quotient - nearest) <= 1e-12 * max(1, abs(quotient)) ? nearest : quotient.rounded(rule)
    }

    /// Three ticks around a flat series' value.
    private static func flat(_ value: Double) -> (first: Int, count: Int, step: Step)? {
        guard value != 0 else { return (-1, 3, Step(mantissa: 1, exponent: 0)) }
        let target = abs(value) / 100
        guard target > 0, target.isFinite else { return nil }
        var step = Step(mantissa: 1, exponent: Int(log10(target).rounded(.down)))
        // log10 may round across a power of ten; at most a few steps correct it.
        while step.size > target, step.exponent > -400 { step.exponent -= 1 }
        while step.size < target, step.exponent < 400 { step = step.next }
        let size = step.size
        guard size > 0, size.isFinite else { return nil }
        let centre = (value / size).rounded()
        guard abs(centre) < 1e15 else { return nil }
        return checked(first: Int(centre) - 1, count: 3, step: step)
    }

    /// The ticks when they are finite and strictly increasing (a Double resolves them).
    private static func checked(first: Int, count: Int, step: Step) -> (first: Int, count: Int, step: Step)? {
        var previous = -Double.infinity
        for multiple in first..<(first + count) {
            let value = step.value(multiple)
            guard value.isFinite, value > previous else { return nil }
            previous = value
        }
        return (first, count, step)
    }
}
