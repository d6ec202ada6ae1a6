import Foundation

/// Cheap price updates (`/simple/price`) for bots that poll: only the held coins change.
extension PortfolioEngine {
    /// Updates the held coins' prices with one `GET /simple/price` request (one per 250 held
    /// coins), instead of a full refresh: a bot polling every minute spends one request.
    ///
    /// A coin the answer prices takes its price, 24 h change (percent; a null change included)
    /// and `last_updated` from it, and its `price_change_24h` becomes the change in vs_currency
    /// those imply (nil when the change is unknown). A coin it does not price keeps its previous
    /// price, change and time. Only held coins in the snapshot change, and only they are
    /// touched: every other coin stays as it was in memory and in the saved snapshot (whose
    /// record bytes are copied, its sparkline rows and id kept; `SnapshotStore.updatePrices`).
    /// The snapshot's `as_of` becomes the newest `last_updated` of the priced coins when that is
    /// newer (a snapshot without any data time takes the update's time).
    /// - Returns: how many coins were priced, and the snapshot's time.
    /// - Throws: `.noData` without a snapshot (refresh or load first); the client's errors (the
    ///   snapshot is then unchanged); `.store` (the snapshot is then unchanged).
    @discardableResult
    public func refreshPrices() throws -> RefreshSummary {
        try WorkInProgress.refuseNested(self, "refresh_prices")
        return try reportingRefresh(pricesOnly: true) {
            try refreshLock.withLock { _ in try WorkInProgress.doing(self) { try refreshPricesHoldingLock() } }
        }
    }

    /// `refreshPrices()`'s work, run holding `refreshLock`.
    private func refreshPricesHoldingLock() throws -> RefreshSummary {
        let snapshot = try requireSnapshot()
        var unchanged = RefreshSummary(
            coins: 0, asOf: snapshot.asOf, fetchedAt: snapshot.fetchedAt,
            isStale: snapshot.isStale(now: Date(), staleAfter: configuration.staleAfter), fetched: false)
        let held = try heldCoinIDs().filter { snapshot.indexByID[$0] != nil }
        guard !held.isEmpty else { return unchanged }
        let answer = try client.simplePrice(SimplePriceRequest(ids: held, vsCurrency: configuration.vsCurrency))
        unchanged.fetched = true
        var changed: [Int: Coin] = [:]
        // The data's own time so far (none when the snapshot's as_of is only its fetch time).
        var newest: Double? = snapshot.asOf == snapshot.fetchedAt ? nil : snapshot.asOf.timeIntervalSince1970
        for id in held {
            guard let position = snapshot.indexByID[id], let quote = answer.prices[id], let price = quote.price else { continue }
            var coin = snapshot.coins[position]
            coin.apply(quote, price: price)
            if let time = coin.lastUpdated.flatMap(ISOTime.seconds) { newest = max(newest ?? time, time) }
            changed[position] = coin
        }
        guard !changed.isEmpty else { return unchanged }
        try WorkCancellation.check()  // a cancelled async update stops before it writes
        let fetchedAt = Date()
        let asOf = newest.map { Date(timeIntervalSince1970: $0) } ?? fetchedAt
        let coins = snapshot.coins.replacing(changed)
        var stamp: SnapshotStore.Stamp?
        if store.keepsSnapshots {
            let vs = configuration.vsCurrency.code
            let updated = try snapshot.savedID.flatMap {
                try store.saveSnapshotPrices(
                    snapshotID: $0, vsCurrency: vs, replaced: coins.savedBlob, changed: changed, asOf: asOf, fetchedAt: fetchedAt)
            }
            guard let updated else {
                // Not saved here before, or another engine replaced the saved snapshot since:
                // this one is saved whole, as a refresh's (its sparklines read back first).
                var whole = Array(coins)
                for position in whole.indices where whole[position].sparklineIn7d == nil {
                    whole[position].sparklineIn7d = snapshot.sparklinePrices(position)
                }
                var summary = try install(coins: whole, marketData: snapshot.marketData)
                summary.coins = changed.count
                return summary
            }
            stamp = updated
        }
        let next = MarketSnapshot(updating: snapshot, coins: coins, changed: changed.keys, asOf: asOf, fetchedAt: fetchedAt, saved: stamp)
        self.snapshot.withLock { $0 = next }
        return RefreshSummary(
            coins: changed.count, asOf: asOf, fetchedAt: fetchedAt,
            isStale: next.isStale(now: fetchedAt, staleAfter: configuration.staleAfter))
    }
}

extension Coin {
    /// Takes a `/simple/price` answer: price, 24 h change and update time (nil when unknown or
    /// outside 1970…9999).
    mutating func apply(_ quote: SimplePrice, price: Double) {
        currentPrice = price
        priceChangePercentage24h = quote.change24h
        changeWindows[.h24] = quote.change24h
        if let percent = quote.change24h, percent > -100 {
            let change = price - price / (1 + percent / 100)
            priceChange24h = change.isFinite ? change : nil
        } else {
            priceChange24h = nil
        }
        // A time outside 1970…9999 is no real update time (an ISO-8601 year has four digits): unknown.
        lastUpdated = quote.lastUpdatedAt.flatMap {
            (0..<253_402_300_800).contains($0) ? isoTimestamp(Date(timeIntervalSince1970: $0)) : nil
        }
    }
}
