/// The CoinGecko endpoints Coinfolio calls, for request counting.
public enum Endpoint: String, CaseIterable, Sendable {
    /// `GET /coins/markets`
    case markets
    /// `GET /global`
    case global
    /// `GET /coins/{id}`
    case detail
}
