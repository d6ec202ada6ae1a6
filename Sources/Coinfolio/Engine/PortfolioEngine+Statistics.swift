/// The home screen's statistics and the detail screen's lists (SPEC §6).
extension PortfolioEngine {
    /// Always six, in this order: "Market Cap" (`/global` `total_market_cap[vs_currency]`,
    /// change `market_cap_change_percentage_24h_usd`), "24h Volume" (`total_volume[vs_currency]`),
    /// "BTC Dominance" (`market_cap_percentage.btc`), "Portfolio Value" (Σ amount × price in the
    /// currency's own precision, `NumberFormat.value`; "n/a" when there are holdings and none
    /// has a price; change over 24 h and `coverage` as `PortfolioChange` computes them),
    /// "Unrealized P&L" and "Realized P&L" (the "main" portfolio, fifo; see
    /// `profitAndLossStatistics`). Without `/global` data the first three read "n/a".
    /// - Throws: `.noData` without a snapshot in the engine's vs_currency; `.store`.
    public func statistics() throws -> [Statistic] {
        let snapshot = try requireSnapshot()
        let vs = configuration.vsCurrency
        let data = snapshot.marketData
        // One read of "main" for the holdings and the P&L.
        let main = Transaction.defaultPortfolio
        let view = try store.ownerView(portfolio: main, manualPricesIn: vs.code, marketVersionOf: nil)
        let (held, total) = joinedHoldings(snapshot, view, portfolio: main)
        let change = PortfolioChange(held: held, in: snapshot)
        return [
            Statistic(
                title: "Market Cap", value: abbreviatedMoney(data?.totalMarketCap?[vs.code], vs),
                percentageChange: data?.marketCapChangePercentage24hUSD),
            Statistic(title: "24h Volume", value: abbreviatedMoney(data?.totalVolume?[vs.code], vs)),
            Statistic(
                title: "BTC Dominance", value: data?.marketCapPercentage?["btc"].map(NumberFormat.percent) ?? NumberFormat.notAvailable),
            Statistic(
                title: "Portfolio Value", value: total.map { NumberFormat.value($0, vsCurrency: vs) } ?? NumberFormat.notAvailable,
                percentageChange: change.percentage, coverage: change.coverage),
        ] + (try profitAndLossStatistics(snapshot: snapshot, view: view))
    }

    /// "Unrealized P&L" (value of the known-cost units − their cost, percentage over that cost)
    /// and "Realized P&L" (percentage over the cost of what was sold) of the "main" portfolio,
    /// fifo, in vs_currency; "n/a" where unknown (no price, or only units of unknown cost).
    /// `snapshot` and `view` (of "main") as `statistics` read them.
    func profitAndLossStatistics(snapshot: MarketSnapshot, view: OwnerView) throws -> [Statistic] {
        let (currency, totals) = try pnlTotals(PnLOptions(), snapshot: snapshot, view: view)
        let vs = (try? VsCurrency(currency)) ?? configuration.vsCurrency
        func money(_ value: PreciseDecimal?) -> String {
            value.map { NumberFormat.value($0.double, vsCurrency: vs) } ?? NumberFormat.notAvailable
        }
        return [
            Statistic(
                title: "Unrealized P&L", value: money(totals.unrealizedPnL), percentageChange: totals.unrealizedPnLPercentage),
            Statistic(title: "Realized P&L", value: money(totals.realizedPnL), percentageChange: totals.realizedPnLPercentage),
        ]
    }

    /// The portfolio's 24 h change over the holdings whose change is known, with the share of
    /// the value it covers (SPEC §10; the "Portfolio Value" statistic carries the same figures).
    /// Works without a snapshot (nothing is priced: coverage 0, no percentage).
    /// - Throws: `.store` when the holdings cannot be read.
    public func portfolioChange() throws -> PortfolioChange {
        let snapshot = currentSnapshot()
        return PortfolioChange(held: try joinedHoldings(snapshot).held, in: snapshot)
    }

    /// The detail screen's two lists for `coin` (nil: not in the snapshot) and its detail.
    func detailStatistics(coin: Coin?, detail: CoinDetail) -> (overview: [Statistic], additional: [Statistic]) {
        let vs = configuration.vsCurrency
        func price(_ value: Double?) -> String { value.map { NumberFormat.price($0, vsCurrency: vs) } ?? NumberFormat.notAvailable }
        let blockTime = detail.blockTimeInMinutes.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        let overview = [
            Statistic(title: "Current Price", value: price(coin?.currentPrice), percentageChange: coin?.priceChangePercentage24h),
            Statistic(
                title: "Market Capitalization", value: abbreviatedMoney(coin?.marketCap, vs),
                percentageChange: coin?.marketCapChangePercentage24h),
            Statistic(title: "Rank", value: coin?.marketCapRank.map(String.init) ?? NumberFormat.notAvailable),
            Statistic(title: "Volume", value: abbreviatedMoney(coin?.totalVolume, vs)),
        ]
        let additional = [
            Statistic(title: "24h High", value: price(coin?.high24h)),
            Statistic(title: "24h Low", value: price(coin?.low24h)),
            Statistic(title: "24h Price Change", value: price(coin?.priceChange24h), percentageChange: coin?.priceChangePercentage24h),
            Statistic(
                title: "24h Market Cap Change", value: abbreviatedMoney(coin?.marketCapChange24h, vs),
                percentageChange: coin?.marketCapChangePercentage24h),
            Statistic(
                title: "Block Time",
                value: blockTime.map { Int(exactly: $0).map(String.init) ?? NumberFormat.number($0) } ?? NumberFormat.notAvailable),
            Statistic(
                title: "Hashing Algorithm", value: detail.hashingAlgorithm.flatMap { $0.isEmpty ? nil : $0 } ?? NumberFormat.notAvailable),
        ]
        return (overview, additional)
    }
}

/// "$2.58Tr", "-$1.20Bn", "CHF 3.10M"; "n/a" when unknown. Below 1,000 there is nothing to
/// abbreviate: the amount is a money value in the currency's own precision ("¥512", "₿0.000025").
func abbreviatedMoney(_ value: Double?, _ vs: VsCurrency) -> String {
    guard let value else { return NumberFormat.notAvailable }
    if value.isFinite, abs(value) < 1000 { return NumberFormat.value(value, vsCurrency: vs) }
    return NumberFormat.abbreviated(value, prefix: vs.prefix)
}
