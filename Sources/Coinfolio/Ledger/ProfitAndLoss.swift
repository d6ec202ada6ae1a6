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
    /// Units disposed of (sold, and fees paid in the coin), known cost or not: 0 when the coin
    /// realized nothing because nothing left it (not part of the JSON; `realized_coverage` is 1
    /// then as when every sold unit's cost was known).
    public internal(set) var disposedUnits = PreciseDecimal.zero
    /// Income rows, and those with a known price (for the totals' coverage).
    var incomeRows = 0
    var incomeKnownRows = 0

    /// The keys of one coin's P&L.
    enum JSONKey: String, WireKeys {
        case coinID = "coin_id"
        case amount
        case costBasis = "cost_basis"
        case averageCost = "average_cost"
        case breakevenPrice = "breakeven_price"
        case currentPrice = "current_price"
        case priceSource = "price_source"
        case currentValue = "current_value"
        case unrealizedPnL = "unrealized_pnl"
        case unrealizedPnLPercentage = "unrealized_pnl_percentage"
        case realizedPnL = "realized_pnl"
        case realizedCoverage = "realized_coverage"
        case fees
        case costBasisCoverage = "cost_basis_coverage"
        case income
        case incomeCoverage = "income_coverage"
    }

    func writeJSON(to w: inout JSONWriter) {
        w.key(JSONKey.coinID); w.string(coinID)
        w.key(JSONKey.amount); w.decimal(amount)
        w.key(JSONKey.costBasis); w.decimal(costBasis)
        w.key(JSONKey.averageCost); w.decimal(averageCost)
        w.key(JSONKey.breakevenPrice); w.decimal(breakevenPrice)
        w.key(JSONKey.currentPrice); w.decimal(currentPrice)
        w.key(JSONKey.priceSource); w.string(priceSource?.rawValue)
        w.key(JSONKey.currentValue); w.decimal(currentValue)
        w.key(JSONKey.unrealizedPnL); w.decimal(unrealizedPnL)
        w.key(JSONKey.unrealizedPnLPercentage); w.number(unrealizedPnLPercentage)
        w.key(JSONKey.realizedPnL); w.decimal(realizedPnL)
        w.key(JSONKey.realizedCoverage); w.number(realizedCoverage)
        w.key(JSONKey.fees); w.decimal(fees)
        w.key(JSONKey.costBasisCoverage); w.number(costBasisCoverage)
        w.key(JSONKey.income); w.decimal(income)
        w.key(JSONKey.incomeCoverage); w.number(incomeCoverage)
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
    /// Σ cost_basis of the coins that have one; nil when coins are held and none has a known
    /// cost (every unit transferred in or at a pending price: unknown, never 0, SPEC §17).
    public var totalCostBasis: PreciseDecimal?
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
    /// when that cost is 0 or unknown (`PnLTotals`).
    public internal(set) var totalUnrealizedPnLPercentage: Double?
    /// Σ realized ÷ Σ cost of the disposed units realized P&L is measured against × 100; nil when
    /// none was disposed (`PnLTotals`).
    public internal(set) var totalRealizedPnLPercentage: Double?

    /// part ÷ whole × 100 in percent units; nil when whole is 0.
    static func percentage(_ part: PreciseDecimal, of whole: PreciseDecimal) -> Double? {
        guard let ratio = part.divided(by: whole) else { return nil }
        let value = ratio.double * 100
        return value.isFinite ? value : nil
    }

    /// The keys of the P&L answer.
    enum JSONKey: String, WireKeys {
        case portfolio
        case vsCurrency = "vs_currency"
        case method
        case coins
        case totals
    }

    /// The keys of its totals.
    enum TotalsKey: String, WireKeys {
        case costBasis = "cost_basis"
        case currentValue = "current_value"
        case unrealizedPnL = "unrealized_pnl"
        case unrealizedPnLPercentage = "unrealized_pnl_percentage"
        case realizedPnL = "realized_pnl"
        case fees
        case income
        case incomeCoverage = "income_coverage"
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
        w.key(JSONKey.portfolio); w.string(portfolio)
        w.key(JSONKey.vsCurrency); w.string(vsCurrency)
        w.key(JSONKey.method); w.string(method.rawValue)
        w.key(JSONKey.coins); w.beginArray()
        for coin in coins { w.beginObject(); coin.writeJSON(to: &w); w.endObject() }
        w.endArray()
        w.key(JSONKey.totals); w.beginObject()
        w.key(TotalsKey.costBasis); w.decimal(totalCostBasis)
        w.key(TotalsKey.currentValue); w.decimal(totalCurrentValue)
        w.key(TotalsKey.unrealizedPnL); w.decimal(totalUnrealizedPnL)
        w.key(TotalsKey.unrealizedPnLPercentage); w.number(totalUnrealizedPnLPercentage)
        w.key(TotalsKey.realizedPnL); w.decimal(totalRealizedPnL)
        w.key(TotalsKey.fees); w.decimal(totalFees)
        w.key(TotalsKey.income); w.decimal(totalIncome)
        w.key(TotalsKey.incomeCoverage); w.number(totalIncomeCoverage)
        w.endObject()
        w.endObject()
        return w.bytes
    }
}
