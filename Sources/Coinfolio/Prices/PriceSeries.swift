/// One coin's price points in one quote currency, held in memory and asked many times: the
/// stored CoinGecko points and the owner's manual points of some days, answering steps 1–3 of
/// `PriceRule` (the `price_at` rule without the snapshot and the fetch) with one binary search
/// per list. What `fill_prices`'s `PriceBook` keeps per coin and currency, and what
/// `performance` reads a coin's range into; `PortfolioEngine.storedPrice` asks the store the
/// same rule one time at a time (`PriceRuleTests` ties them).
struct PriceSeries: Sendable {
    /// CoinGecko's points, sorted by time, one per time.
    private(set) var points: [PricePoint]
    /// The owner's manual (historical) points, sorted by time.
    private(set) var manual: [ManualPrice]
    /// The UTC days (ascending) with more than one CoinGecko point: on any other day the
    /// CoinGecko price is one number from 00:00 to the next 00:00 (`performance`'s twr prices a
    /// flow's time again only on these days). Found once, as the series is made or added to.
    private(set) var daysWithSeveralPoints: [Int64] = []

    /// `points` and `manual` sorted by time (as the store reads them).
    init(points: [PricePoint] = [], manual: [ManualPrice] = []) {
        self.points = points
        self.manual = manual
        findDaysWithSeveralPoints()
    }

    /// Sets `daysWithSeveralPoints` from `points`.
    private mutating func findDaysWithSeveralPoints() {
        daysWithSeveralPoints = []
        for next in points.indices.dropFirst() where points[next].time - points[next - 1].time < UTCDay.milliseconds {
            let day = UTCDay.number(of: points[next].time)
            if day == UTCDay.number(of: points[next - 1].time), daysWithSeveralPoints.last != day { daysWithSeveralPoints.append(day) }
        }
    }

    /// No point at all.
    static let empty = PriceSeries()

    /// Adds points a request just stored (any order); a time the series holds takes the new price.
    mutating func add(_ added: [PricePoint]) {
        guard !added.isEmpty else { return }
        var byTime = Dictionary(points.map { ($0.time, $0.price) }, uniquingKeysWith: { _, new in new })
        for point in added { byTime[point.time] = point.price }
        points = byTime.map { PricePoint(time: $0.key, price: $0.value) }.sorted { $0.time < $1.time }
        findDaysWithSeveralPoints()
    }

    /// The price the rule gives at `time` (ms): the owner's manual point of its UTC day (the
    /// latest at or before `time`, else the earliest after), else the latest CoinGecko point in
    /// [the day's 00:00, time], else the earliest in (time, the next 00:00); nil when neither has
    /// a point that day. At a day's 00:00 that is the day's first point: `performance`'s daily
    /// value. A CoinGecko price is taken by its shortest decimal text, rounded half-to-even to 18
    /// fraction digits (`ExactDecimal(_: Double)`), as every ledger price from a point is; a point
    /// the ledger cannot hold (8.5e19 or more, or above 0 and below 5e-19, which would round to 0)
    /// gives nil: a pending row stays pending (`no_point`), never a free coin.
    func price(at time: Int64) -> StoredPrice? {
        price(at: time, firstPointAfter: Self.firstAfter(points, time: time, timeOf: \.time))
    }

    /// `price(at:)` asked at times that never decrease (a report's daily points): `cursor` (0 at
    /// first) keeps where the last search over the CoinGecko points ended, and each one walks on
    /// from there instead of searching the whole list again.
    func price(at time: Int64, cursor: inout Int) -> StoredPrice? {
        while cursor < points.count, points[cursor].time <= time { cursor += 1 }
        return price(at: time, firstPointAfter: cursor)
    }

    /// The price `price(at:cursor:)` gives, as the `PreciseDecimal` of its `ExactDecimal`, a
    /// CoinGecko point's straight from its double (`PreciseDecimal(price:)`, the same value and
    /// form): what `performance` multiplies holdings by at each day.
    func precisePrice(at time: Int64, cursor: inout Int) -> PreciseDecimal? {
        while cursor < points.count, points[cursor].time <= time { cursor += 1 }
        switch pick(at: time, firstPointAfter: cursor) {
        case .manual(let found)?: return PreciseDecimal(found.price)
        case .coingecko(let found)?: return PreciseDecimal(price: found.price)
        case nil: return nil
        }
    }

    /// Whether the rule takes a point at `time` (one `price(at:)` may still refuse as out of range).
    func hasPoint(at time: Int64) -> Bool {
        pick(at: time, firstPointAfter: Self.firstAfter(points, time: time, timeOf: \.time)) != nil
    }

    /// `precisePrice(at:cursor:)` at any time, by one binary search: what `performance`'s twr
    /// prices a flow's time with.
    func precisePrice(at time: Int64) -> PreciseDecimal? {
        var cursor = Self.firstAfter(points, time: time, timeOf: \.time)
        return precisePrice(at: time, cursor: &cursor)
    }

    /// The point the rule takes at `time`: an owner's manual point or a CoinGecko one.
    private enum Found {
        case manual(ManualPrice)
        case coingecko(PricePoint)
    }

    /// The rule at `time`, `low` being the index of the first CoinGecko point after it.
    private func price(at time: Int64, firstPointAfter low: Int) -> StoredPrice? {
        switch pick(at: time, firstPointAfter: low) {
        case .manual(let found)?: return StoredPrice(price: found.price, source: .manual, at: found.time ?? time)
        case .coingecko(let found)?:
            // A point the ledger cannot hold is none: above its range, or a positive price below
            // 5e-19 that would round to 0 (a coin worth something is never a free coin).
            guard let price = ExactDecimal(found.price), !price.isZero || found.price == 0 else { return nil }
            return StoredPrice(price: price, source: .coingecko, at: found.time)
        case nil: return nil
        }
    }

    /// The point the rule takes at `time`, `low` being the index of the first CoinGecko point after it.
    private func pick(at time: Int64, firstPointAfter low: Int) -> Found? {
        // Most coins have no manual point: no search (a report asks every day of every coin).
        if !manual.isEmpty, let found = Self.pick(manual, time: time, timeOf: { $0.time ?? time }) { return .manual(found) }
        return PriceRule.pick(
            atOrBefore: low > 0 ? points[low - 1] : nil, after: low < points.count ? points[low] : nil, time: time, timeOf: \.time
        ).map { .coingecko($0) }
    }

    /// `PriceRule.pick` over a sorted list, by binary search: the last element at or before
    /// `time` and the first after it.
    private static func pick<Point>(_ sorted: [Point], time: Int64, timeOf: (Point) -> Int64) -> Point? {
        let low = firstAfter(sorted, time: time, timeOf: timeOf)
        return PriceRule.pick(
            atOrBefore: low > 0 ? sorted[low - 1] : nil, after: low < sorted.count ? sorted[low] : nil, time: time, timeOf: timeOf)
    }

    /// The index of the first element whose time is after `time` (binary search).
    private static func firstAfter<Point>(_ sorted: [Point], time: Int64, timeOf: (Point) -> Int64) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if timeOf(sorted[middle]) <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
