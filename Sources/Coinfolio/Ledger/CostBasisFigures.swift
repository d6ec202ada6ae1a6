/// One coin's cost-basis figures after all its entries, as `CoinCostBasis` leaves them: what a
/// P&L report needs of the coin besides its current price. They depend only on the ledger and the
/// method, so an engine keeps them while the owner's ledger does not change
/// (`LedgerDerivations`); decimals in the portfolio's currency (units: coin units), exact.
struct CostBasisFigures: Sendable {
    /// Units held.
    var amount: PreciseDecimal
    /// The units of known cost still held, and their cost.
    var knownUnits: PreciseDecimal
    var knownCost: PreciseDecimal
    /// Net proceeds − cost over disposed units whose cost and proceeds are both known; the cost
    /// and the units of those.
    var realized: PreciseDecimal
    var realizedCost: PreciseDecimal
    var realizedUnits: PreciseDecimal
    /// Every unit sold or paid as a fee.
    var disposedUnits: PreciseDecimal
    /// Σ fee values; nil once a fee's value is pending.
    var fees: PreciseDecimal?
    /// Σ amount × price of income with a known price, the units and rows of income.
    var income: PreciseDecimal
    var incomeUnits: PreciseDecimal
    var incomeKnownUnits: PreciseDecimal
    var incomeRows: Int
    var incomeKnownRows: Int
}

extension CoinCostBasis {
    /// The figures a report reads (`CostBasisFigures`).
    var figures: CostBasisFigures {
        let known = known
        return CostBasisFigures(
            amount: amount, knownUnits: known.units, knownCost: known.cost, realized: realized, realizedCost: realizedCost,
            realizedUnits: realizedUnits, disposedUnits: disposedUnits, fees: feesKnown ? fees : nil, income: income,
            incomeUnits: incomeUnits, incomeKnownUnits: incomeKnownUnits, incomeRows: incomeRows, incomeKnownRows: incomeKnownRows)
    }
}

extension CostBasisFigures {
    /// The remaining cost of the known-cost units: 0 when no units are held; nil when units are
    /// held and none has a known cost.
    var costBasis: PreciseDecimal? { amount.isZero ? .zero : (knownUnits.isZero ? nil : knownCost) }

    /// Value of the known-cost units at `price` − their cost; nil without a price.
    func unrealizedPnL(costBasis: PreciseDecimal, price: PreciseDecimal?) -> PreciseDecimal? {
        price.map { knownUnits * $0 - costBasis }
    }
}
