import Foundation

/// The ABI's way to the snapshot's cached JSON: the same answers as `coins(_:)` and
/// `portfolio(_:)` followed by `.json`, byte for byte, written from each coin's JSON members
/// cached in the snapshot instead of from copied `Coin` values.
extension PortfolioEngine {
    /// `coins(query).json` as UTF-8 bytes.
    /// - Throws: `.noData` without a snapshot.
    @_spi(ABI) public func coinsJSON(_ query: CoinQuery) throws -> [UInt8] {
        let (snapshot, page, total, isStale) = try listingPage(query)
        let encoded = page.map { snapshot.encodedCoin($0, sparkline: query.sparkline) }
        let positions = Array(page)
        return CoinListing.writeJSON(
            count: encoded.count, reserving: encoded.reduce(0) { $0 + $1.count } + encoded.count * 32 + 96, total: total,
            asOf: snapshot.asOf, isStale: isStale
        ) { index, w in
            w.members(encoded[index])
            return snapshot.coins[positions[index]].isPriceAvailable
        }
    }

    /// `portfolio(query).json` as UTF-8 bytes.
    /// - Throws: `.store` when the holdings cannot be read.
    @_spi(ABI) public func portfolioJSON(_ query: PortfolioQuery) throws -> [UInt8] {
        let (snapshot, held, total) = try sortedHoldings(query)
        let sparkline = query.sparkline
        return Portfolio.writeJSON(
            count: held.count, reserving: held.count * (sparkline ? 4500 : 1500) + 96, totalValue: total,
            asOf: snapshot?.asOf, isStale: snapshot?.isStale(now: Date(), staleAfter: configuration.staleAfter) ?? true
        ) { index, w in
            let entry = held[index]
            if let snapshot, let position = entry.position {
                w.members(snapshot.encodedCoin(position, sparkline: sparkline))
            } else {
                Coin(id: entry.coinID, symbol: "", name: "").writeJSON(to: &w, sparkline: sparkline, known: false)
            }
            return (entry.value != nil, entry.amount, entry.value)
        }
    }
}
