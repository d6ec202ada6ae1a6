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
    /// The owner's manual current price that valued the coin (SPEC §17: a coin the snapshot does
    /// not have, set with `setPrice` without a time); nil when the snapshot priced it, or nothing did.
    public var manualPrice: ExactDecimal?

    /// An entry; `value` in vs_currency, nil without a price.
    public init(coinID: String, coin: Coin?, amount: Double, value: Double?, manualPrice: ExactDecimal? = nil) {
        self.coinID = coinID
        self.coin = coin
        self.amount = amount
        self.value = value
        self.manualPrice = manualPrice
    }

    /// Whether the coin has a price, so that its value counts.
    public var isPriceAvailable: Bool { value != nil }

    /// `price_source`: `"manual"` (the owner's manual current price), `"coingecko"` (the
    /// snapshot's `current_price`), or nil without a price.
    public var priceSource: String? { value == nil ? nil : (manualPrice == nil ? "coingecko" : "manual") }

    /// The market row written for a held coin the snapshot does not have: its id, and the manual
    /// current price as `current_price` when one valued it.
    static func absentCoin(_ id: String, manualPrice: ExactDecimal?) -> Coin {
        var coin = Coin(id: id, symbol: "", name: "")
        coin.currentPrice = manualPrice?.double
        return coin
    }
}
