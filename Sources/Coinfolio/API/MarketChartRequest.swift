import Foundation

/// The query of `GET /coins/{id}/market_chart`.
///
/// JSON form (every key optional): `{"vs_currency":"usd","days":7|"max","interval":"daily"|null}`.
/// Without `interval` CoinGecko picks the granularity from `days` (5-minutely up to 1 day, hourly
/// up to 90 days, daily beyond).
public struct MarketChartRequest: Hashable, Sendable {
    /// Quote currency of the series.
    public var vsCurrency: VsCurrency
    /// How far back.
    public var days: ChartDays
    /// `daily` for one point a day, nil for CoinGecko's automatic granularity.
    public var interval: ChartInterval?

    /// A request; `days` defaults to 7.
    public init(vsCurrency: VsCurrency = .usd, days: ChartDays = .days(7), interval: ChartInterval? = nil) {
        self.vsCurrency = vsCurrency
        self.days = days
        self.interval = interval
    }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad value.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        self.init(
            vsCurrency: try (object["vs_currency"] as? String).map { try VsCurrency($0) } ?? .usd,
            days: try object["days"].map { try ChartDays(json: $0) } ?? .days(7),
            interval: try ChartInterval(json: object["interval"]))
        if let value = object["vs_currency"], !(value is String) { throw CoinfolioError.invalid("vs_currency must be a string") }
    }

    var query: [RequestURL.QueryItem] {
        var items = [RequestURL.QueryItem("vs_currency", vsCurrency.code), RequestURL.QueryItem("days", days.description)]
        if let interval { items.append(RequestURL.QueryItem("interval", interval.rawValue)) }
        return items
    }
}
