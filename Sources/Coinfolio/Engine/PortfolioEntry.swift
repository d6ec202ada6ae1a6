import Foundation

/// One held coin joined with its market row.
public struct PortfolioEntry: Sendable {
    /// The coin id held.
    public var coinID: String
    /// The snapshot's market row, nil when the coin is not in it (delisted, or no snapshot yet).
    public var coin: Coin? { row.map { $0.snapshot.coins[$0.position] } ?? ownCoin?.coin }
    /// `current_holdings`: units held.
    public var amount: Double
    /// `current_holdings_value` = amount × `current_price`, in vs_currency; nil without a price.
    public var value: Double?

    /// Where the engine found the coin: entries point into the snapshot rather than copying a
    /// `Coin` (30-odd fields), so building and sorting 1,000 of them stays cheap.
    var row: (snapshot: MarketSnapshot, position: Int)?
    private let ownCoin: CoinBox?

    private final class CoinBox: Sendable {
        let coin: Coin
        init(_ coin: Coin) { self.coin = coin }
    }

    /// An entry; `value` in vs_currency, nil without a price.
    public init(coinID: String, coin: Coin?, amount: Double, value: Double?) {
        self.coinID = coinID
        self.amount = amount
        self.value = value
        self.ownCoin = coin.map(CoinBox.init)
    }

    init(coinID: String, row: (snapshot: MarketSnapshot, position: Int)?, amount: Double, value: Double?) {
        self.coinID = coinID
        self.row = row
        self.amount = amount
        self.value = value
        self.ownCoin = nil
    }

    /// Whether the coin has a price, so that its value counts.
    public var isPriceAvailable: Bool { value != nil }

    /// The coin's `price_change_percentage_24h`, read in place (no `Coin` copy).
    var priceChangePercentage24h: Double? {
        if let row { return row.snapshot.coins[row.position].priceChangePercentage24h }
        return ownCoin?.coin.priceChangePercentage24h
    }
}
