/// One held coin joined with its market row.
public struct PortfolioEntry: Sendable {
    /// The coin id held.
    public var coinID: String
    /// The snapshot's market row, nil when the coin is not in it (delisted, or no snapshot yet).
    public var coin: Coin?
    /// `current_holdings`: units held.
    public var amount: Double
    /// `current_holdings_value` = amount × `current_price`, in vs_currency; nil without a price.
    public var value: Double?

    /// An entry; `value` in vs_currency, nil without a price.
    public init(coinID: String, coin: Coin?, amount: Double, value: Double?) {
        self.coinID = coinID
        self.coin = coin
        self.amount = amount
        self.value = value
    }

    /// Whether the coin has a price, so that its value counts.
    public var isPriceAvailable: Bool { value != nil }
}
