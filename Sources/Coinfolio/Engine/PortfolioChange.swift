/// The portfolio's 24 h change, counting only the holdings whose change is known (SPEC §10).
///
/// For each priced holding the value 24 h ago is `amount × (current_price − price_change_24h)`
/// when `price_change_24h` is known, else `value / (1 + p/100)` with p =
/// `price_change_percentage_24h` when that is known and above −100, else unknown. Holdings with
/// an unknown previous value are left out of both sums (never counted as 0 %).
///
///     // 1 of coin A at 1 (change unknown) and 1 of coin B at 1 after −50 %:
///     // percentage −50.0, coverage 0.5, coinsWithChange 1, pricedCoins 2
public struct PortfolioChange: Hashable, Sendable {
    /// (Σ now − Σ before) / Σ before × 100 over the holdings whose change is known, in percent
    /// units; nil when `coverage` is 0, Σ before ≤ 0 or the result is not finite.
    public var percentage: Double?
    /// The share (0…1) of the current portfolio value whose change is known. When every priced
    /// holding is worth 0 now, the share of priced holdings instead (a coin at 0 after −100 %
    /// has a known change). 0 without priced holdings.
    public var coverage: Double
    /// Priced holdings whose value 24 h ago is known.
    public var coinsWithChange: Int
    /// Holdings with a price (those counted in the portfolio value).
    public var pricedCoins: Int

    /// A change; `percentage` in percent units, `coverage` 0…1.
    public init(percentage: Double?, coverage: Double, coinsWithChange: Int, pricedCoins: Int) {
        self.percentage = percentage
        self.coverage = coverage
        self.coinsWithChange = coinsWithChange
        self.pricedCoins = pricedCoins
    }

    /// Whether some priced holdings are left out of the figure (0 < coverage < 1 or some coins
    /// without a known change): the CLI then says "(1 of 2 coins)".
    public var isPartial: Bool { percentage != nil && coinsWithChange < pricedCoins }

    /// The value of `amount` units 24 h ago; nil when unknown. `value` is amount × price now;
    /// `price`, `change` and `percent` are the row's `current_price`, `price_change_24h` and
    /// `price_change_percentage_24h`.
    static func previousValue(amount: Double, value: Double, price: Double?, change: Double?, percent: Double?) -> Double? {
        if let change, change.isFinite, let price {
            let before = amount * (price - change)
            return before.isFinite ? before : nil
        }
        if let percent, percent.isFinite, percent > -100 {
            let before = value / (1 + percent / 100)
            return before.isFinite ? before : nil
        }
        return nil
    }

    /// The change over `held` (their `value` is nil when unpriced), reading the market rows of
    /// `snapshot` in place: copying 1,000 `Coin`s would cost more than the whole sum.
    init(held: [HeldCoin], in snapshot: MarketSnapshot?) {
        var now = 0.0, before = 0.0, total = 0.0
        var known = 0, priced = 0
        for entry in held {
            guard let value = entry.value else { continue }
            priced += 1
            total += value
            guard let snapshot, let position = entry.position else { continue }
            let row = snapshot.coins.priceAndChange(at: position)
            guard
                let previous = Self.previousValue(
                    amount: entry.amount, value: value, price: row.price, change: row.change, percent: row.percent)
            else { continue }
            known += 1
            now += value
            before += previous
        }
        var coverage = 0.0
        if total != 0, total.isFinite {
            coverage = min(max(now / total, 0), 1)
        } else if priced > 0 {
            coverage = Double(known) / Double(priced)
        }
        var percentage: Double?
        if coverage > 0, before.isFinite, before > 0 {
            let percent = (now - before) / before * 100
            if percent.isFinite { percentage = percent }
        }
        self.init(percentage: percentage, coverage: coverage, coinsWithChange: known, pricedCoins: priced)
    }
}
