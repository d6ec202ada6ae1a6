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
            return snapshot.coins[positions[index]].isPriceAvailable
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
                Coin(id: entry.coinID, symbol: "", name: "").writeJSON(to: &w, sparkline: sparkline, known: false)
            }
            return (entry.value != nil, entry.amount, entry.value)
        }
    }

    /// The portfolio answer with `"coins_by_reference": true`: the keys of `portfolioJSON`, plus
    /// `"snapshot_version"` (an integer naming the snapshot the answer was joined with, a new one
    /// each time the engine's snapshot is replaced — load, refresh, price update, a failed
    /// refresh marking it stale — and unique in the process; null without a snapshot). Each
    /// element of `"coins"` starts with `"in_snapshot"`: when true it is
    /// `{"in_snapshot":true,"id","price_available","current_holdings","current_holdings_value"}`
    /// and stands for that coin's market members as the plain answer writes them for that
    /// snapshot and sparkline choice, in front of the three holding keys; when false (no market
    /// row) it is the plain answer's element (every market key null) after `"in_snapshot":false`.
    /// - Throws: `.store` when the holdings cannot be read.
    @_spi(ABI) public func portfolioByReferenceJSON(_ query: PortfolioQuery) throws -> JSONAnswer {
        let (snapshot, held, total) = try sortedHoldings(query)
        var w = JSONWriter(reserving: held.count * 112 + 128)
        w.beginObject()
        w.key("coins"); w.beginArray()
        for entry in held {
            w.beginObject()
            let inSnapshot = snapshot != nil && entry.position != nil
            w.key("in_snapshot"); w.bool(inSnapshot)
            if inSnapshot {
                w.key("id"); w.string(entry.coinID)
            } else {
                Coin(id: entry.coinID, symbol: "", name: "").writeJSON(to: &w, sparkline: query.sparkline, known: false)
            }
            w.key("price_available"); w.bool(entry.value != nil)
            w.key("current_holdings"); w.number(entry.amount)
            w.key("current_holdings_value"); w.number(entry.value)
            w.endObject()
        }
        w.endArray()
        w.key("total_value"); w.number(total)
        w.key("unpriced_holdings"); w.number(held.reduce(0) { $0 + ($1.value == nil ? 1 : 0) })
        w.key("as_of"); w.string(snapshot.map { isoTimestamp($0.asOf) })
        w.key("fetched_at"); w.string(snapshot.map { isoTimestamp($0.fetchedAt) })
        w.key("stale"); w.bool(snapshot?.isStale(now: Date(), staleAfter: configuration.staleAfter) ?? true)
        w.key("snapshot_version"); w.number(snapshot?.version)
        w.endObject()
        return w.answer
    }
}
