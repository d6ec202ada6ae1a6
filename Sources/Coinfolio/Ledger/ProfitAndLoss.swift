/// One coin's cost basis and profit and loss in a portfolio (SPEC §12, §16). Money values are in
/// the portfolio's quote currency, exact to 38 significant digits (`PreciseDecimal`); "known"
/// means units whose cost is known (not transferred in, no pending price).
public struct CoinPnL: Hashable, Sendable {
    /// CoinGecko coin id.
    public var coinID: String
    /// Units held now.
    public var amount: PreciseDecimal
    /// Remaining cost of the known-cost units; 0 when the amount is 0; nil when units remain but
    /// none has a known cost.
    public var costBasis: PreciseDecimal?
    /// cost_basis ÷ known units; nil without known units.
    public var averageCost: PreciseDecimal?
    /// (cost_basis − realized_pnl) ÷ known units: the price at which selling the rest leaves the
    /// coin's total P&L at zero; nil without known units.
    public var breakevenPrice: PreciseDecimal?
    /// The snapshot's `current_price` (`/coins/markets`), nil when unknown or in another currency;
    /// for a coin the snapshot does not have, the owner's manual current price in the portfolio's
    /// currency (SPEC §17).
    public var currentPrice: PreciseDecimal?
    /// Where `currentPrice` came from: `coingecko` (the snapshot) or `manual`; nil without one.
    public var priceSource: PriceSource?
    /// amount × current price; nil without a price.
    public var currentValue: PreciseDecimal?
    /// Value of the known units − cost_basis; nil without a price or without known units.
    public var unrealizedPnL: PreciseDecimal?
    /// unrealized_pnl ÷ cost_basis × 100 (percent units); nil when cost_basis is 0 or nil.
    public var unrealizedPnLPercentage: Double?
    /// Net proceeds − cost over the units sold or paid as fees whose cost and proceeds are known
    /// (units of unknown cost, and disposals at a pending price, realize nothing).
    public var realizedPnL: PreciseDecimal
    /// Share (0…1) of the units sold or paid as fees whose realized P&L is known; 1 when none.
    public var realizedCoverage: Double
    /// All fees of the coin's transactions: fees in the portfolio's currency and the value of fees
    /// paid in a coin (a trade's fee counts for the received coin); nil while a fee's value is
    /// pending.
    public var fees: PreciseDecimal?
    /// Share (0…1) of the units held whose cost is known; 1 when none is held.
    public var costBasisCoverage: Double
    /// Σ amount × price of the coin's income with a known price.
    public var income: PreciseDecimal
    /// Share (0…1) of the income units whose price is known; 1 when there is no income.
    public var incomeCoverage: Double
    /// Cost of the disposed units realized_pnl is measured against.
    public var realizedCost: PreciseDecimal
    /// Income rows, and those with a known price (for the totals' coverage).
    var incomeRows = 0
    var incomeKnownRows = 0

    func writeJSON(to w: inout JSONWriter) {
        w.key("coin_id"); w.string(coinID)
        w.key("amount"); w.decimal(amount)
        w.key("cost_basis"); w.decimal(costBasis)
        w.key("average_cost"); w.decimal(averageCost)
        w.key("breakeven_price"); w.decimal(breakevenPrice)
        w.key("current_price"); w.decimal(currentPrice)
        w.key("price_source"); w.string(priceSource?.rawValue)
        w.key("current_value"); w.decimal(currentValue)
        w.key("unrealized_pnl"); w.decimal(unrealizedPnL)
        w.key("unrealized_pnl_percentage"); w.number(unrealizedPnLPercentage)
        w.key("realized_pnl"); w.decimal(realizedPnL)
        w.key("realized_coverage"); w.number(realizedCoverage)
        w.key("fees"); w.decimal(fees)
        w.key("cost_basis_coverage"); w.number(costBasisCoverage)
        w.key("income"); w.decimal(income)
        w.key("income_coverage"); w.number(incomeCoverage)
    }
}

/// `pnl({portfolio, method})`: every coin the portfolio ever had (a closed coin stays listed with
/// its realized P&L), by coin id, and the totals.
public struct PnLReport: Hashable, Sendable {
    /// The portfolio's name.
    public var portfolio: String
    /// The portfolio's quote currency: every money value is in it.
    public var vsCurrency: String
    /// The cost basis method used.
    public var method: CostBasisMethod
    /// One entry per coin, ordered by coin id (bytewise).
    public var coins: [CoinPnL]
    /// Σ cost_basis of the coins that have one.
    public var totalCostBasis: PreciseDecimal
    /// Σ current_value of the priced coins; nil when coins are held and none is priced.
    public var totalCurrentValue: PreciseDecimal?
    /// Σ unrealized_pnl where known; nil when coins are held and none is known.
    public var totalUnrealizedPnL: PreciseDecimal?
    /// Σ realized_pnl.
    public var totalRealizedPnL: PreciseDecimal
    /// Σ fees; nil when a coin's fees are unknown (a fee's value pending).
    public var totalFees: PreciseDecimal?
    /// Σ income.
    public var totalIncome: PreciseDecimal
    /// Share (0…1) of the income transactions whose price is known (units of different coins do
    /// not add up); 1 when there is none.
    public var totalIncomeCoverage: Double

    /// unrealized total ÷ the cost basis of the coins whose unrealized P&L is known × 100; nil
    /// when that cost is 0 or unknown.
    public var totalUnrealizedPnLPercentage: Double? {
        guard let unrealized = totalUnrealizedPnL else { return nil }
        var cost = PreciseDecimal.zero
        for coin in coins where coin.unrealizedPnL != nil { cost += coin.costBasis ?? .zero }
        return Self.percentage(unrealized, of: cost)
    }

    /// Σ realized ÷ Σ cost of the disposed units realized P&L is measured against × 100; nil when
    /// none was disposed.
    public var totalRealizedPnLPercentage: Double? {
        var cost = PreciseDecimal.zero
        for coin in coins { cost += coin.realizedCost }
        return Self.percentage(totalRealizedPnL, of: cost)
    }

    /// part ÷ whole × 100 in percent units; nil when whole is 0.
    static func percentage(_ part: PreciseDecimal, of whole: PreciseDecimal) -> Double? {
        guard let ratio = part.divided(by: whole) else { return nil }
        let value = ratio.double * 100
        return value.isFinite ? value : nil
    }

    /// `{"portfolio","vs_currency","method","coins":[{coin_id, amount, cost_basis, average_cost,
    /// breakeven_price, current_price, current_value, unrealized_pnl, unrealized_pnl_percentage,
    /// realized_pnl, realized_coverage, fees, cost_basis_coverage, income, income_coverage}…],
    /// "totals":{cost_basis, current_value, unrealized_pnl, unrealized_pnl_percentage,
    /// realized_pnl, fees, income, income_coverage}}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: coins.count * 440 + 300)
        w.beginObject()
        w.key("portfolio"); w.string(portfolio)
        w.key("vs_currency"); w.string(vsCurrency)
        w.key("method"); w.string(method.rawValue)
        w.key("coins"); w.beginArray()
        for coin in coins { w.beginObject(); coin.writeJSON(to: &w); w.endObject() }
        w.endArray()
        w.key("totals"); w.beginObject()
        w.key("cost_basis"); w.decimal(totalCostBasis)
        w.key("current_value"); w.decimal(totalCurrentValue)
        w.key("unrealized_pnl"); w.decimal(totalUnrealizedPnL)
        w.key("unrealized_pnl_percentage"); w.number(totalUnrealizedPnLPercentage)
        w.key("realized_pnl"); w.decimal(totalRealizedPnL)
        w.key("fees"); w.decimal(totalFees)
        w.key("income"); w.decimal(totalIncome)
        w.key("income_coverage"); w.number(totalIncomeCoverage)
        w.endObject()
        w.endObject()
        return w.bytes
    }
}
