import Foundation

/// What `PortfolioEngine.chart` draws: how many days, at what interval.
///
/// JSON form (every key optional): `{"days":7|"max","interval":"daily"|null}`; days is a whole
/// number from 1 to 36500, default 7.
public struct ChartOptions: Hashable, Sendable {
    /// How far back; clamped to 365 on the public and demo plans.
    public var days: ChartDays
    /// `daily`, or nil for CoinGecko's automatic granularity.
    public var interval: ChartInterval?

    /// Options; 7 days at CoinGecko's granularity by default.
    public init(days: ChartDays = .days(7), interval: ChartInterval? = nil) {
        self.days = days
        self.interval = interval
    }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad value.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        self.init(
            days: try object["days"].map { try ChartDays(json: $0) } ?? .days(7), interval: try ChartInterval(json: object["interval"]))
    }
}
