import Synchronization

/// The stored prices an import looks up (SPEC §16, §17: a trade without a value, a fee row in a
/// coin): the same rule as `storedPrices(within:)`, but each coin's manual and stored CoinGecko
/// points of a UTC day are read once and kept for the rest of the write, and every time of that
/// day is answered from them. An import of many rows of one day reads three times per coin and
/// day, not three times per lookup (a Binance statement's trade looked up its two coins and its
/// BNB fee: nine reads a trade). Nothing in the write changes price points, and on SQLite the
/// write sees one state of the database throughout; on PostgreSQL (READ COMMITTED) points
/// another process stores during the import are seen from the next day read on, as if they had
/// come just after it.
extension PortfolioEngine {
    /// `storedPrices(within:)` that keeps the points of each (coin, currency, day) it reads.
    func storedPricesKeptByDay(within held: any Database) -> StoredPrices {
        nonisolated(unsafe) let held = held
        let kept = KeptDayPrices()
        return StoredPrices { [self] coinID, vsCurrency, time in
            let (dayStart, _, dayEnd) = PriceRule.window(for: time)
            let key = DayPricesKey(coinID: coinID, vsCurrency: vsCurrency, dayStart: dayStart)
            var day = kept.days.withLock { $0.day(key) }
            if day == nil {
                // A store failure is no price, as in `storedPrices(within:)`; nothing is kept then.
                guard
                    let manual = try? store.manualPricePoints(coinID: coinID, vsCurrency: vsCurrency, onDayOf: time, within: held),
                    let points = try? store.pricePoints(
                        coinID: coinID, vsCurrency: vsCurrency, from: dayStart, to: dayEnd - 1, within: held)
                else { return nil }
                day = DayPrices(manual: manual, points: points)
                kept.days.withLock { $0.keep(key, day) }
            }
            guard let day, let found = price(coinID: coinID, vsCurrency: vsCurrency, time: time, among: day) else { return nil }
            return found.ledgerPrice
        }
    }

    /// `storedPrice` answered from one day's points: the manual point, the stored point, the snapshot.
    private func price(coinID: String, vsCurrency: String, time: Int64, among day: DayPrices) -> HistoricalPrice? {
        if let point = PriceRule.pick(among: day.manual, time: time, timeOf: { $0.time ?? time }) {
            return HistoricalPrice(manual: point, time: time, at: point.time ?? time)
        }
        if let point = PriceRule.pick(among: day.points, time: time, timeOf: \.time) {
            return HistoricalPrice(
                coinID: coinID, vsCurrency: vsCurrency, time: time, marketPrice: point.price, at: point.time, source: .coingecko)
        }
        // Inside the import's write: the snapshot in memory, without the version check (a read of
        // the database the write holds).
        return snapshotPrice(coinID: coinID, vsCurrency: vsCurrency, time: time, checkingSaved: false)
    }
}

/// The days `storedPricesKeptByDay` has read.
private final class KeptDayPrices: Sendable {
    let days = Mutex(KeptDays())
}

/// The days read, by key; the last few answered are compared first (`==`, as the dictionary
/// compares): an import looks up the same few coins of one day in turn (a trade's two coins and
/// its fee coin), and hashing the key was about half of a lookup.
private struct KeptDays: Sendable {
    private var byKey: [DayPricesKey: DayPrices] = [:]
    /// Newest last, at most four.
    private var recent: [(key: DayPricesKey, day: DayPrices)] = []

    /// The day kept for `key`, or nil.
    mutating func day(_ key: DayPricesKey) -> DayPrices? {
        for entry in recent.reversed() where entry.key == key { return entry.day }
        guard let day = byKey[key] else { return nil }
        remember(key, day)
        return day
    }

    /// Keeps `day` for `key`.
    mutating func keep(_ key: DayPricesKey, _ day: DayPrices?) {
        byKey[key] = day
        if let day { remember(key, day) }
    }

    private mutating func remember(_ key: DayPricesKey, _ day: DayPrices) {
        if recent.count == 4 { recent.removeFirst() }
        recent.append((key, day))
    }
}

/// One coin's prices in one currency on one UTC day (its start, ms).
private struct DayPricesKey: Hashable, Sendable {
    let coinID: String
    let vsCurrency: String
    let dayStart: Int64
}

/// The owner's manual points and the stored CoinGecko points of one day, oldest first.
private struct DayPrices: Sendable {
    let manual: [ManualPrice]
    let points: [PricePoint]
}
