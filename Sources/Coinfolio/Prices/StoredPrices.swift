/// A coin's price at a time, taken from a stored price point (SPEC §17): what the ledger uses for
/// a trade without a value and for a fee row without a `fee_price` (SPEC §16, "that coin's
/// stored price at that time").
public struct StoredPrice: Hashable, Sendable {
    /// Price per unit in the asked currency, rounded to the ledger's 18 fraction digits.
    public var price: ExactDecimal
    /// `coingecko` (a CoinGecko point) or `manual` (a point the owner set).
    public var source: PriceSource
    /// The point's time (ms since the epoch, UTC): the transaction's `price_at`.
    public var at: Int64

    /// A stored price.
    public init(price: ExactDecimal, source: PriceSource, at: Int64) {
        self.price = price
        self.source = source
        self.at = at
    }
}

/// The seam between the ledger and the price points: the price of `coinID` in `vsCurrency` at a
/// time, by §17's rule without its fetch step (`PriceRule`: a manual point of that UTC day; else
/// the latest stored point in [the day's 00:00, the time]; else the earliest in (the time, the
/// next 00:00); else the snapshot's price within an hour). It never sends a request: ledger writes
/// never do (SPEC §16).
///
/// The engine's `storedPrices` is the store's; `StoredPrices.none` finds nothing, so every price
/// the ledger would take from a point is pending.
public struct StoredPrices: Sendable {
    private let find: @Sendable (_ coinID: String, _ vsCurrency: String, _ at: Int64) -> StoredPrice?

    /// A lookup over some store of points.
    public init(_ find: @escaping @Sendable (_ coinID: String, _ vsCurrency: String, _ at: Int64) -> StoredPrice?) {
        self.find = find
    }

    /// No points: every lookup finds nothing.
    public static let none = StoredPrices { _, _, _ in nil }

    /// The price of `coinID` in `vsCurrency` at `at` (ms since the epoch, UTC), or nil.
    public func price(of coinID: String, in vsCurrency: String, at: Int64) -> StoredPrice? { find(coinID, vsCurrency, at) }
}
