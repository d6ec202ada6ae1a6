import Foundation

/// The market snapshot's life: downloaded (`refresh`), loaded from bodies (`load`), installed and
/// saved, marked stale when a refresh fails, restored when an engine opens.
extension PortfolioEngine {
    /// Downloads a new snapshot: one `/coins/markets` request per 250 of `coinLimit` coins, one
    /// `/global` request, and one `ids=` request for held coins missing from those pages (the app
    /// dropped them). Never a detail request. The snapshot is saved in the database.
    /// - Returns: the number of coins, the data's own time (`as_of`), the fetch time and staleness.
    /// - Throws: the client's `CoinfolioError` (network, HTTP, rate limit, key, decode) or
    ///   `.store`; the previous snapshot is then kept and marked stale. `.decode` with
    ///   `details["reason"]` = `"no_coins"` when the first page decodes to no coin (`[]`, or
    ///   every row skipped): the previous snapshot is kept as it was, `stale` unchanged.
    ///   Called through its async counterpart: `CancellationError` when the task is cancelled
    ///   (its request stopped; the snapshot in memory and in the database exactly as it was).
    @discardableResult
    public func refresh() throws -> RefreshSummary {
        try WorkInProgress.refuseNested(self, "refresh")
        return try reportingRefresh { try refreshLock.withLock { _ in try WorkInProgress.doing(self) { try refreshHoldingLock() } } }
    }

    /// `refresh()`'s work, run holding `refreshLock`.
    private func refreshHoldingLock() throws -> RefreshSummary {
        do {
            let vs = configuration.vsCurrency
            let perPage = min(configuration.coinLimit, MarketsRequest.maximumPerPage)
            let pages = (configuration.coinLimit + perPage - 1) / perPage
            // Every page and the ids top-up go through this one merge (a row is merged once).
            var rows = MarketRows()
            progress.report(.markets, done: 0, total: pages)
            for page in 1...pages {
                var request = try MarketsRequest(vsCurrency: vs, perPage: perPage, page: page, sparkline: true)
                request.priceChangePercentage = configuration.priceChangePercentage
                let elementsBefore = rows.elementCount
                try client.markets(request, into: &rows)
                // An empty first page (CoinGecko sends `[]` during incidents) never replaces data;
                // an empty later page just ends the paging.
                if page == 1, rows.count == 0 { throw Self.noCoins("CoinGecko returned no coins") }
                // A short page is the last; skipped elements still count toward its length.
                let isLast = rows.elementCount - elementsBefore < perPage || page == pages
                progress.report(.markets, done: page, total: isLast ? page : pages)
                if isLast { break }
            }
            rows.keepFirst(configuration.coinLimit)
            progress.report(.global, done: 0, total: 1)
            let marketData = try client.global()
            progress.report(.global, done: 1, total: 1)
            let listed = Set(rows.coins.lazy.map(\.id))
            let missing = try heldCoinIDs().filter { !listed.contains($0) }
            if !missing.isEmpty {
                progress.report(.ids, done: 0, total: missing.count)
                var request = try MarketsRequest(vsCurrency: vs, ids: missing, sparkline: true)
                request.priceChangePercentage = configuration.priceChangePercentage
                try client.markets(request, into: &rows)
                progress.report(.ids, done: missing.count, total: missing.count)
            }
            // An async refresh cancelled by now stops before the one write it makes.
            try WorkCancellation.check()
            return try install(coins: rows.coins, marketData: marketData)
        } catch let error as CoinfolioError where error.reason == .noCoins {
            throw error  // the snapshot stays exactly as it was, `stale` included
        } catch let error as CancellationError {
            throw error  // the host stopped it: nothing failed, the snapshot stays as it was
        } catch {
            markRefreshFailed()
            throw error
        }
    }

    /// The error for a markets answer with no coin: `details["reason"]` = `"no_coins"`.
    private static func noCoins(_ message: String, code: CoinfolioError.Code = .decode) -> CoinfolioError {
        CoinfolioError(code, message, reason: .noCoins)
    }

    /// Replaces the snapshot with raw CoinGecko bodies instead of downloading them (hosts with
    /// their own HTTP, saved files, offline tests). Same merge as `refresh()`: one row per id,
    /// the later row kept. Saved in the database like a refresh's snapshot, except in a private
    /// `:memory:` database (see `PortfolioStore.keepsSnapshots`).
    /// - Parameters:
    ///   - marketsBody: a `/coins/markets` body.
    ///   - globalBody: a `/global` body, or nil to keep the previous market data.
    /// - Returns: the number of coins, the data's own time (the newest `last_updated`, so a loaded
    ///   old body is stale at once), the load time as `fetchedAt`, and staleness.
    /// - Throws: `.invalidArgument` (malformed JSON; or a markets body with no coin — `[]` or
    ///   every row skipped — with `details["reason"]` = `"no_coins"`: nothing is replaced),
    ///   `.decode` (not CoinGecko shapes), `.store`.
    @discardableResult
    public func load(marketsBody: Data, globalBody: Data?) throws -> RefreshSummary {
        let page = try naming("markets_body") {
            let page = try CoinGeckoBody.markets(marketsBody)
            guard !page.coins.isEmpty else {
                throw Self.noCoins("no coin in it (an empty array, or every row skipped); nothing was replaced", code: .invalidArgument)
            }
            return page
        }
        let newMarketData = try naming("global_body") { try globalBody.map(CoinGeckoBody.global) }
        try WorkInProgress.refuseNested(self, "load")
        let summary = try refreshLock.withLock { _ in
            let marketData = newMarketData ?? currentSnapshot()?.marketData
            return try install(coins: page.coins, marketData: marketData)
        }
        changeFeed.publish(.snapshot(summary))
        return summary
    }

    /// Runs `body`, saying which input an error is about: in the message ("markets body:
    /// malformed JSON") and in `details["input"]` ("markets_body").
    private func naming<T>(_ input: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CoinfolioError {
            throw error.about(input: input)
        }
    }

    /// Swaps in a new snapshot of `coins` — one row per id: `MarketRows` merged them, and
    /// nothing here merges again — and saves it (compact form, per vs_currency; not on a
    /// private `:memory:` database, see `PortfolioStore.keepsSnapshots`).
    func install(coins: [Coin], marketData: MarketData?) throws -> RefreshSummary {
        let fetchedAt = Date()
        let asOf = MarketSnapshot.dataTime(coins: coins, marketData: marketData) ?? fetchedAt
        // A private `:memory:` database is read by no one but this engine, whose vs_currency is
        // fixed, and ends with it: a saved copy there would only double the memory of the
        // snapshot already held (and its sparkline text), so it is not written.
        var id: Int?
        if store.keepsSnapshots {
            id = try store.saveSnapshot(
                vsCurrency: configuration.vsCurrency.code, coins: coins, asOf: asOf, fetchedAt: fetchedAt, marketData: marketData)
        }
        let next = MarketSnapshot(coins: SnapshotCoins(coins), marketData: marketData, asOf: asOf, fetchedAt: fetchedAt, savedID: id)
        snapshot.withLock { $0 = next }
        return RefreshSummary(
            coins: coins.count, asOf: asOf, fetchedAt: fetchedAt,
            isStale: next.isStale(now: fetchedAt, staleAfter: configuration.staleAfter))
    }

    func markRefreshFailed() {
        let hasSnapshot = snapshot.withLock { current in
            current = current?.markedFailed()
            return current != nil
        }
        if hasSnapshot { try? store.markSnapshotRefreshFailed(vsCurrency: configuration.vsCurrency.code) }
    }

    /// The saved snapshot of the engine's vs_currency, as it opens: compact coins skimmed, never
    /// decoded whole; the market data from its compact form (`MarketDataCodec`; a row saved
    /// before it as `/global` JSON is read as such). A snapshot schema 1 saved as a CoinGecko
    /// body is decoded once and saved again in the compact form (best effort: a read-only file
    /// still opens). nil when there is none.
    /// - Throws: `.store` for a damaged saved form (the caller then opens without a snapshot).
    func restoreSnapshot() throws -> MarketSnapshot? {
        let vs = configuration.vsCurrency.code
        guard let saved = try store.savedSnapshot(vsCurrency: vs) else { return nil }
        let marketData = saved.marketData
        switch saved.content {
        case .compact(let compact):
            let restored = MarketSnapshot(
                coins: SnapshotCoins(compact), marketData: marketData, asOf: Date(timeIntervalSince1970: saved.asOf),
                fetchedAt: Date(timeIntervalSince1970: saved.fetchedAt), refreshFailed: saved.refreshFailed,
                storedSparklines: .init(store: store, snapshotID: saved.id, hasSparkline: compact.skimmed.hasSparkline),
                savedID: saved.id)
            // Every save merges its coins to one row per id: a blob naming an id twice was not
            // written by one, and would list that coin twice.
            guard restored.indexByID.count == restored.coins.count else { throw SnapshotCodec.corrupt }
            return restored
        case .marketsBody(let body):
            // Saved by schema 1 as a CoinGecko body: decode it once, learn the data's own time,
            // and save it again in the compact form (best effort: a read-only file still opens).
            let coins = try CoinGeckoBody.markets(body).coins
            // As for the compact form: a snapshot without a coin is never installed.
            guard !coins.isEmpty else { throw SnapshotCodec.corrupt }
            let fetchedAt = Date(timeIntervalSince1970: saved.fetchedAt)
            let asOf = MarketSnapshot.dataTime(coins: coins, marketData: marketData) ?? fetchedAt
            let resaved = try? store.saveSnapshot(vsCurrency: vs, coins: coins, asOf: asOf, fetchedAt: fetchedAt, marketData: marketData)
            if resaved != nil, saved.refreshFailed { try? store.markSnapshotRefreshFailed(vsCurrency: vs) }
            return MarketSnapshot(
                coins: SnapshotCoins(coins), marketData: marketData, asOf: asOf, fetchedAt: fetchedAt,
                refreshFailed: saved.refreshFailed, savedID: resaved)
        }
    }
}
