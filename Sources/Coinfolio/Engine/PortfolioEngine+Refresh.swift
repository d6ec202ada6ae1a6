import Foundation

/// The market snapshot's life: downloaded (`refresh`) once for every engine of a database
/// (SPEC §20), loaded from bodies (`load`), installed and saved, marked stale when a refresh fails.
extension PortfolioEngine {
    /// Brings the snapshot up to date: one `/coins/markets` request per 250 of `coinLimit` coins,
    /// one `/global` request, and one `ids=` request per 250 held coins missing from those pages
    /// (the app dropped them) — the coins this owner holds, and on a shared database those every
    /// other owner holds too, so that one snapshot prices everyone's holdings. Never a detail
    /// request. The snapshot is saved in the database, where every engine of it finds it.
    ///
    /// One refresh for many engines (SPEC §20): no request is sent when the saved snapshot of
    /// the engine's vs_currency was fetched less than `refreshMaxAge` seconds ago (by any engine)
    /// with at least this engine's `coinLimit` and windows; and engines refreshing at once —
    /// threads or processes — send one set of requests: the first holds the currency's market
    /// lock while it downloads, the others wait for it (at most `database_timeout`) and answer with
    /// its snapshot. `RefreshSummary.fetched` says which happened.
    /// - Returns: the number of coins, the data's own time (`as_of`), the fetch time, staleness,
    ///   and whether this call sent the requests.
    /// - Throws: the client's `CoinfolioError` (network, HTTP, rate limit, key, decode) or
    ///   `.store`; the previous snapshot is then kept and marked stale. `.decode` with
    ///   `details["reason"]` = `"no_coins"` when the first page decodes to no coin (`[]`, or
    ///   every row skipped): the previous snapshot is kept as it was, `stale` unchanged. `.store`
    ///   with `details["reason"]` "timeout" when another engine's refresh of the currency held
    ///   its lock for all of `database_timeout` (nothing marked stale: that refresh goes on).
    ///   Called through its async counterpart: `CancellationError` when the task is cancelled
    ///   (its request stopped; the snapshot in memory and in the database exactly as it was).
    @discardableResult
    public func refresh() throws -> RefreshSummary {
        try WorkInProgress.refuseNested(self, "refresh")
        return try reportingRefresh { try refreshLock.withLock { _ in try WorkInProgress.doing(self) { try refreshHoldingLock() } } }
    }

    /// `refresh()`'s work, run holding `refreshLock`.
    private func refreshHoldingLock() throws -> RefreshSummary {
        var downloading = false
        do {
            // A private `:memory:` database is this engine's alone: nothing to share or wait for.
            guard store.keepsSnapshots else {
                downloading = true
                return try install(try download(alsoHeld: []), fetchedAt: Date(), saved: nil)
            }
            return try refreshShared(downloading: &downloading)
        } catch let error as CoinfolioError where error.reason == .noCoins {
            throw error  // the snapshot stays exactly as it was, `stale` included
        } catch let error as CancellationError {
            throw error  // the host stopped it: nothing failed, the snapshot stays as it was
        } catch {
            if downloading { markRefreshFailed() }
            throw error
        }
    }

    /// What a refresh of a shared database found once it held the market lock.
    private enum SharedOutcome: Sendable {
        /// Another engine's snapshot answers (saved while this one waited, or within the max age).
        case adopted(SnapshotStore.Saved?)
        /// This call downloaded and saved a new snapshot.
        case fetched(Download, fetchedAt: Date, stamp: SnapshotStore.Stamp)
    }

    /// The refresh of a database other engines may share: the saved snapshot answers when it is
    /// recent enough (no lock); else under the currency's market lock, the snapshot another
    /// engine saved while this one waited answers, or this one downloads and saves.
    private func refreshShared(downloading: inout Bool) throws -> RefreshSummary {
        let vs = configuration.vsCurrency.code
        let started = Date()
        let wanted = SnapshotStore.Coverage(
            coinLimit: configuration.coinLimit, windows: configuration.priceChangePercentage.map(\.rawValue))
        if configuration.refreshMaxAge > 0, let header = try store.snapshotHeader(vsCurrency: vs),
            answers(header, wanted: wanted, startedAt: started)
        {
            return try adopt(header.stamp == currentStamp() ? nil : try store.savedSnapshot(vsCurrency: vs))
        }
        let held = try heldCoinIDs()
        nonisolated(unsafe) var began = false
        defer { downloading = began }
        let outcome = try store.withMarketLock(vsCurrency: vs) { market -> SharedOutcome in
            if let header = try market.header(), answers(header, wanted: wanted, startedAt: started) {
                return .adopted(header.stamp == currentStamp() ? nil : try market.saved())
            }
            began = true
            let others = try market.coinsHeldByOtherOwners()
            let downloaded = try download(alsoHeld: others, own: held)
            let fetchedAt = Date()
            let stamp = try market.save(contents(of: downloaded, fetchedAt: fetchedAt, coverage: wanted), coins: downloaded.coins)
            return .fetched(downloaded, fetchedAt: fetchedAt, stamp: stamp)
        }
        switch outcome {
        case .adopted(let saved): return try adopt(saved)
        case .fetched(let downloaded, let fetchedAt, let stamp): return try install(downloaded, fetchedAt: fetchedAt, saved: stamp)
        }
    }

    /// Whether the saved snapshot `header` answers a refresh that began at `startedAt`: another
    /// engine fetched it after this call began (it waited for that engine's refresh), or it is
    /// younger than `refreshMaxAge` and asked for at least what this engine asks for. Times are
    /// compared on this machine's clock with the saving engine's.
    private func answers(_ header: SnapshotStore.Header, wanted: SnapshotStore.Coverage, startedAt: Date) -> Bool {
        let fetchedAt = Date(timeIntervalSince1970: header.fetchedAt)
        if fetchedAt >= startedAt { return true }
        guard let coverage = header.coverage, coverage.covers(wanted) else { return false }
        return startedAt.timeIntervalSince(fetchedAt) < configuration.refreshMaxAge
    }

    /// The stamp of the snapshot this engine holds, nil when it holds none or an unsaved one.
    func currentStamp() -> SnapshotStore.Stamp? { snapshot.withLock { $0?.saved } }

    /// Answers a refresh with the saved snapshot another engine fetched: `saved` installed in
    /// place of this engine's (nil: this engine already holds it). `fetched` is false.
    private func adopt(_ saved: SnapshotStore.Saved?) throws -> RefreshSummary {
        if let saved, let restored = try restoreSnapshot(from: saved) { snapshot.withLock { $0 = restored } }
        guard let current = snapshot.withLock({ $0 }) else { throw noDataError() }
        return RefreshSummary(
            coins: current.coins.count, asOf: current.asOf, fetchedAt: current.fetchedAt,
            isStale: current.isStale(now: Date(), staleAfter: configuration.staleAfter), fetched: false)
    }

    /// What one download brought: the coins (the top list first, then the held coins it lacked),
    /// the `/global` data, and how many coins the top list has.
    struct Download: Sendable {
        var coins: [Coin]
        var marketData: MarketData?
        var listed: Int?
        /// Each coin's position by id when the merge already has it (`MarketRows.positionByID`);
        /// nil: the snapshot indexes the coins itself.
        var positionByID: [String: Int]? = nil
    }

    /// Downloads the top `coinLimit` coins, `/global`, and the held coins missing from the top
    /// list (`own`: this owner's, read here when nil; `alsoHeld`: other owners').
    private func download(alsoHeld others: [String], own: [String]? = nil) throws -> Download {
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
        let listed = rows.count
        progress.report(.global, done: 0, total: 1)
        let marketData = try client.global()
        progress.report(.global, done: 1, total: 1)
        let listedIDs = Set(rows.coins.lazy.map(\.id))
        let missing = Set(try own ?? heldCoinIDs()).union(others).filter { !listedIDs.contains($0) }.sorted()
        if !missing.isEmpty {
            progress.report(.ids, done: 0, total: missing.count)
            var request = try MarketsRequest(vsCurrency: vs, ids: missing, sparkline: true)
            request.priceChangePercentage = configuration.priceChangePercentage
            try client.markets(request, into: &rows)
            progress.report(.ids, done: missing.count, total: missing.count)
        }
        // An async refresh cancelled by now stops before the save that follows the download.
        try WorkCancellation.check()
        return Download(coins: rows.coins, marketData: marketData, listed: listed, positionByID: rows.positionByID)
    }

    /// The error for a markets answer with no coin: `details["reason"]` = `"no_coins"`.
    private static func noCoins(_ message: String, code: CoinfolioError.Code = .decode) -> CoinfolioError {
        CoinfolioError(code, message, reason: .noCoins)
    }

    /// Replaces the snapshot with raw CoinGecko bodies instead of downloading them (hosts with
    /// their own HTTP, saved files, offline tests). Same merge as `refresh()`: one row per id,
    /// the later row kept. Saved in the database like a refresh's snapshot (every engine of the
    /// database sees it), except in a private `:memory:` database (see
    /// `PortfolioStore.keepsSnapshots`).
    /// - Parameters:
    ///   - marketsBody: a `/coins/markets` body.
    ///   - globalBody: a `/global` body, or nil to keep the previous market data.
    /// - Returns: the number of coins, the data's own time (the newest `last_updated`, so a loaded
    ///   old body is stale at once), the load time as `fetchedAt`, staleness, and `fetched` false.
    /// - Throws: `.invalidArgument` (malformed JSON; or a markets body with no coin — `[]` or
    ///   every row skipped — with `details["reason"]` = `"no_coins"`: nothing is replaced),
    ///   `.decode` (not CoinGecko shapes), `.store`.
    @discardableResult
    public func load(marketsBody: Data, globalBody: Data?) throws -> RefreshSummary {
        // The merged rows rather than a page: a load reports no skips or warnings, and the
        // snapshot reuses the merge's id index.
        let rows = try naming("markets_body") {
            var rows = MarketRows()
            try CoinGeckoBody.markets(marketsBody, into: &rows)
            guard rows.count > 0 else {
                throw Self.noCoins("no coin in it (an empty array, or every row skipped); nothing was replaced", code: .invalidArgument)
            }
            return rows
        }
        let newMarketData = try naming("global_body") { try globalBody.map(CoinGeckoBody.global) }
        try WorkInProgress.refuseNested(self, "load")
        let summary = try refreshLock.withLock { _ in
            let marketData = newMarketData ?? currentSnapshot()?.marketData
            var summary = try install(coins: rows.coins, marketData: marketData, positionByID: rows.positionByID)
            summary.fetched = false
            return summary
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
}
