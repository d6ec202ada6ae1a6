import Foundation

extension PortfolioEngine {
    /// One coin's price chart: `GET /coins/{id}/market_chart` in the engine's vs_currency,
    /// cached per (id, days, interval) for `chart_ttl_s`; concurrent asks share one request.
    ///
    /// On the public and demo plans more than 365 days (or `max`) is asked as 365 days and the
    /// answer says `clamped: true`; a clamped `max` and 365 share one cache entry.
    /// - Parameters:
    ///   - coinID: a coin id (`CoinID` rule).
    ///   - options: days (default 7) and interval.
    /// - Returns: the price series sorted by time (nil values are gaps) with its summary.
    /// - Throws: `.invalidArgument` for a bad id (no request); the client's errors (`.notFound`
    ///   for an unknown coin, `.unauthorized` with `details.error_code` 10012 for a range the
    ///   plan refuses).
    public func chart(coinID: String, _ options: ChartOptions = ChartOptions()) throws -> PriceChart {
        try CoinID.validate(coinID)
        var days = options.days
        var clamped = false
        if configuration.api.plan != .pro {
            switch days {
            case .max:
                days = .days(ChartDays.planLimit); clamped = true
            case .days(let n) where n > ChartDays.planLimit:
                days = .days(ChartDays.planLimit); clamped = true
            default:
                break
            }
        }
        let vs = configuration.vsCurrency
        let key = ChartLoader.Key(id: coinID, days: days, interval: options.interval)
        let chart = try charts.chart(key) { key in
            // Only a download reports progress; a cached or shared answer makes no request.
            progress.report(.chart, done: 0, total: 1)
            let chart = try client.marketChart(id: key.id, MarketChartRequest(vsCurrency: vs, days: key.days, interval: key.interval))
            progress.report(.chart, done: 1, total: 1)
            return chart
        }
        return PriceChart(coinID: coinID, vsCurrency: vs, days: days, interval: options.interval, clamped: clamped, points: chart.prices)
    }

    /// The portfolio's value over the snapshot's last 7 days, from each priced holding's
    /// sparkline × its current amount. No request.
    ///
    /// A sparkline's last point is at its coin's `last_updated` (the snapshot's time when that is
    /// missing), its points one hour apart; series of different lengths are aligned at their end,
    /// and the history ends at the latest `last_updated`. A point where some priced holding has no
    /// price (a shorter sparkline, a gap) is `partial`, and its value counts the others only.
    /// Holdings without a current price are left out.
    /// - Returns: hourly points, oldest first, and their summary; no points without priced holdings.
    /// - Throws: `.notFound` for a ledger portfolio that does not exist, `.store` when the
    ///   holdings cannot be read.
    public func portfolioHistory(_ options: PortfolioHistoryOptions = PortfolioHistoryOptions()) throws -> PortfolioHistory {
        _ = try currency(ofPortfolio: options.portfolio)  // an unknown portfolio is not found
        guard let snapshot = currentSnapshot() else { return PortfolioHistory(vsCurrency: configuration.vsCurrency, points: []) }
        let (held, _) = try joinedHoldings(snapshot, portfolio: options.portfolio)
        var series: [(amount: Double, prices: [Double])] = []
        var endTime = -Double.infinity
        for coin in held where coin.value != nil {
            guard let position = coin.position else { continue }
            series.append((coin.amount, snapshot.sparklinePrices(position) ?? []))
            // `ChartTime.milliseconds(iso:)` of the date read in place, without a `String`.
            let updated = snapshot.coins.lastUpdatedSeconds(at: position)
            let end = updated.map(ChartTime.milliseconds(seconds:)) ?? snapshot.asOf.timeIntervalSince1970 * 1000
            endTime = max(endTime, end)
        }
        let length = series.map(\.prices.count).max() ?? 0
        guard length > 0, endTime.isFinite else { return PortfolioHistory(vsCurrency: configuration.vsCurrency, points: []) }
        var values = [Double](repeating: 0, count: length)
        var counted = [Int](repeating: 0, count: length)
        var any = [Bool](repeating: false, count: length)
        for (amount, prices) in series {
            let offset = length - prices.count
            for (index, price) in prices.enumerated() {
                let product = amount * price
                guard product.isFinite else { continue }
                values[offset + index] += product
                counted[offset + index] += 1
                any[offset + index] = true
            }
        }
        var points: [PortfolioHistory.Point] = []
        points.reserveCapacity(length)
        for index in 0..<length {
            let time = endTime - Double(length - 1 - index) * 3_600_000
            points.append(
                .init(time: time, value: any[index] && values[index].isFinite ? values[index] : nil, partial: counted[index] < series.count)
            )
        }
        return PortfolioHistory(vsCurrency: configuration.vsCurrency, points: points)
    }
}
