/// One coin's cost basis and profit and loss in a portfolio (SPEC §12). Money values are in the
/// portfolio's quote currency and exact; "known" means units whose cost is known (bought, not
/// transferred in).
public struct CoinPnL: Hashable, Sendable {
    /// CoinGecko coin id.
    public var coinID: String
    /// Units held now.
    public var amount: ExactDecimal
    /// Remaining cost of the known-cost units; 0 when the amount is 0; nil when units remain but
    /// none has a known cost.
    public var costBasis: ExactDecimal?
    /// cost_basis ÷ known units; nil without known units.
    public var averageCost: ExactDecimal?
    /// (cost_basis − realized_pnl) ÷ known units: the price at which selling the rest leaves the
    /// coin's total P&L at zero; nil without known units.
    public var breakevenPrice: ExactDecimal?
    /// The snapshot's `current_price` (`/coins/markets`), nil when unknown or in another currency.
    public var currentPrice: ExactDecimal?
    /// amount × current price; nil without a price.
    public var currentValue: ExactDecimal?
    /// Value of the known units − cost_basis; nil without a price or without known units.
    public var unrealizedPnL: ExactDecimal?
    /// unrealized_pnl ÷ cost_basis × 100 (percent units); nil when cost_basis is 0 or nil.
    public var unrealizedPnLPercentage: Double?
    /// Net proceeds − cost of the sold units of known cost (sold units of unknown cost realize nothing).
    public var realizedPnL: ExactDecimal
    /// Share (0…1) of sold units whose cost was known; 1 when nothing was sold.
    public var realizedCoverage: Double
    /// All fees of the coin's transactions.
    public var fees: ExactDecimal
    /// Share (0…1) of the units held whose cost is known; 1 when none is held.
    public var costBasisCoverage: Double
    /// Cost of the sold units of known cost: realized_pnl is measured against it.
    public var realizedCost: ExactDecimal

    /// The keys of one coin's P&L.
    enum JSONKey: String, WireKeys {
        case coinID = "coin_id"
        case amount
        case costBasis = "cost_basis"
        case averageCost = "average_cost"
        case breakevenPrice = "breakeven_price"
        case currentPrice = "current_price"
        case currentValue = "current_value"
        case unrealizedPnL = "unrealized_pnl"
        case unrealizedPnLPercentage = "unrealized_pnl_percentage"
        case realizedPnL = "realized_pnl"
        case realizedCoverage = "realized_coverage"
        case fees
        case costBasisCoverage = "cost_basis_coverage"
    }

    func writeJSON(to w: inout JSONWriter) {
        w.key(JSONKey.coinID); w.string(coinID)
        w.key(JSONKey.amount); w.decimal(amount)
        w.key(JSONKey.costBasis); w.decimal(costBasis)
        w.key(JSONKey.averageCost); w.decimal(averageCost)
        w.key(JSONKey.breakevenPrice); w.decimal(breakevenPrice)
        w.key(JSONKey.currentPrice); w.decimal(currentPrice)
        w.key(JSONKey.currentValue); w.decimal(currentValue)
        w.key(JSONKey.unrealizedPnL); w.decimal(unrealizedPnL)
        w.key(JSONKey.unrealizedPnLPercentage); w.number(unrealizedPnLPercentage)
        w.key(JSONKey.realizedPnL); w.decimal(realizedPnL)
        w.key(JSONKey.realizedCoverage); w.number(realizedCoverage)
        w.key(JSONKey.fees); w.decimal(fees)
        w.key(JSONKey.costBasisCoverage); w.number(costBasisCoverage)
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
    public var totalCostBasis: ExactDecimal
    /// Σ current_value of the priced coins; nil when coins are held and none is priced.
    public var totalCurrentValue: ExactDecimal?
    /// Σ unrealized_pnl where known; nil when coins are held and none is known.
    public var totalUnrealizedPnL: ExactDecimal?
    /// Σ realized_pnl.
    public var totalRealizedPnL: ExactDecimal
    /// Σ fees.
    public var totalFees: ExactDecimal

    /// unrealized total ÷ the cost basis of the coins whose unrealized P&L is known × 100; nil
    /// when that cost is 0 or unknown.
    public var totalUnrealizedPnLPercentage: Double? {
        guard let unrealized = totalUnrealizedPnL else { return nil }
        var cost = ExactDecimal.zero
        for coin in coins where coin.unrealizedPnL != nil { cost += coin.costBasis ?? .zero }
        guard !cost.isZero else { return nil }
        return unrealized.double / cost.double * 100
    }

    /// Σ realized ÷ Σ cost of the sold units of known cost × 100; nil when nothing of known cost
    /// was sold.
    public var totalRealizedPnLPercentage: Double? {
        var cost = ExactDecimal.zero
        for coin in coins { cost += coin.realizedCost }
        guard !cost.isZero else { return nil }
        let ratio = totalRealizedPnL.double / cost.double * 100
        return ratio.isFinite ? ratio : nil
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
    }

    /// `{"portfolio","vs_currency","method","coins":[{coin_id, amount, cost_basis, average_cost,
    /// breakeven_price, current_price, current_value, unrealized_pnl, unrealized_pnl_percentage,
    /// realized_pnl, realized_coverage, fees, cost_basis_coverage}…],"totals":{cost_basis,
    /// current_value, unrealized_pnl, unrealized_pnl_percentage, realized_pnl, fees}}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: coins.count * 400 + 256)
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
        w.endObject()
        w.endObject()
        return w.bytes
    }

    /// Runs the calculator over each coin's entries (already in ledger order).
    /// - Parameters:
    ///   - ledger: coin id → entries, in ledger order.
    ///   - price: the current price of a coin in the portfolio's currency, nil when unknown.
    static func compute(
        portfolio: String, vsCurrency: String, method: CostBasisMethod, ledger: [(coinID: String, entries: [LedgerEntry])],
        price: (String) -> ExactDecimal?
    ) -> PnLReport {
        var coins: [CoinPnL] = []
        coins.reserveCapacity(ledger.count)
        var totalCost = ExactDecimal.zero
        var totalValue = ExactDecimal.zero
        var anyValue = false
        var totalUnrealized = ExactDecimal.zero
        var anyUnrealized = false
        var anyHeld = false
        var totalRealized = ExactDecimal.zero
        var totalFees = ExactDecimal.zero
        for (coinID, entries) in ledger {
            var calculator = CostBasisCalculator(method: method)
            for entry in entries { calculator.apply(entry) }
            let amount = calculator.amount
            let known = calculator.known
            let hasKnown = !known.units.isZero
            let costBasis: ExactDecimal? = amount.isZero ? .zero : (hasKnown ? known.cost : nil)
            let currentPrice = price(coinID)
            let value = currentPrice.map { amount * $0 }
            var unrealized: ExactDecimal?
            if let currentPrice, let costBasis { unrealized = known.units * currentPrice - costBasis }
            var percentage: Double?
            if let unrealized, let costBasis, !costBasis.isZero {
                let ratio = unrealized.double / costBasis.double * 100
                percentage = ratio.isFinite ? ratio : nil
            }
            let realized = calculator.realized
            let coin = CoinPnL(
                coinID: coinID, amount: amount, costBasis: costBasis,
                averageCost: hasKnown ? known.cost.divided(by: known.units) : nil,
                breakevenPrice: hasKnown ? (known.cost - realized).divided(by: known.units) : nil,
                currentPrice: currentPrice, currentValue: value, unrealizedPnL: unrealized,
                unrealizedPnLPercentage: percentage, realizedPnL: realized,
                realizedCoverage: calculator.soldUnits.isZero ? 1 : calculator.soldKnownUnits.double / calculator.soldUnits.double,
                fees: calculator.fees,
                costBasisCoverage: amount.isZero ? 1 : known.units.double / amount.double,
                realizedCost: calculator.soldKnownCost)
            coins.append(coin)
            if !amount.isZero { anyHeld = true }
            totalCost += costBasis ?? .zero
            if let value, !amount.isZero { totalValue += value; anyValue = true }
            if let unrealized, !amount.isZero { totalUnrealized += unrealized; anyUnrealized = true }
            totalRealized += realized
            totalFees += calculator.fees
        }
        return PnLReport(
            portfolio: portfolio, vsCurrency: vsCurrency, method: method, coins: coins, totalCostBasis: totalCost,
            totalCurrentValue: anyValue || !anyHeld ? totalValue : nil,
            totalUnrealizedPnL: anyUnrealized || !anyHeld ? totalUnrealized : nil, totalRealizedPnL: totalRealized,
            totalFees: totalFees)
    }
}
