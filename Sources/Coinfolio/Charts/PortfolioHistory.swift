/// The portfolio's value over time, as `PortfolioEngine.portfolioHistory` answers it.
public struct PortfolioHistory: Hashable, Sendable {
    /// One hour of the portfolio.
    public struct Point: Hashable, Sendable {
        /// Milliseconds since 1970 (UTC).
        public var time: Double
        /// Σ amount × price of the holdings that have a price at `time`, in vs_currency; nil when
        /// none has.
        public var value: Double?
        /// Some priced holding has no price at `time` (its sparkline is shorter, or has a gap).
        public var partial: Bool

        /// A point of the history.
        public init(time: Double, value: Double?, partial: Bool) {
            self.time = time
            self.value = value
            self.partial = partial
        }
    }

    /// The currency of every value.
    public var vsCurrency: VsCurrency
    /// Oldest first, one hour apart.
    public var points: [Point]
    /// First, last, extremes and change of the values.
    public var summary: ChartSummary

    /// A history of `points` (sorted by time).
    public init(vsCurrency: VsCurrency, points: [Point]) {
        self.vsCurrency = vsCurrency
        self.points = points
        self.summary = ChartSummary(count: points.count, time: { points[$0].time }, value: { points[$0].value })
    }

    /// The keys of the history answer.
    enum JSONKey: String, WireKeys {
        case vsCurrency = "vs_currency"
        case points
        case summary
    }

    /// `{"vs_currency","points":[[t_ms,value|null,partial]…],"summary":{…}}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: points.count * 44 + 300)
        w.beginObject()
        w.key(JSONKey.vsCurrency); w.string(vsCurrency.code)
        w.key(JSONKey.points); w.beginArray()
        for point in points {
            w.beginArray(); w.number(point.time); w.number(point.value); w.bool(point.partial); w.endArray()
        }
        w.endArray()
        w.key(JSONKey.summary); summary.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }

    /// A standalone SVG document of the history (see `ChartSVG`: partial points dashed and
    /// lighter, with a note; the scale from the complete points).
    public func svg(_ options: ChartSVGOptions = ChartSVGOptions()) -> String {
        let series = ChartSeries(
            times: points.map(\.time), values: points.map { $0.value ?? .nan },
            partial: points.contains(where: \.partial) ? points.map(\.partial) : [])
        return ChartSVG.render(series, vsCurrency: vsCurrency, options: options)
    }
}
