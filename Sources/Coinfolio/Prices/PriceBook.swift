/// The price points of several coins and currencies held in memory while `fill_prices` prices
/// many rows: read from the store once per coin and currency over the days the rows span (and
/// given the points each range request stores), then asked per row without a query. Answers by
/// `PriceRule`: the owner's manual point of the day first, then the stored points of the day.
struct PriceBook {
    /// A coin in a quote currency.
    struct Key: Hashable, Sendable {
        var coinID: String
        var vsCurrency: String
    }

    /// Points by key, sorted by time, one per time.
    private var points: [Key: [PricePoint]] = [:]
    /// The owner's manual points by key, sorted by time.
    private var manual: [Key: [ManualPrice]] = [:]

    /// Keeps `stored` (sorted by time) and `manualPoints` (sorted by time) for `key`, replacing
    /// what the book held for it.
    mutating func set(_ key: Key, stored: [PricePoint], manual manualPoints: [ManualPrice]) {
        points[key] = stored
        manual[key] = manualPoints
    }

    /// Adds points a request just stored (sorted by time); a time the book holds takes the new price.
    mutating func add(_ key: Key, _ added: [PricePoint]) {
        guard !added.isEmpty else { return }
        var byTime = Dictionary((points[key] ?? []).map { ($0.time, $0.price) }, uniquingKeysWith: { _, new in new })
        for point in added { byTime[point.time] = point.price }
        points[key] = byTime.map { PricePoint(time: $0.key, price: $0.value) }.sorted { $0.time < $1.time }
    }

    /// The price the rule gives `key` at `time` from the book (manual first), or nil.
    func price(_ key: Key, at time: Int64) -> StoredPrice? {
        if let list = manual[key], let found = Self.pick(list, time: time, timeOf: { $0.time ?? time }) {
            return StoredPrice(price: found.price, source: .manual, at: found.time ?? time)
        }
        guard let list = points[key], let found = Self.pick(list, time: time, timeOf: \.time),
            let exact = ExactDecimal(found.price)
        else { return nil }
        return StoredPrice(price: exact, source: .coingecko, at: found.time)
    }

    /// `PriceRule.pick` over a sorted list, by binary search: the last element at or before
    /// `time` and the first after it.
    static func pick<Point>(_ sorted: [Point], time: Int64, timeOf: (Point) -> Int64) -> Point? {
        var low = 0
        var high = sorted.count
        while low < high {  // the first index whose time is after `time`
            let middle = (low + high) / 2
            if timeOf(sorted[middle]) <= time { low = middle + 1 } else { high = middle }
        }
        return PriceRule.pick(
            atOrBefore: low > 0 ? sorted[low - 1] : nil, after: low < sorted.count ? sorted[low] : nil, time: time, timeOf: timeOf)
    }
}
