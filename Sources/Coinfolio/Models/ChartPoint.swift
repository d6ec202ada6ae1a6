/// One point of a time series: a time in milliseconds since 1970 (UTC) and a value, or nil for a
/// gap (CoinGecko sent null, or something that is not a number).
public struct ChartPoint: Hashable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z, as CoinGecko sends them.
    public var time: Double
    /// The value at `time` (a price, cap or volume in vs_currency); nil for a gap, never 0.
    public var value: Double?

    /// A point; `value` nil is a gap.
    public init(time: Double, value: Double?) {
        self.time = time
        self.value = value
    }
}

extension ChartPoint {
    /// `[[t_ms,v|null]…]`
    static func write(_ points: [ChartPoint], to w: inout JSONWriter) {
        w.beginArray()
        for point in points {
            w.beginArray(); w.number(point.time); w.number(point.value); w.endArray()
        }
        w.endArray()
    }
}
