import Foundation

/// Prices in the past (SPEC §17): `price_at`, manual prices, and the lookup the ledger uses.
extension PortfolioEngine {
    /// The price of a coin at a time, by the rule of `PriceRule`: the owner's manual point of
    /// that UTC day; else the latest stored CoinGecko point in [the day's 00:00, time]; else the
    /// earliest in (time, the next 00:00); else the snapshot's `current_price` when its
    /// `last_updated` is within an hour of the time; else one `GET /coins/{id}/market_chart/range`
    /// request for that day (its points are stored for every owner), then the stored points again.
    /// - Parameters:
    ///   - query: coin, time and currency (nil: the engine's `vs_currency`).
    ///   - fetch: false answers from what is stored only (no request: the CLI's `--offline`); a
    ///     time nothing stored prices is then `.noData` with reason "no_point".
    /// - Returns: the price, when it held (`at`) and its source.
    /// - Throws: `.invalidArgument` for a currency CoinGecko does not price in (the engine's
    ///   own, when the query names none); `.noData` with `details.reason` "history_limit" (the
    ///   public and demo plans reach back 365 days: CoinGecko's error 10012, or a time older
    ///   than that, asked without a request), "unknown_coin" (CoinGecko answered 404) or
    ///   "no_point" (no point that UTC day, a time in the future included); the client's other
    ///   errors (network, HTTP, rate limit, key) as they are; `.store`. May block on the network.
    public func priceAt(_ query: PriceQuery, fetch: Bool = true) throws -> HistoricalPrice {
        let vs = query.vsCurrency ?? configuration.vsCurrency
        try vs.requireCoinGeckoQuote()
        if let found = try storedPrice(coinID: query.coinID, vsCurrency: vs.code, time: query.time) { return found }
        let need = FillPlanner.Need(coinID: query.coinID, vsCurrency: vs.code, time: query.time)
        guard fetch else { throw Self.noPrice(need, .noPoint, offline: true) }
        let (requests, unpriceable) = FillPlanner.plan([need], plan: configuration.api.plan, now: Self.nowMilliseconds())
        if let gap = unpriceable.first?.gap { throw Self.noPrice(need, gap) }
        for request in requests {
            if case .failure(let refused) = try fetchPoints(request) { throw Self.noPrice(need, refused.gap) }
        }
        if let found = try storedPoint(coinID: query.coinID, vsCurrency: vs.code, time: query.time) { return found }
        throw Self.noPrice(need, .noPoint)
    }

    /// `priceAt` from `{"coin_id","timestamp","vs_currency"}`.
    /// - Throws: as `priceAt`, and `.invalidArgument` for malformed JSON or a bad field.
    public func priceAt(json: String) throws -> HistoricalPrice {
        try priceAt(PriceQuery(json: json))
    }

    /// Sets or removes one of the owner's manual prices (SPEC §17). With a time it is a
    /// historical point: `price_at` takes it for the whole UTC day of that time, before any
    /// CoinGecko point. Without one it is the coin's current price in that currency: `portfolio`,
    /// `statistics` and `pnl` value a holding with it (`price_source` "manual") while the snapshot
    /// has no price for the coin — a token CoinGecko does not list. A nil price removes it
    /// (removing what is not there is no error). Never touches the network.
    /// - Throws: `.invalidArgument` for a currency CoinGecko does not price in (the engine's own,
    ///   when the setting names none); `.store`.
    public func setPrice(_ setting: PriceSetting) throws {
        let vs = setting.vsCurrency ?? configuration.vsCurrency
        try vs.requireCoinGeckoQuote()
        try store.setManualPrice(coinID: setting.coinID, vsCurrency: vs.code, time: setting.time, price: setting.price)
    }

    /// `setPrice` from `{"coin_id","vs_currency","timestamp","price"}`.
    /// - Throws: as `setPrice`, and `.invalidArgument` for malformed JSON or a bad field
    ///   (`details.field`): nothing is written.
    public func setPrice(json: String) throws {
        try setPrice(PriceSetting(json: json))
    }

    /// Where ledger writes find the prices of the past (SPEC §16: "that coin's stored price at
    /// that time"): `storedPrice`, the rule without its fetch step, as the ledger's seam. A store
    /// failure while looking is no price (the row is then pending; the write itself reports the
    /// store). A snapshot price counts as `coingecko` (it is CoinGecko's `current_price`).
    var storedPrices: StoredPrices { storedPrices(within: nil) }

    /// `storedPrices` read through `held`, the store's database an import's write already holds
    /// (its own lookups would wait for that write: `StoreConnection.reading(within:_:)`).
    func storedPrices(within held: (any Database)?) -> StoredPrices {
        nonisolated(unsafe) let held = held
        return StoredPrices { [self] coinID, vsCurrency, time in
            guard let found = try? storedPrice(coinID: coinID, vsCurrency: vsCurrency, time: time, within: held) else { return nil }
            return found.ledgerPrice
        }
    }

    /// The rule without its fetch step (SPEC §16: what a trade or fee row without a price takes):
    /// the owner's manual point of the day, the stored CoinGecko points of the day, the snapshot
    /// within an hour. Never touches the network.
    /// - Returns: nil when none of them has a price.
    /// - Throws: `.store`.
    func storedPrice(coinID: String, vsCurrency: String, time: Int64, within held: (any Database)? = nil) throws -> HistoricalPrice? {
        let manual = try store.manualPricePoints(coinID: coinID, vsCurrency: vsCurrency, onDayOf: time, within: held)
        if let point = PriceRule.pick(among: manual, time: time, timeOf: { $0.time ?? time }) {
            return HistoricalPrice(manual: point, time: time, at: point.time ?? time)
        }
        if let found = try storedPoint(coinID: coinID, vsCurrency: vsCurrency, time: time, within: held) { return found }
        // Inside a write (`held`) the snapshot in memory, without the version check: the check
        // reads the database, which the write holds.
        return snapshotPrice(coinID: coinID, vsCurrency: vsCurrency, time: time, checkingSaved: held == nil)
    }

    /// Steps 2–3: a stored CoinGecko point of the day.
    private func storedPoint(coinID: String, vsCurrency: String, time: Int64, within held: (any Database)? = nil) throws -> HistoricalPrice?
    {
        let stored = try store.pricePointCandidates(coinID: coinID, vsCurrency: vsCurrency, time: time, within: held)
        guard let point = PriceRule.pick(atOrBefore: stored.atOrBefore, after: stored.after, time: time, timeOf: \.time) else {
            return nil
        }
        return HistoricalPrice(
            coinID: coinID, vsCurrency: vsCurrency, time: time, marketPrice: point.price, at: point.time, source: .coingecko)
    }

    /// Step 4: the snapshot's price, when the snapshot is in `vsCurrency` and the coin's
    /// `last_updated` lies within an hour of `time`. `checkingSaved`: first the version check
    /// (`currentSnapshot`, a read of the database); false inside a write, which holds it.
    func snapshotPrice(coinID: String, vsCurrency: String, time: Int64, checkingSaved: Bool = true) -> HistoricalPrice? {
        guard vsCurrency == configuration.vsCurrency.code,
            let snapshot = checkingSaved ? currentSnapshot() : self.snapshot.withLock({ $0 }), let position = snapshot.indexByID[coinID],
            let price = snapshot.coins.currentPrice(at: position),
            let updated = snapshot.coins.read(position, { $0.lastUpdated }).flatMap(ChartTime.milliseconds(iso:)),
            let lastUpdated = Int64(exactly: updated), PriceRule.snapshotPrices(lastUpdated: lastUpdated, time: time)
        else { return nil }
        return HistoricalPrice(coinID: coinID, vsCurrency: vsCurrency, time: time, marketPrice: price, at: lastUpdated, source: .snapshot)
    }

    /// Sends one planned range request and stores its points for every owner.
    /// - Returns: the points stored (empty when CoinGecko sent none), or the gap when CoinGecko
    ///   refused the range (10012: `historyLimit`) or does not know the coin (404: `unknownCoin`).
    /// - Throws: the client's other errors; `.store`.
    func fetchPoints(_ request: FillPlanner.Request) throws -> Result<[PricePoint], PriceGapError> {
        let chart: MarketChart
        do {
            chart = try client.marketChartRange(
                id: request.coinID,
                MarketChartRangeRequest(vsCurrency: VsCurrency(trusted: request.vsCurrency), from: request.from, to: request.to))
        } catch let error as CoinfolioError where error.code == .notFound {
            return .failure(PriceGapError(gap: .unknownCoin))
        } catch let error as CoinfolioError where error.code == .unauthorized && error.details[.errorCode] == .number(10012) {
            return .failure(PriceGapError(gap: .historyLimit))
        }
        let points = PricePoint.storable(chart.prices)
        try store.savePricePoints(coinID: request.coinID, vsCurrency: request.vsCurrency, points: points)
        return .success(points)
    }

    /// `.noData` for a time without a price: `details` `{reason, coin_id, vs_currency, timestamp}`;
    /// `offline`: nothing was asked of CoinGecko.
    static func noPrice(_ need: FillPlanner.Need, _ gap: PriceGap, offline: Bool = false) -> CoinfolioError {
        let when = LedgerTimestamp.format(need.time)
        var message: String
        let reason: CoinfolioError.Reason
        switch gap {
        case .historyLimit:
            message = "the plan reaches back 365 days only: no \(need.vsCurrency) price of \(need.coinID) at \(when)"
            reason = .historyLimit
        case .unknownCoin:
            message = "CoinGecko does not know the coin \"\(need.coinID)\""
            reason = .unknownCoin
        case .noPoint:
            message = "CoinGecko has no \(need.vsCurrency) price of \(need.coinID) on the UTC day of \(when)"
            reason = .noPoint
        case .maxRequests, .rateLimited:
            message = "no \(need.vsCurrency) price of \(need.coinID) at \(when) yet"
            reason = .noPoint
        }
        if offline {
            message = "no stored \(need.vsCurrency) price of \(need.coinID) on the UTC day of \(when) (nothing was asked of CoinGecko)"
        }
        return CoinfolioError(
            .noData, message, reason: reason,
            details: [.coinID: .string(need.coinID), .vsCurrency: .string(need.vsCurrency), .timestamp: .string(when)])
    }

    /// The current time in ms since 1970.
    static func nowMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
