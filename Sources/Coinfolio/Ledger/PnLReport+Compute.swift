/// Computing a `PnLReport` from a portfolio's ledger (SPEC §12, §16).
extension PnLReport {
    /// Runs the method's calculator over each coin's entries (already in ledger order).
    /// - Parameters:
    ///   - ledger: the portfolio's coins, by id, each with its entries in ledger order.
    ///   - others: for a coin whose entries include a move's transfer_in, the owner's other
    ///     portfolios' entries of that coin (asked only for such coins).
    ///   - price: the current price of a coin in the portfolio's currency, nil when unknown.
    static func compute(
        portfolio: String, vsCurrency: String, method: CostBasisMethod, ledger: [(coinID: String, entries: [LedgerEntry])],
        others: (String) -> [[LedgerEntry]] = { _ in [] }, price: (String) -> PreciseDecimal?
    ) -> PnLReport {
        report(
            portfolio: portfolio, vsCurrency: vsCurrency, method: method, coinIDs: ledger.map(\.coinID),
            figures: figures(method: method, ledger: ledger, others: others), price: { price(ledger[$0].coinID) })
    }

    /// Each coin's figures by the method (`CostBasisFigures`), in the order of `ledger`: the part
    /// of `compute` that does not depend on current prices. `ledger` and `others` as `compute`.
    static func figures(
        method: CostBasisMethod, ledger: [(coinID: String, entries: [LedgerEntry])], others: (String) -> [[LedgerEntry]]
    ) -> [CostBasisFigures] {
        switch method {
        case .fifo: return figures(FIFOLots.self, ledger, others)
        case .lifo: return figures(LIFOLots.self, ledger, others)
        case .hifo: return figures(HIFOLots.self, ledger, others)
        case .lofo: return figures(LOFOLots.self, ledger, others)
        case .average: return figures(AverageCostLots.self, ledger, others)
        case .uk: return figures(UKShareLots.self, ledger, others)
        }
    }

    private static func figures<Lots: LotMethod>(
        _: Lots.Type, _ ledger: [(coinID: String, entries: [LedgerEntry])], _ others: (String) -> [[LedgerEntry]]
    ) -> [CostBasisFigures] {
        ledger.map { coinID, entries in
            let basis: CoinCostBasis<Lots> = CostBasisRun.run(entries, others: { others(coinID) })
            return basis.figures
        }
    }

    /// The report from each coin's figures (`figures(method:ledger:others:)`, in the order of
    /// `coinIDs`) and current prices: `price(i)` is the price of `coinIDs[i]`, nil when unknown.
    static func report(
        portfolio: String, vsCurrency: String, method: CostBasisMethod, coinIDs: [String], figures: [CostBasisFigures],
        price: (Int) -> PreciseDecimal?
    ) -> PnLReport {
        // Each price once: the coins' figures and the totals (`PnLTotals`, the one rule of the
        // unrealized and realized totals, shared with the statistics) read the same array.
        let prices = coinIDs.indices.map(price)
        let totals = PnLTotals(figures: figures, price: { prices[$0] })
        var report = PnLReport(
            portfolio: portfolio, vsCurrency: vsCurrency, method: method, coins: [], totalCostBasis: .zero, totalCurrentValue: nil,
            totalUnrealizedPnL: totals.unrealizedPnL, totalRealizedPnL: totals.realizedPnL, totalFees: .zero, totalIncome: .zero,
            totalIncomeCoverage: 1, totalUnrealizedPnLPercentage: totals.unrealizedPnLPercentage,
            totalRealizedPnLPercentage: totals.realizedPnLPercentage)
        report.coins.reserveCapacity(coinIDs.count)
        for index in coinIDs.indices { report.coins.append(coin(coinIDs[index], figures[index], prices[index])) }
        report.total()
        return report
    }

    /// The figures of one coin from its cost-basis figures and current price.
    private static func coin(_ coinID: String, _ basis: CostBasisFigures, _ currentPrice: PreciseDecimal?) -> CoinPnL {
        let amount = basis.amount
        let known = (units: basis.knownUnits, cost: basis.knownCost)
        let hasKnown = !known.units.isZero
        let costBasis = basis.costBasis
        let unrealized = costBasis.flatMap { basis.unrealizedPnL(costBasis: $0, price: currentPrice) }
        var percentage: Double?
        if let unrealized, let costBasis { percentage = Self.percentage(unrealized, of: costBasis) }
        let realized = basis.realized
        // A share is a double (a coverage): the ratio of the two doubles is as close as it needs.
        func share(_ part: PreciseDecimal, of whole: PreciseDecimal) -> Double {
            whole.isZero || part == whole ? 1 : part.double / whole.double
        }
        var coin = CoinPnL(
            coinID: coinID, amount: amount, costBasis: costBasis, averageCost: hasKnown ? known.cost.divided(by: known.units) : nil,
            breakevenPrice: hasKnown ? (known.cost - realized).divided(by: known.units) : nil, currentPrice: currentPrice,
            currentValue: currentPrice.map { amount * $0 }, unrealizedPnL: unrealized, unrealizedPnLPercentage: percentage,
            realizedPnL: realized, realizedCoverage: share(basis.realizedUnits, of: basis.disposedUnits),
            fees: basis.fees, costBasisCoverage: share(known.units, of: amount), income: basis.income,
            incomeCoverage: share(basis.incomeKnownUnits, of: basis.incomeUnits), realizedCost: basis.realizedCost)
        coin.disposedUnits = basis.disposedUnits
        coin.incomeRows = basis.incomeRows
        coin.incomeKnownRows = basis.incomeKnownRows
        return coin
    }

    /// The totals over `coins` besides the unrealized and realized ones (set from `PnLTotals`).
    private mutating func total() {
        var value = PreciseDecimal.zero
        var anyValue = false
        var anyHeld = false
        var costBasis = PreciseDecimal.zero
        var anyCostBasis = false
        var fees: PreciseDecimal? = .zero
        var incomeRows = 0
        var incomeKnownRows = 0
        for coin in coins {
            if !coin.amount.isZero { anyHeld = true }
            if let coinCost = coin.costBasis, !coin.amount.isZero {
                costBasis += coinCost
                anyCostBasis = true
            }
            if let coinValue = coin.currentValue, !coin.amount.isZero {
                value += coinValue
                anyValue = true
            }
            fees = coin.fees.flatMap { coinFees in fees.map { $0 + coinFees } }
            totalIncome += coin.income
            incomeRows += coin.incomeRows
            incomeKnownRows += coin.incomeKnownRows
        }
        totalCurrentValue = anyValue || !anyHeld ? value : nil
        totalCostBasis = anyCostBasis || !anyHeld ? costBasis : nil
        totalFees = fees
        totalIncomeCoverage = incomeRows == 0 ? 1 : Double(incomeKnownRows) / Double(incomeRows)
    }
}
