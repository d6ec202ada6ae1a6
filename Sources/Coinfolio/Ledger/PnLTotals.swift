/// The unrealized and realized totals of a P&L (SPEC §6, §12), summed from each coin's
/// `CostBasisFigures`: the one rule of them. `PnLReport.report` sets its totals from it, and the
/// "Unrealized P&L" and "Realized P&L" statistics use it alone, without the report's other
/// figures (a coin's current price is asked for only when its unrealized P&L needs one: a cost
/// basis is known). `PnLTotalsTests` checks them against the coins' own figures. Decimals in the
/// portfolio's currency.
struct PnLTotals {
    /// Σ unrealized P&L of the held coins that have one; nil when coins are held and none has
    /// one (`PnLReport.totalUnrealizedPnL`).
    let unrealizedPnL: PreciseDecimal?
    /// `PnLReport.totalUnrealizedPnLPercentage`: over the cost basis of the coins with an
    /// unrealized P&L.
    let unrealizedPnLPercentage: Double?
    /// Σ realized P&L (`PnLReport.totalRealizedPnL`).
    let realizedPnL: PreciseDecimal
    /// `PnLReport.totalRealizedPnLPercentage`: over the cost of the disposed units.
    let realizedPnLPercentage: Double?

    /// The totals over `figures` (a portfolio's coins) with `price(i)` the current price of
    /// coin i (nil: unknown).
    init(figures: [CostBasisFigures], price: (Int) -> PreciseDecimal?) {
        var unrealized = PreciseDecimal.zero
        var anyUnrealized = false
        var anyHeld = false
        var unrealizedCost = PreciseDecimal.zero
        var realized = PreciseDecimal.zero
        var realizedCost = PreciseDecimal.zero
        for index in figures.indices {
            let coin = figures[index]
            let held = !coin.amount.isZero
            if held { anyHeld = true }
            if let costBasis = coin.costBasis, let coinUnrealized = coin.unrealizedPnL(costBasis: costBasis, price: price(index)) {
                unrealizedCost += costBasis
                if held {
                    unrealized += coinUnrealized
                    anyUnrealized = true
                }
            }
            realized += coin.realized
            realizedCost += coin.realizedCost
        }
        unrealizedPnL = anyUnrealized || !anyHeld ? unrealized : nil
        unrealizedPnLPercentage = unrealizedPnL.flatMap { PnLReport.percentage($0, of: unrealizedCost) }
        realizedPnL = realized
        realizedPnLPercentage = PnLReport.percentage(realized, of: realizedCost)
    }
}
