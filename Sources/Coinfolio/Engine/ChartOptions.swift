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
        self.init(days: try object["days"].map { try ChartDays(json: $0) } ?? .days(7), interval: try ChartInterval(json: object["interval"]))
    }
}

/// What `PortfolioEngine.portfolioHistory` covers.
///
/// JSON form (every key optional): `{"portfolio":"main"}`.
public struct PortfolioHistoryOptions: Hashable, Sendable {
    /// The portfolio's name. The holdings store has one portfolio, `main`.
    public var portfolio: String

    /// Options for `portfolio`.
    public init(portfolio: String = "main") { self.portfolio = portfolio }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a `portfolio` that is not a string.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        var name = "main"
        if let value = object["portfolio"], !(value is NSNull) {
            guard let text = value as? String, !text.isEmpty else { throw CoinfolioError.invalid("portfolio must be a non-empty string") }
            name = text
        }
        self.init(portfolio: name)
    }
}
