/// Computing `realized` (SPEC §19) from the owner's ledgers: the lots each disposal took, by the
/// method, as `pnl` takes them.
extension RealizedReport {
    /// One portfolio's ledger: its coins, each with its entries in ledger order.
    typealias PortfolioLedger = (name: String, coins: [(coinID: String, entries: [LedgerEntry])])

    /// The report over `portfolios[reported]` for every disposal and income in the options'
    /// period. `portfolios` holds every portfolio a move may link to them (the owner's), so that
    /// moved lots keep their cost and first acquisition time. `incomeType` names each income
    /// transaction's type by id.
    static func compute(
        portfolios: [PortfolioLedger], reported: [Int], vsCurrency: String, options: RealizedOptions,
        incomeType: (Int64) -> IncomeType? = { _ in nil }
    ) -> RealizedReport {
        var made = rows(portfolios: portfolios, reported: reported, options: options, incomeType: incomeType)
        if let source = made.source {
            made.source = nil  // `source` the only reference: reordered without a copy
            inLedgerOrder(&made.rows, source)
        }
        return RealizedReport(
            portfolio: options.portfolio, vsCurrency: vsCurrency, method: options.method, rows: made.rows,
            totals: RealizedTotals(made.rows), income: made.income, incomeTotal: made.incomeTotal)
    }

    /// The rows of a report as they are made, coin by coin (each coin's run in one go), and where
    /// each row of ledger order lies among them (`source`; nil when they are in ledger order
    /// already); the income in ledger order and its known total.
    typealias MadeRows = (rows: [RealizedRow], source: [Int]?, income: [IncomeRow], incomeTotal: PreciseDecimal)

    /// The rows of `compute`'s report, as made (see `MadeRows`).
    static func rows(
        portfolios: [PortfolioLedger], reported: [Int], options: RealizedOptions, incomeType: (Int64) -> IncomeType?
    ) -> MadeRows {
        switch options.method {
        case .fifo: return rows(FIFOLots.self, portfolios, reported, options, incomeType)
        case .lifo: return rows(LIFOLots.self, portfolios, reported, options, incomeType)
        case .hifo: return rows(HIFOLots.self, portfolios, reported, options, incomeType)
        case .lofo: return rows(LOFOLots.self, portfolios, reported, options, incomeType)
        case .average: return rows(AverageCostLots.self, portfolios, reported, options, incomeType)
        case .uk: return rows(UKShareLots.self, portfolios, reported, options, incomeType)
        }
    }

    private static func rows<Lots: LotMethod>(
        _: Lots.Type, _ portfolios: [PortfolioLedger], _ reported: [Int], _ options: RealizedOptions,
        _ incomeType: (Int64) -> IncomeType?
    ) -> MadeRows {
        // Each portfolio's coins by id, for the moves.
        let byCoin = portfolios.map { portfolio in
            Dictionary(portfolio.coins.map { (HoldingsKey($0.coinID), $0.entries) }, uniquingKeysWith: { first, _ in first })
        }
        let from = options.from ?? .min
        let to = options.to ?? .max
        var rows: [RealizedRow] = []
        // Room for every row up front (an upper estimate: a disposal's lots, each taken from an
        // entry of its coin; moved-in lots past it only grow the array): a growing array of
        // rows was copied at each doubling. Marked for huge pages: the tens of megabytes of rows
        // were otherwise faulted in 4 KB at a time at every call.
        let entryCount = reported.reduce(0) { sum, target in portfolios[target].coins.reduce(sum) { $0 + $1.entries.count } }
        HugePages.reserve(&rows, entryCount)
        // Each disposal's time, id and first row: the rows come coin by coin, and are put in
        // ledger order by their disposals (a sort of the disposals, not of every row). Room for
        // one an entry (an array grown by doubling was copied at each).
        var disposals: [(timestamp: Int64, id: Int64, first: Int)] = []
        disposals.reserveCapacity(entryCount)
        var income: [IncomeRow] = []
        for target in reported {
            let name = portfolios[target].name
            for (coinID, entries) in portfolios[target].coins {
                // Nothing of the period: no run (a disposal before `from` changes no row here).
                guard entries.contains(where: { $0.timestamp >= from && $0.timestamp < to && $0.kind.hasPrice && $0.kind != .buy }) else {
                    continue
                }
                let key = HoldingsKey(coinID)
                let others = { byCoin.indices.compactMap { $0 == target ? nil : byCoin[$0][key] } }
                // Only the pieces are read: the run's own figures (realized, fees, income) are not kept.
                let _: CoinCostBasis<Lots> = CostBasisRun.run(entries, others: others, keepsFigures: false) { entry, pieces in
                    guard entry.timestamp >= from, entry.timestamp < to else { return }
                    switch entry.kind {
                    case .sell, .fee:
                        disposals.append((entry.timestamp, entry.id, rows.count))
                        appendRows(&rows, name, coinID, entry, pieces, options)
                    case .income:
                        var value: PreciseDecimal?
                        if let price = entry.price { value = entry.units * price }
                        income.append(
                            IncomeRow(
                                portfolio: name, coinID: coinID, incomeType: incomeType(entry.id), amount: entry.units, value: value,
                                timestamp: entry.timestamp, transactionID: entry.id))
                    default:
                        return
                    }
                }
            }
        }
        income.sort { ($0.timestamp, $0.transactionID) < ($1.timestamp, $1.transactionID) }
        var incomeTotal = PreciseDecimal.zero
        for row in income { if let value = row.value { incomeTotal += value } }
        return (rows, ledgerOrder(rows.count, disposals), income, incomeTotal)
    }

    /// The rows of one disposal: a row per piece, the proceeds net of fees split by units (each
    /// share a multiple of the proceeds' 38th digit, the last piece taking the remainder, so that
    /// they add up exactly: a share rounded to 38 digits of its own left a remainder that was not).
    private static func appendRows(
        _ rows: inout [RealizedRow], _ portfolio: String, _ coinID: String, _ entry: borrowing LedgerEntry, _ pieces: [Lot],
        _ options: RealizedOptions
    ) {
        let (units, timestamp) = (entry.units, entry.timestamp)
        var proceeds: PreciseDecimal?
        if let price = entry.price, let fee = entry.fee { proceeds = units * price - fee }
        var given = PreciseDecimal.zero
        // The disposal's UTC date, counted once for its pieces.
        let disposedDay = HoldingPeriod.day(timestamp)
        for (index, piece) in pieces.enumerated() {
            var share: PreciseDecimal?
            if let proceeds {
                share =
                    index == pieces.count - 1
                    ? proceeds - given
                    : proceeds.multiplied(by: piece.units, dividedBy: units).quantized(toExponent: proceeds.finestStep)
                given += share ?? .zero
            }
            var gain: PreciseDecimal?
            if let share, let cost = piece.cost { gain = share - cost }
            let acquired = piece.acquired.timestamp
            let acquiredDay = HoldingPeriod.day(acquired)
            rows.append(
                RealizedRow(
                    portfolio: portfolio, coinID: coinID, amount: piece.units, acquiredAt: acquired, disposedAt: timestamp,
                    proceeds: share, cost: piece.cost, gain: gain, holdingDays: max(0, disposedDay - acquiredDay),
                    term: HoldingPeriod.isPast(years: options.longTermAfterYears, acquiredDay: acquiredDay, disposedDay: disposedDay)
                        ? .long : .short,
                    taxFree: options.taxFreeAfterYears.map {
                        HoldingPeriod.isPast(years: $0, acquiredDay: acquiredDay, disposedDay: disposedDay)
                    },
                    disposalID: entry.id))
        }
    }

    /// Where each row of ledger order (disposals by time, then id, each disposal's pieces as
    /// taken) lies among `count` rows made disposal by disposal from `disposals`' firsts; nil when
    /// they are in that order already.
    private static func ledgerOrder(_ count: Int, _ disposals: [(timestamp: Int64, id: Int64, first: Int)]) -> [Int]? {
        func before(_ a: (timestamp: Int64, id: Int64, first: Int), _ b: (timestamp: Int64, id: Int64, first: Int)) -> Bool {
            a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.id < b.id
        }
        guard zip(disposals, disposals.dropFirst()).contains(where: { before($1, $0) }) else { return nil }
        // The disposals' keys sorted with their indices beside them (sorting the indices read
        // both disposals through the array at every comparison): the same comparisons in the
        // same order, so the same permutation.
        var sorted: [(timestamp: Int64, id: Int64, first: Int)] = []
        sorted.reserveCapacity(disposals.count)
        for index in disposals.indices {
            sorted.append((disposals[index].timestamp, disposals[index].id, index))
        }
        sorted.sort(by: before)
        var source: [Int] = []
        source.reserveCapacity(count)
        for disposal in sorted {
            let index = disposal.first
            let end = index + 1 < disposals.count ? disposals[index + 1].first : count
            source.append(contentsOf: disposals[index].first..<end)
        }
        return source
    }

    /// Puts the rows in ledger order (`source`: where each place's row lies) in place, each row
    /// moved to where it belongs (no second array of rows, no copy of each).
    private static func inLedgerOrder(_ rows: inout [RealizedRow], _ source: consuming [Int]) {
        // The rows come disposal by disposal from the first, so `source` names every row once; were
        // one ever left out, the rows are gathered as before (dropping it) rather than moved.
        guard source.count == rows.count else {
            rows = source.map { rows[$0] }
            return
        }
        // Round each cycle of the permutation: the first row of the cycle is held aside, each
        // place then takes its row and frees that row's place, and the held row fills the last.
        // Every row is moved once (not copied: nothing retained or released).
        rows.withUnsafeMutableBufferPointer { rows in
            source.withUnsafeMutableBufferPointer { source in
                guard let base = rows.baseAddress else { return }
                for start in source.indices where source[start] != start {
                    let held = (base + start).move()
                    var place = start
                    while source[place] != start {
                        let from = source[place]
                        (base + place).initialize(to: (base + from).move())
                        source[place] = place
                        place = from
                    }
                    (base + place).initialize(to: held)
                    source[place] = place
                }
            }
        }
    }
}
