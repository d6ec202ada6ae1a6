/// The CoinGecko endpoints Coinfolio calls, for request counting: also the keys of the metrics'
/// `http_requests` object.
public enum Endpoint: String, CaseIterable, Sendable, WireKeys {
    /// `GET /coins/markets`
    case markets
    /// `GET /global`
    case global
    /// `GET /coins/{id}`
    case detail
    /// `GET /coins/{id}/market_chart`
    case marketChart = "market_chart"
    /// `GET /coins/{id}/market_chart/range`
    case marketChartRange = "market_chart_range"
    /// `GET /simple/price`
    case simplePrice = "simple_price"
}
