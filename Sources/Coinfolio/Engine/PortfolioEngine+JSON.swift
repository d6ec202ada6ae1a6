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
}
