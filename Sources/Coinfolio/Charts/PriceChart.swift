/// One coin's price over time, as `PortfolioEngine.chart` answers it.
public struct PriceChart: Hashable, Sendable {
    /// The coin id.
    public var coinID: String
    /// The currency of every value.
    public var vsCurrency: VsCurrency
    /// The days asked of CoinGecko, after clamping to the plan's limit.
    public var days: ChartDays
    /// The interval asked of CoinGecko (nil: CoinGecko's automatic granularity).
    public var interval: ChartInterval?
    /// Whether the host asked for more days than the plan allows and got the plan's limit.
    public var clamped: Bool
    /// `prices` of `/coins/{id}/market_chart`, sorted by time; nil values are gaps.
    public var points: [ChartPoint]
    /// First, last, extremes and change of `points`.
    public var summary: ChartSummary

    /// A chart of `points` (sorted here by time; points with equal times keep their order).
    public init(
        coinID: String, vsCurrency: VsCurrency, days: ChartDays, interval: ChartInterval? = nil, clamped: Bool = false,
        points: [ChartPoint]
    ) {
        self.coinID = coinID
        self.vsCurrency = vsCurrency
        self.days = days
        self.interval = interval
        self.clamped = clamped
        var sorted = points
        if !zip(points, points.dropFirst()).allSatisfy({ $0.time <= $1.time }) {
            sorted = points.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }
        self.points = sorted
        self.summary = ChartSummary(points: sorted)
    }

    /// `{"coin_id","vs_currency","days":n|"max","interval":"daily"|null,"clamped":b,
    /// "points":[[t_ms,v|null]…],"summary":{first,last,min,max,min_at,max_at,change,percentage_change}}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: points.count * 36 + 400)
        w.beginObject()
        w.key("coin_id"); w.string(coinID)
        w.key("vs_currency"); w.string(vsCurrency.code)
        w.key("days")
        switch days {
        case .days(let n): w.number(n)
        case .max: w.string("max")
        }
        w.key("interval"); w.string(interval?.rawValue)
        w.key("clamped"); w.bool(clamped)
        w.key("points"); ChartPoint.write(points, to: &w)
        w.key("summary"); summary.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }

    /// A standalone SVG document of the chart (see `ChartSVG`).
    public func svg(_ options: ChartSVGOptions = ChartSVGOptions()) -> String {
        ChartSVG.render(ChartSVG.Series(points: points), vsCurrency: vsCurrency, options: options)
    }
}

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

    /// `{"vs_currency","points":[[t_ms,value|null,partial]…],"summary":{…}}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: points.count * 44 + 300)
        w.beginObject()
        w.key("vs_currency"); w.string(vsCurrency.code)
        w.key("points"); w.beginArray()
        for point in points {
            w.beginArray(); w.number(point.time); w.number(point.value); w.bool(point.partial); w.endArray()
        }
        w.endArray()
        w.key("summary"); summary.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }

    /// A standalone SVG document of the history (see `ChartSVG`).
    public func svg(_ options: ChartSVGOptions = ChartSVGOptions()) -> String {
        ChartSVG.render(ChartSVG.Series(points: points.map { ChartPoint(time: $0.time, value: $0.value) }), vsCurrency: vsCurrency, options: options)
    }
}
