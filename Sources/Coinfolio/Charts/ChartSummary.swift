/// What a chart's series says at a glance: its first and last values (at the earliest and latest
/// times), its extremes and when they happened, and the change from first to last. Gaps are
/// ignored; every value is nil for a series with no value at all.
public struct ChartSummary: Hashable, Sendable {
    /// The value at the earliest time that has one, in vs_currency.
    public var first: Double?
    /// The value at the latest time that has one, in vs_currency.
    public var last: Double?
    /// The lowest value, in vs_currency.
    public var min: Double?
    /// The highest value, in vs_currency.
    public var max: Double?
    /// When the lowest value was first reached, milliseconds since 1970 (UTC).
    public var minAt: Double?
    /// When the highest value was first reached, milliseconds since 1970 (UTC).
    public var maxAt: Double?
    /// `last − first`, in vs_currency.
    public var change: Double?
    /// `(last − first) / first × 100`, percent units; nil when `first` is 0.
    public var percentageChange: Double?

    /// The summary of `points`, which are sorted by time.
    public init(points: [ChartPoint]) {
        self.init(count: points.count, time: { points[$0].time }, value: { points[$0].value })
    }

    /// The summary of a series read through `time` and `value` (points sorted by time).
    init(count: Int, time: (Int) -> Double, value: (Int) -> Double?) {
        for index in 0..<count {
            guard let v = value(index), v.isFinite else { continue }
            if first == nil { first = v }
            last = v
            if min.map({ v < $0 }) ?? true { min = v; minAt = time(index) }
            if max.map({ v > $0 }) ?? true { max = v; maxAt = time(index) }
        }
        if let first, let last {
            let difference = last - first
            change = difference.isFinite ? difference : nil
            let percent = difference * 100 / first
            percentageChange = first != 0 && percent.isFinite ? percent : nil
        }
    }

    /// The keys of a series' summary.
    enum JSONKey: String, WireKeys {
        case first
        case last
        case min
        case max
        case minAt = "min_at"
        case maxAt = "max_at"
        case change
        case percentageChange = "percentage_change"
    }

    /// Writes `{"first","last","min","max","min_at","max_at","change","percentage_change"}`.
    func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key(JSONKey.first); w.number(first)
        w.key(JSONKey.last); w.number(last)
        w.key(JSONKey.min); w.number(min)
        w.key(JSONKey.max); w.number(max)
        w.key(JSONKey.minAt); w.number(minAt)
        w.key(JSONKey.maxAt); w.number(maxAt)
        w.key(JSONKey.change); w.number(change)
        w.key(JSONKey.percentageChange); w.number(percentageChange)
        w.endObject()
    }
}
