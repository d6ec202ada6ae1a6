/// `GET /coins/{id}/market_chart`: prices, market caps and total volumes over time, each
/// `[[t_ms, value|null]…]` in vs_currency. Any series may be empty (a coin with no trades).
public struct MarketChart: Hashable, Sendable {
    /// `prices`: the price at each time, in vs_currency.
    public var prices: [ChartPoint]
    /// `market_caps`: the market capitalisation at each time, in vs_currency.
    public var marketCaps: [ChartPoint]
    /// `total_volumes`: the 24 h volume at each time, in vs_currency.
    public var totalVolumes: [ChartPoint]
    /// Points that could not be placed at all (no usable time) and were left out, and values
    /// read as gaps because of their type; one entry each, so nothing is dropped silently.
    public var warnings: [Warning]

    /// A point CoinGecko sent in a shape that could not be read as `[t_ms, number|null]`.
    public struct Warning: Hashable, Sendable {
        /// `prices`, `market_caps` or `total_volumes`.
        public var series: String
        /// The point's position in that series as sent.
        public var index: Int
        /// What was wrong, for people.
        public var reason: String

        /// A warning about point `index` of `series`.
        public init(series: String, index: Int, reason: String) {
            self.series = series
            self.index = index
            self.reason = reason
        }
    }

    /// A chart of the given series.
    public init(prices: [ChartPoint] = [], marketCaps: [ChartPoint] = [], totalVolumes: [ChartPoint] = [], warnings: [Warning] = []) {
        self.prices = prices
        self.marketCaps = marketCaps
        self.totalVolumes = totalVolumes
        self.warnings = warnings
    }
}

extension MarketChart {
    /// The keys of a `/coins/{id}/market_chart` body (CoinGecko's series, which the chart reader reads) and of its decoded form.
    enum JSONKey: String, WireKeys {
        case prices
        case marketCaps = "market_caps"
        case totalVolumes = "total_volumes"
        case warnings
    }

    /// The keys of a warning about one point.
    enum WarningKey: String, WireKeys {
        case series
        case index
        case reason
    }

    /// `{"prices":[[t_ms,v|null]…],"market_caps":[…],"total_volumes":[…],"warnings":[{"series","index","reason"}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: (prices.count + marketCaps.count + totalVolumes.count) * 36 + 96)
        w.beginObject()
        w.key(JSONKey.prices); ChartPoint.write(prices, to: &w)
        w.key(JSONKey.marketCaps); ChartPoint.write(marketCaps, to: &w)
        w.key(JSONKey.totalVolumes); ChartPoint.write(totalVolumes, to: &w)
        w.key(JSONKey.warnings); w.beginArray()
        for warning in warnings {
            w.beginObject()
            w.key(WarningKey.series); w.string(warning.series)
            w.key(WarningKey.index); w.number(warning.index)
            w.key(WarningKey.reason); w.string(warning.reason)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
