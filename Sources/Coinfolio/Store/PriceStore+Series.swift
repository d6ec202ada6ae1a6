/// A coin's prices over a range of days, read once and kept (SPEC §19: `performance` asked again
/// over the same range reads no point again). Kept while the database's change stamp stays the
/// same (`Database.changeStamp()`: on SQLite no commit of another connection and no row changed
/// by this one; any change of any table drops every kept series); on PostgreSQL nothing is kept.
/// At most `KeptPriceSeries.pointLimit` points are kept (16 bytes each, 16 MB): a series that
/// would pass it drops everything kept before it.
extension PriceStore {
    /// The stored CoinGecko points and the owner's manual points of one coin and currency in
    /// [from, to] and [from, to + 1) (ms), as a `PriceSeries`: read in one hold of the connection
    /// after its change stamp, so a series is never kept under a stamp older than its rows.
    /// `expected`: how many points to make room for.
    /// - Throws: `.store`; `.store` too for a stored manual price that is no decimal.
    func series(coinID: String, vsCurrency: String, from: Int64, to: Int64, expected: Int = 0) throws -> PriceSeries {
        let key = KeptPriceSeries.Key(coinID: coinID, vsCurrency: vsCurrency, from: from, to: to)
        return try connection.reading { database in
            let stamp = try database.changeStamp()
            if let stamp, let series = kept.withLock({ $0.series(key, at: stamp) }) { return series }
            let series = PriceSeries(
                points: try points(coinID: coinID, vsCurrency: vsCurrency, from: from, to: to, expected: expected, within: database),
                manual: try manualPoints(coinID: coinID, vsCurrency: vsCurrency, from: from, before: to + 1, within: database))
            if let stamp { kept.withLock { $0.keep(series, as: key, at: stamp) } }
            return series
        }
    }
}

/// The series `PriceStore.series` keeps, with the change stamp they were read at.
struct KeptPriceSeries: Sendable {
    /// Which series: coin, currency and the range of times (ms, both ends included).
    struct Key: Hashable, Sendable {
        let coinID: String
        let vsCurrency: String
        let from: Int64
        let to: Int64
    }

    /// The most points kept in all (CoinGecko's and manual ones together): 1,000,000, 16 MB of
    /// times and prices (five years of daily points of 547 coins).
    static let pointLimit = 1_000_000

    private var stamp: DatabaseChangeStamp?
    private var kept: [Key: PriceSeries] = [:]
    private var pointCount = 0

    /// The series kept for `key`, when the database is still as it was at `stamp`.
    mutating func series(_ key: Key, at stamp: DatabaseChangeStamp) -> PriceSeries? {
        guard stamp == self.stamp else { return nil }
        return kept[key]
    }

    /// Keeps `series`: everything kept before a different stamp, or past the limit, is dropped.
    mutating func keep(_ series: PriceSeries, as key: Key, at stamp: DatabaseChangeStamp) {
        let count = series.points.count + series.manual.count
        if stamp != self.stamp || pointCount + count > Self.pointLimit {
            kept.removeAll()
            pointCount = 0
            self.stamp = stamp
        }
        guard count <= Self.pointLimit else { return }
        if let replaced = kept.updateValue(series, forKey: key) { pointCount -= replaced.points.count + replaced.manual.count }
        pointCount += count
    }
}
