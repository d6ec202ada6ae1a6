/// One coin's answer of `GET /simple/price`: its price, 24 h change and update time, each nil
/// when CoinGecko did not give it (an id answered with `{}`, or left out of the answer).
public struct SimplePrice: Hashable, Sendable {
    /// `<vs>`: the price in vs_currency.
    public var price: Double?
    /// `<vs>_24h_change`: the 24 h price change, percent units.
    public var change24h: Double?
    /// `last_updated_at`: when CoinGecko last updated the price, seconds since 1970 (UTC).
    public var lastUpdatedAt: Double?

    /// A price answer; nil for what CoinGecko did not say.
    public init(price: Double? = nil, change24h: Double? = nil, lastUpdatedAt: Double? = nil) {
        self.price = price
        self.change24h = change24h
        self.lastUpdatedAt = lastUpdatedAt
    }
}
