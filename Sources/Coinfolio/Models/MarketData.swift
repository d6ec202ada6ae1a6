/// Global market figures: `data` of CoinGecko `GET /global`. Every field is optional.
public struct MarketData: Hashable, Sendable {
    /// `total_market_cap`: the whole market's capitalization by currency code (`usd`, `eur`, `btc`…).
    public var totalMarketCap: [String: Double]?
    /// `total_volume`: 24 h trading volume by currency code.
    public var totalVolume: [String: Double]?
    /// `market_cap_percentage`: share of the total market cap by coin symbol (`btc`, `eth`…),
    /// percent units.
    public var marketCapPercentage: [String: Double]?
    /// `market_cap_change_percentage_24h_usd`, percent units.
    public var marketCapChangePercentage24hUSD: Double?
    /// `active_cryptocurrencies`.
    public var activeCryptocurrencies: Int?
    /// `markets`: the number of exchanges.
    public var markets: Int?
    /// `updated_at`, Unix seconds.
    public var updatedAt: Int?
    /// Fields of the decoded body read as null because of their type (`index` and `id` nil,
    /// `field` like `"total_market_cap.eur"`); empty for data built in code. See `DecodeWarning`.
    public var warnings: [DecodeWarning] = []

    /// Market data with the given figures (all optional).
    public init(
        totalMarketCap: [String: Double]? = nil, totalVolume: [String: Double]? = nil,
        marketCapPercentage: [String: Double]? = nil, marketCapChangePercentage24hUSD: Double? = nil,
        activeCryptocurrencies: Int? = nil, markets: Int? = nil, updatedAt: Int? = nil
    ) {
        self.totalMarketCap = totalMarketCap
        self.totalVolume = totalVolume
        self.marketCapPercentage = marketCapPercentage
        self.marketCapChangePercentage24hUSD = marketCapChangePercentage24hUSD
        self.activeCryptocurrencies = activeCryptocurrencies
        self.markets = markets
        self.updatedAt = updatedAt
    }
}
