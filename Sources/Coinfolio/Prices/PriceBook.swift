/// The price points of several coins and currencies held in memory while `fill_prices` prices
/// many rows: read from the store once per coin and currency over the days the rows span (and
/// given the points each range request stores), then asked per row without a query. Each coin
/// and currency is a `PriceSeries` (the owner's manual point of the day first, then the stored
/// points of the day, by `PriceRule`).
struct PriceBook {
    /// A coin in a quote currency.
    struct Key: Hashable, Sendable {
        var coinID: String
        var vsCurrency: String
    }

    /// The points by key.
    private var series: [Key: PriceSeries] = [:]

    /// Keeps `stored` (sorted by time) and `manualPoints` (sorted by time) for `key`, replacing
    /// what the book held for it.
    mutating func set(_ key: Key, stored: [PricePoint], manual manualPoints: [ManualPrice]) {
        series[key] = PriceSeries(points: stored, manual: manualPoints)
    }

    /// Adds points a request just stored; a time the book holds takes the new price.
    mutating func add(_ key: Key, _ added: [PricePoint]) {
        guard !added.isEmpty else { return }
        series[key, default: .empty].add(added)
    }

    /// The price the rule gives `key` at `time` from the book (manual first), or nil.
    func price(_ key: Key, at time: Int64) -> StoredPrice? { series[key]?.price(at: time) }

    /// Whether the book has a point the rule takes for `key` at `time`, usable or not (a point
    /// the ledger cannot hold needs no request either: asking again brings the same point).
    func hasPoint(_ key: Key, at time: Int64) -> Bool { series[key]?.hasPoint(at: time) ?? false }
}
