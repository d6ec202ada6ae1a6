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

    /// The keys of a chart answer; `points` and `vs_currency` are also what `cf_chart_svg` reads (`ChartJSONReader`).
    enum JSONKey: String, WireKeys {
        case coinID = "coin_id"
        case vsCurrency = "vs_currency"
        case days
        case interval
        case clamped
        case points
        case summary
    }

    /// `{"coin_id","vs_currency","days":n|"max","interval":"daily"|null,"clamped":b,
    /// "points":[[t_ms,v|null]…],"summary":{first,last,min,max,min_at,max_at,change,percentage_change}}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: points.count * 36 + 400)
        w.beginObject()
        w.key(JSONKey.coinID); w.string(coinID)
        w.key(JSONKey.vsCurrency); w.string(vsCurrency.code)
        w.key(JSONKey.days)
        switch days {
        case .days(let n): w.number(n)
        case .max: w.string("max")
        }
        w.key(JSONKey.interval); w.string(interval?.rawValue)
        w.key(JSONKey.clamped); w.bool(clamped)
        w.key(JSONKey.points); ChartPoint.write(points, to: &w)
        w.key(JSONKey.summary); summary.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }

    /// A standalone SVG document of the chart (see `ChartSVG`).
    public func svg(_ options: ChartSVGOptions = ChartSVGOptions()) -> String {
        ChartSVG.render(ChartSeries(points: points), vsCurrency: vsCurrency, options: options)
    }
}
