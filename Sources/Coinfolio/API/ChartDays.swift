import Foundation

/// How far back a chart goes: a number of days, or CoinGecko's `max` (all history).
public enum ChartDays: Hashable, Sendable, CustomStringConvertible {
    /// The last `n` days, n ≥ 1.
    case days(Int)
    /// All history CoinGecko has.
    case max

    /// The most days public and demo plans may ask for (CoinGecko error 10012 beyond).
    public static let planLimit = 365
    /// The largest number of days accepted at all (100 years).
    public static let largest = 36_500

    /// The query value: "7", "365", "max".
    public var description: String {
        switch self {
        case .days(let n): return String(n)
        case .max: return "max"
        }
    }

    /// Reads a JSON value: a whole number 1…36500 or the string "max".
    /// - Throws: `.invalidArgument` for anything else.
    init(json value: Any?) throws {
        if let text = value as? String, text == "max" { self = .max; return }
        if let number = value as? Double, number.isFinite, number == number.rounded(), number >= 1, number <= Double(Self.largest) {
            self = .days(Int(number))
            return
        }
        throw CoinfolioError.invalid("days must be a whole number from 1 to \(Self.largest) or \"max\"")
    }
}
