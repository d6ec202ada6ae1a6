/// A holding joined with the snapshot, as the engine works with it: the coin's position in the
/// snapshot rather than a copy of its `Coin` (30-odd fields), so that building and sorting 1,000
/// of them stays cheap. The public result is `PortfolioEntry`.
struct HeldCoin {
    var coinID: String
    /// Where the coin is in the snapshot's `coins`; nil when it is not there.
    var position: Int?
    var amount: Double
    /// amount × `current_price`, nil without a price (or when not finite).
    var value: Double?
    /// The owner's manual current price valued the coin (SPEC §17: it is not in the snapshot).
    var manualPrice: ExactDecimal? = nil

    /// `price_source` of the entry: "manual", "coingecko" (the snapshot's `current_price`), or
    /// nil without a price.
    var priceSource: String? { value == nil ? nil : (manualPrice == nil ? "coingecko" : "manual") }
}
