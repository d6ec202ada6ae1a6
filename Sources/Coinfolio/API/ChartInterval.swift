import Foundation

/// The granularity of a market chart that a host may ask for.
public enum ChartInterval: String, Hashable, Sendable {
    /// One point a day (00:00 UTC).
    case daily

    /// Reads a JSON value: absent, null or "daily".
    /// - Throws: `.invalidArgument` for anything else.
    init?(json value: Any?) throws {
        guard let value, !(value is NSNull) else { return nil }
        guard let text = value as? String, let interval = ChartInterval(rawValue: text) else {
            throw CoinfolioError.invalid("interval must be \"daily\" or null")
        }
        self = interval
    }
}
