import Foundation

/// The snapshot an engine holds and the one saved in its database, which every engine of the
/// database shares (SPEC §20): installed and saved, restored at open, followed when another engine
/// saves a new one (the version check), and which of its coins an owner sees listed.
extension PortfolioEngine {
    /// What `SnapshotStore` saves with the coins of `download`.
    func contents(of download: Download, fetchedAt: Date, coverage: SnapshotStore.Coverage?) -> SnapshotStore.Contents {
        let asOf = MarketSnapshot.dataTime(coins: download.coins, marketData: download.marketData) ?? fetchedAt
        return SnapshotStore.Contents(
            vsCurrency: configuration.vsCurrency.code, asOf: asOf.timeIntervalSince1970, fetchedAt: fetchedAt.timeIntervalSince1970,
            marketData: download.marketData, coverage: coverage, listed: download.listed)
    }

    /// Swaps in the snapshot of `download`, saved as `saved` (nil: not saved), fetched at `fetchedAt`.
    func install(_ download: Download, fetchedAt: Date, saved: SnapshotStore.Stamp?) throws -> RefreshSummary {
        let asOf = MarketSnapshot.dataTime(coins: download.coins, marketData: download.marketData) ?? fetchedAt
        let next = MarketSnapshot(
            coins: SnapshotCoins(download.coins), marketData: download.marketData, asOf: asOf, fetchedAt: fetchedAt, saved: saved,
            listed: download.listed, positionByID: download.positionByID)
        snapshot.withLock { $0 = next }
        return RefreshSummary(
            coins: download.coins.count, asOf: asOf, fetchedAt: fetchedAt,
            isStale: next.isStale(now: fetchedAt, staleAfter: configuration.staleAfter), fetched: true)
    }

    /// Swaps in a new snapshot of `coins` — one row per id: `MarketRows` merged them, and
    /// nothing here merges again — and saves it holding the currency's market lock (compact
    /// form, per vs_currency; not on a private `:memory:` database, see
    /// `PortfolioStore.keepsSnapshots`). Every coin is listed. `positionByID`: the merge's index
    /// of `coins` when it has one.
    func install(coins: [Coin], marketData: MarketData?, positionByID: [String: Int]? = nil) throws -> RefreshSummary {
        let fetchedAt = Date()
        let download = Download(coins: coins, marketData: marketData, listed: nil, positionByID: positionByID)
        // A private `:memory:` database is read by no one but this engine, whose vs_currency is
        // fixed, and ends with it: a saved copy there would only double the memory of the
        // snapshot already held (and its sparkline text), so it is not written.
        var saved: SnapshotStore.Stamp?
        if store.keepsSnapshots {
            saved = try store.saveSnapshot(contents(of: download, fetchedAt: fetchedAt, coverage: nil), coins: coins)
        }
        return try install(download, fetchedAt: fetchedAt, saved: saved)
    }

    func markRefreshFailed() {
        guard snapshot.withLock({ $0 != nil }) else { return }
        let stamp = try? store.markSnapshotRefreshFailed(vsCurrency: configuration.vsCurrency.code)
        snapshot.withLock { current in current = current?.markedFailed(saved: stamp ?? nil) }
    }

    /// The saved snapshot of the engine's vs_currency, as it opens (see `restoreSnapshot(from:)`);
    /// nil when there is none.
    /// - Throws: `.store` for a damaged saved form (the caller then opens without a snapshot).
    func restoreSnapshot() throws -> MarketSnapshot? {
        guard let saved = try store.savedSnapshot(vsCurrency: configuration.vsCurrency.code) else { return nil }
        return try restoreSnapshot(from: saved)
    }

    /// `saved` as a snapshot: compact coins skimmed, never decoded whole; the market data from its
    /// compact form (`MarketDataCodec`; a row saved before it as `/global` JSON is read as such).
    /// A snapshot schema 1 saved as a CoinGecko body is decoded once and saved again in the compact
    /// form (best effort: a read-only file still opens).
    /// - Throws: `.store` for a damaged saved form.
    func restoreSnapshot(from saved: SnapshotStore.Saved) throws -> MarketSnapshot? {
        let vs = configuration.vsCurrency.code
        let marketData = saved.marketData
        switch saved.content {
        case .compact(let compact):
            let restored = MarketSnapshot(
                coins: SnapshotCoins(compact), marketData: marketData, asOf: Date(timeIntervalSince1970: saved.asOf),
                fetchedAt: Date(timeIntervalSince1970: saved.fetchedAt), refreshFailed: saved.refreshFailed,
                storedSparklines: .init(store: store, snapshotID: saved.stamp.id, hasSparkline: compact.skimmed.hasSparkline),
                saved: saved.stamp, listed: saved.listed)
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
            let download = Download(coins: coins, marketData: marketData, listed: nil)
            var resaved = try? store.saveSnapshot(contents(of: download, fetchedAt: fetchedAt, coverage: nil), coins: coins)
            if resaved != nil, saved.refreshFailed { resaved = (try? store.markSnapshotRefreshFailed(vsCurrency: vs)) ?? resaved }
            let asOf = MarketSnapshot.dataTime(coins: coins, marketData: marketData) ?? fetchedAt
            return MarketSnapshot(
                coins: SnapshotCoins(coins), marketData: marketData, asOf: asOf, fetchedAt: fetchedAt,
                refreshFailed: saved.refreshFailed, saved: resaved)
        }
    }

    // MARK: - The version check

    /// The version check (SPEC §20): at most once a second, one indexed read of the market-data
    /// version of the engine's vs_currency (`PortfolioStore.changeVersions`); when another engine
    /// saved a change since this one's snapshot (a higher version), the saved snapshot is installed. So an engine
    /// sees a snapshot another engine saved on its first query that starts at least 1 s after
    /// the save. Skipped on a private `:memory:` database and while this engine refreshes (the
    /// refresh installs what it finds); a database that does not answer leaves the snapshot as it
    /// is (the query answers from memory).
    /// - Parameter force: check now, whenever the last check was.
    /// - Returns: the versions read (nil when no check ran): the ledger counter for a change stream.
    @discardableResult
    func followSharedChanges(force: Bool = false) -> ChangeVersions? {
        guard claimVersionCheck(force: force) else { return nil }
        return refreshLock.withLockIfAvailable { _ -> ChangeVersions? in
            guard let versions = try? store.changeVersions(vsCurrency: configuration.vsCurrency.code) else { return nil }
            follow(marketVersion: versions.market)
            return versions
        } ?? nil
    }

    /// The owner's view of `portfolio` (`OwnerView`: ledger, currency, manual prices in the
    /// engine's vs_currency and the portfolio's, in one round trip) with the version check
    /// folded into the same statement when it is due, and the snapshot after that check: what
    /// `portfolio` and `pnl` read, so that an engine kept open answers each with one round trip.
    /// - Throws: `.store`.
    func ownerView(portfolio: String) throws -> (snapshot: MarketSnapshot?, view: OwnerView) {
        let vs = configuration.vsCurrency.code
        let checking = claimVersionCheck(force: false)
        let view = try store.ownerView(portfolio: portfolio, manualPricesIn: vs, marketVersionOf: checking ? vs : nil)
        // While this engine refreshes, the refresh installs what it finds.
        if checking { _ = refreshLock.withLockIfAvailable { _ in follow(marketVersion: view.marketVersion) } }
        return (snapshot.withLock { $0 }, view)
    }

    /// Whether the version check is due (never on a private `:memory:` database; at most once
    /// a second unless `force`); a due check counts as made from now.
    private func claimVersionCheck(force: Bool) -> Bool {
        guard store.keepsSnapshots else { return false }
        let now = ContinuousClock.now
        return versionCheck.withLock { last -> Bool in
            if !force, let last, now - last < Self.versionCheckInterval { return false }
            last = now
            return true
        }
    }

    /// Installs the saved snapshot when `marketVersion` (read by the version check) is higher
    /// than the engine's. Only while holding `refreshLock`.
    private func follow(marketVersion: Int?) {
        // Versions only grow: a lower one is a standby that has not replayed this engine's own save.
        let held = snapshot.withLock { $0?.saved?.version } ?? 0
        if let market = marketVersion, market > held, let restored = try? restoreSnapshot(), (restored.saved?.version ?? 0) > held {
            snapshot.withLock { $0 = restored }
        }
    }

    /// How often the version check reads the database at most.
    static let versionCheckInterval: Duration = .seconds(1)

    // MARK: - Which coins an owner sees listed

    /// Whether the coin at `position` of `snapshot` is listed for this owner: every coin of the
    /// top list is; a coin a refresh added because some owner holds it only for an owner who
    /// holds it (`held`: this owner's held ids, read once per call by the caller), so that no
    /// owner learns from the list which coins others hold.
    func isListed(_ position: Int, in snapshot: MarketSnapshot, held: Set<String>) -> Bool {
        guard let listed = snapshot.listed, position >= listed else { return true }
        return held.contains(snapshot.coins.id(at: position))
    }

    /// This owner's held ids when `snapshot` has coins beyond its top list (empty otherwise: none
    /// is needed).
    func heldIDsForListing(_ snapshot: MarketSnapshot) throws -> Set<String> {
        snapshot.listed == nil ? [] : Set(try heldCoinIDs())
    }
}
