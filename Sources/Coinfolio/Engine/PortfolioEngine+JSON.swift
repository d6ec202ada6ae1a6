import Foundation

/// The ABI's way to the snapshot's cached JSON: the same answers as `coins(_:)` and
/// `portfolio(_:)` followed by `.json`, byte for byte, written from each coin's JSON members
/// cached in the snapshot instead of from copied `Coin` values.
extension PortfolioEngine {
    /// `coins(query).json`, sized once: the cached members are placed by reference and copied
    /// once into the caller's buffer (see `JSONAnswer`).
    /// - Throws: `.noData` without a snapshot.
    @_spi(ABI) public func coinsJSON(_ query: CoinQuery) throws -> JSONAnswer {
        let (snapshot, page, total, isStale) = try listingPage(query)
        let encoded = page.map { snapshot.encodedCoin($0, sparkline: query.sparkline) }
        let positions = Array(page)
        return CoinListing.answer(
            count: encoded.count, reserving: encoded.count * 32 + 96, total: total,
            asOf: snapshot.asOf, fetchedAt: snapshot.fetchedAt, isStale: isStale
        ) { index, w in
            w.members(deferred: encoded[index])
            return snapshot.coins.read(positions[index]) { $0.isPriceAvailable }
        }
    }

    /// `portfolio(query).json`, sized once (see `coinsJSON`).
    /// - Throws: `.store` when the holdings cannot be read.
    @_spi(ABI) public func portfolioJSON(_ query: PortfolioQuery) throws -> JSONAnswer {
        if query.coinsByReference { return try portfolioByReferenceJSON(query) }
        let (snapshot, held, total) = try sortedHoldings(query)
        let sparkline = query.sparkline
        return Portfolio.answer(
            count: held.count, reserving: held.count * 96 + 96, totalValue: total,
            unpricedHoldings: held.reduce(0) { $0 + ($1.value == nil ? 1 : 0) }, asOf: snapshot?.asOf,
            fetchedAt: snapshot?.fetchedAt, isStale: snapshot?.isStale(now: Date(), staleAfter: configuration.staleAfter) ?? true
        ) { index, w in
            let entry = held[index]
            if let snapshot, let position = entry.position {
                w.members(deferred: snapshot.encodedCoin(position, sparkline: sparkline))
            } else {
                let coin = PortfolioEntry.absentCoin(entry.coinID, manualPrice: entry.manualPrice)
                coin.writeJSON(to: &w, sparkline: sparkline, known: false)
            }
            return (entry.value != nil, entry.amount, entry.value, entry.priceSource)
        }
    }

    /// The portfolio answer with `"coins_by_reference": true`: the keys of `portfolioJSON` with
    /// `"coins"` in another form, and `"snapshot_version"` (an integer naming the snapshot the
    /// answer was joined with, a new one each time the engine's snapshot is replaced — load,
    /// refresh, price update, a failed refresh marking it stale — and unique in the process;
    /// null without a snapshot). Each element of `"coins"` is either a string, the id of a coin
    /// of that snapshot, standing for the plain answer's element (the coin's market members as
    /// that snapshot and sparkline choice give them, then the four holding keys), or, for a
    /// held coin with no market row, the plain answer's element itself. The holding keys of
    /// every element come as four arrays in the same order, after `"coins"`:
    /// `"price_available"`, `"current_holdings"`, `"current_holdings_value"`, `"price_source"`.
    /// Columns, not one object per holding, so that a host parses no object per coin.
    /// - Throws: `.store` when the holdings cannot be read.
    @_spi(ABI) public func portfolioByReferenceJSON(_ query: PortfolioQuery) throws -> JSONAnswer {
        let (snapshot, held, total) = try sortedHoldings(query)
        var w = JSONWriter(reserving: held.count * 64 + 256)
        w.beginObject()
        w.key(Portfolio.JSONKey.coins); w.beginArray()
        for entry in held {
            if snapshot != nil, entry.position != nil {
                w.string(entry.coinID)
            } else {
                w.beginObject()
                PortfolioEntry.absentCoin(entry.coinID, manualPrice: entry.manualPrice).writeJSON(
                    to: &w, sparkline: query.sparkline, known: false)
                w.key(Portfolio.CoinKey.priceAvailable); w.bool(entry.value != nil)
                w.key(Portfolio.CoinKey.currentHoldings); w.number(entry.amount)
                w.key(Portfolio.CoinKey.currentHoldingsValue); w.number(entry.value)
                w.key(Portfolio.CoinKey.priceSource); w.string(entry.priceSource)
                w.endObject()
            }
        }
        w.endArray()
        w.key(Portfolio.CoinKey.priceAvailable); w.beginArray()
        for entry in held { w.bool(entry.value != nil) }
        w.endArray()
        w.key(Portfolio.CoinKey.currentHoldings); w.beginArray()
        for entry in held { w.number(entry.amount) }
        w.endArray()
        w.key(Portfolio.CoinKey.currentHoldingsValue); w.beginArray()
        for entry in held { w.number(entry.value) }
        w.endArray()
        w.key(Portfolio.CoinKey.priceSource); w.beginArray()
        for entry in held { w.string(entry.priceSource) }
        w.endArray()
        w.key(Portfolio.JSONKey.totalValue); w.number(total)
        w.key(Portfolio.JSONKey.unpricedHoldings); w.number(held.reduce(0) { $0 + ($1.value == nil ? 1 : 0) })
        Freshness(
            asOf: snapshot?.asOf, fetchedAt: snapshot?.fetchedAt,
            isStale: snapshot?.isStale(now: Date(), staleAfter: configuration.staleAfter) ?? true
        ).write(to: &w)
        w.key(Portfolio.ReferenceKey.snapshotVersion); w.number(snapshot?.version)
        w.endObject()
        return w.answer
    }
}
