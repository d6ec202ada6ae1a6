/// Returns and taxes (SPEC §19): `performance` and `realized`. Neither sends a request: prices of
/// the past come from stored points only, and a missing one shows in the answer.
extension PortfolioEngine {
    /// The realized lots of the period: one row per (disposal, lot) by the method, with holding
    /// days, term and tax-free status, their totals, and the income of the period. A move's lots
    /// keep their cost and first acquisition time (other portfolios are read as far as moves need).
    /// - Parameter options: portfolio (nil: every portfolio of the owner), method, period, years.
    /// - Throws: `.notFound` for an unknown portfolio (other than "main"); `.invalidArgument`
    ///   (`details.reason` "currency") when every portfolio is asked for and their currencies
    ///   differ; `.store`.
    public func realized(_ options: RealizedOptions = RealizedOptions()) throws -> RealizedReport {
        let (vs, ledgers, reported, types) = try realizedInputs(options)
        return RealizedReport.compute(portfolios: ledgers, reported: reported, vsCurrency: vs, options: options, incomeType: { types[$0] })
    }

    /// `realized` as the C answer: its rows as made, written in ledger order by
    /// `RealizedAnswer.write(into:)` (the same bytes as the report's `jsonUTF8` or `csv`).
    /// - Throws: as `realized`.
    @_spi(ABI) public func realizedAnswer(_ options: RealizedOptions) throws -> RealizedAnswer {
        let (vs, ledgers, reported, types) = try realizedInputs(options)
        let made = RealizedReport.rows(portfolios: ledgers, reported: reported, options: options, incomeType: { types[$0] })
        return RealizedAnswer(made: made, vsCurrency: vs, options: options)
    }

    /// What `realized` reads: the currency, the ledgers (see `ledgers(for:)`) and the income types.
    private func realizedInputs(_ options: RealizedOptions) throws -> (
        vsCurrency: String, ledgers: [RealizedReport.PortfolioLedger], reported: [Int], incomeTypes: [Int64: IncomeType]
    ) {
        let (vs, ledgers, reported, ownIncome) = try ledgers(for: options.portfolio)
        // Income types are read only when a reported ledger holds income: the query walks every
        // row of the owner (30 ms over 200,000 rows), and without income its answer is empty.
        let hasIncome =
            ownIncome ?? reported.contains { ledgers[$0].coins.contains { $0.entries.contains { $0.kind == .income } } }
        return (vs, ledgers, reported, hasIncome ? try store.incomeTypes(portfolio: options.portfolio) : [:])
    }

    /// How the portfolio's value moved over the range (SPEC §19): values at each UTC day's 00:00
    /// from the stored price points and the owner's manual points by the `price_at` rule without
    /// its snapshot and fetch steps (the last of a range ending now from the current prices: the
    /// snapshot's, else the owner's manual current price, as `pnl`), flows, gain, roi, twr (each
    /// flow at the value just before it, the portfolio valued at its time by the same rule), mwr,
    /// the benchmark's change; a value without a stored point is null and lowers `coverage`, its
    /// day listed in `missing`. Never sends a request.
    /// - Parameter options: portfolio (nil: every portfolio of the owner together), range, benchmark.
    /// - Throws: `.notFound` for an unknown portfolio (other than "main"); `.invalidArgument` for a
    ///   range longer than 36,600 days or starting after now (`details.field` "range"), or
    ///   (`details.reason` "currency") every portfolio asked for with different currencies; `.store`.
    public func performance(_ options: PerformanceOptions = PerformanceOptions()) throws -> PerformanceReport {
        let (vs, ledgers, reported, _) = try ledgers(for: options.portfolio)
        // Each coin's entries of the covered portfolios, in ledger order.
        var entries: [String: [LedgerEntry]] = [:]
        for index in reported {
            for (coinID, coinEntries) in ledgers[index].coins { entries[coinID, default: []] += coinEntries }
        }
        if reported.count > 1 {
            for coinID in entries.keys { entries[coinID]?.sort { precedes($0.point, $1.point) } }
        }
        let first = entries.values.compactMap { $0.first?.timestamp }.min()
        let (from, to, endsNow) = try options.resolve(now: LedgerTimestamp.now(), firstTransaction: first)
        let current: (String) -> PreciseDecimal? = endsNow ? try currentPrices(vsCurrency: vs).price : { _ in nil }
        func coin(_ coinID: String, _ entries: [LedgerEntry]) throws -> PerformanceReport.Coin {
            try WorkCancellation.check()  // a cancelled async report stops before the next coin's reads
            return PerformanceReport.Coin(
                coinID: coinID, entries: entries, prices: try priceSeries(coinID: coinID, vsCurrency: vs, from: from, to: to),
                currentPrice: current(coinID))
        }
        var coins: [PerformanceReport.Coin] = []
        for coinID in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let coinEntries = entries[coinID], let earliest = coinEntries.first, earliest.timestamp < to else { continue }
            coins.append(try coin(coinID, coinEntries))
        }
        return PerformanceReport.compute(
            portfolio: options.portfolio, vsCurrency: vs, from: from, to: to, endsNow: endsNow, coins: coins,
            benchmark: try options.benchmark.map { try coin($0, []) })
    }

    /// The stored CoinGecko points of a coin and the owner's manual points over the UTC days from
    /// `from`'s through `to`'s (SPEC §17): two queries, then `PriceSeries` answers the `price_at`
    /// rule (steps 1–3) for every point of the report without another. Room is made at once for
    /// a point a day (what a long range's fill stores). Kept by the store while the database is
    /// unchanged (`PriceStore.series`): a report asked again over the same days reads no point.
    /// - Throws: `.store`.
    func priceSeries(coinID: String, vsCurrency: String, from: Int64, to: Int64) throws -> PriceSeries {
        let (start, end) = (UTCDay.start(of: from), UTCDay.end(of: to))
        let days = Int(min((end - start) / UTCDay.milliseconds, 36_600))
        return try store.priceSeries(coinID: coinID, vsCurrency: vsCurrency, from: start, to: end - 1, expected: days)
    }

    /// The ledgers a report reads: the currency, every portfolio's coins a report over `portfolio`
    /// needs (all of the owner's when it has moves in, or when `portfolio` is nil), and the
    /// indices of those it reports on; for one portfolio, whether its own ledger (the one reported)
    /// holds income, found in the same pass over its entries as its moves in (nil otherwise).
    private func ledgers(for portfolio: String?) throws -> (
        vsCurrency: String, ledgers: [RealizedReport.PortfolioLedger], reported: [Int], ownIncome: Bool?
    ) {
        guard let portfolio else {
            let all = try portfolios()
            let currencies = Set(all.map(\.vsCurrency))
            guard currencies.count <= 1 else {
                throw CoinfolioError(
                    .invalidArgument,
                    "the portfolios are in different currencies (\(currencies.sorted().joined(separator: ", "))): ask for one portfolio at a time",
                    reason: .currency)
            }
            let ledgers = try all.map { portfolio in
                try WorkCancellation.check()  // a cancelled async report stops before the next ledger
                return (name: portfolio.name, coins: try store.coinLedgers(portfolio: portfolio.name))
            }
            return (currencies.first ?? configuration.vsCurrency.code, ledgers, Array(ledgers.indices), nil)
        }
        let vs = try currency(ofPortfolio: portfolio)
        let own = try store.coinLedgers(portfolio: portfolio)
        var ledgers: [RealizedReport.PortfolioLedger] = [(portfolio, own)]
        let (movedIn, income) = Self.movesInAndIncome(own)
        if movedIn {
            for other in try store.portfolios() where !LedgerStore.same(other.name, portfolio) {
                try WorkCancellation.check()
                ledgers.append((other.name, try store.coinLedgers(portfolio: other.name)))
            }
        }
        return (vs, ledgers, [0], income)
    }

    /// Whether `coins` hold a move's arrival (a transfer in of a group) and whether they hold
    /// income: one pass over the entries (a report reads 200,000 of them where it read them twice),
    /// stopping once both are found.
    private static func movesInAndIncome(_ coins: [LedgerStore.CoinLedger]) -> (movedIn: Bool, income: Bool) {
        var (movedIn, income) = (false, false)
        for coin in coins {
            for entry in coin.entries {
                switch entry.kind {
                case .transferIn: if entry.group != 0 { movedIn = true }
                case .income: income = true
                default: continue
                }
                if movedIn, income { return (true, true) }
            }
        }
        return (movedIn, income)
    }
}
