/// The price change of a coin over a report's range (SPEC §19): (p_to ÷ p_from − 1) × 100.
public struct BenchmarkChange: Hashable, Sendable {
    /// CoinGecko coin id.
    public var coinID: String
    /// Percent; nil when a price at either end is missing.
    public var change: Double?

    /// The keys of `performance`'s `benchmark` object, in the order written.
    enum JSONKey: String, WireKeys { case coinID = "coin_id", change }
}

/// A day (and its coins) a report needed a price for and found none (`performance`'s `missing`):
/// what `fill_prices`, a chart or `set_price` would supply.
public struct MissingPrices: Hashable, Sendable {
    /// The UTC day, days since 1970-01-01.
    public var day: Int64
    /// The coins without a price that day, by id.
    public var coinIDs: [String]

    /// The keys of an element of `performance`'s `missing`, in the order written.
    enum JSONKey: String, WireKeys { case date, coinIDs = "coin_ids" }
}

/// One point of `performance`: the value at a time and the net flows before it.
public struct PerformancePoint: Hashable, Sendable {
    /// ms since 1970, UTC: `from`, each UTC day's 00:00 in between, `to`.
    public var time: Int64
    /// Σ units held just before `time` × their price at `time`; nil when a held coin has no price.
    public var value: PreciseDecimal?
    /// Σ flows in [from, time); nil once a flow's value is unknown.
    public var netFlows: PreciseDecimal?
}

/// `performance` (SPEC §19): how a portfolio's value moved over a range, and how much of that was
/// money put in or taken out. Money is in the portfolio's currency, exact to 38 significant digits;
/// returns are percent (doubles).
public struct PerformanceReport: Sendable {
    /// The portfolio; nil: every portfolio of the owner together.
    public var portfolio: String?
    /// The currency of every money value.
    public var vsCurrency: String
    /// The range's start (ms, UTC).
    public var from: Int64
    /// The range's end (ms, UTC): now, for a range ending now.
    public var to: Int64
    /// The value at `from` (transactions at `from` are flows, not part of it); nil when a price is
    /// missing.
    public var startValue: PreciseDecimal?
    /// The value at `to`; nil when a price is missing.
    public var endValue: PreciseDecimal?
    /// Σ flows in [from, to): in > 0, out < 0; nil when a flow's value is unknown.
    public var netFlows: PreciseDecimal?
    /// end_value − start_value − net_flows.
    public var gain: PreciseDecimal?
    /// gain ÷ (start_value + the inflows) × 100; nil when that is 0 or a figure is unknown.
    public var roi: Double?
    /// The time-weighted return by unit values, percent: units issued at the first flow at the
    /// value then, each flow buying or selling units at the value just before it (the portfolio's
    /// at the flow's time); nil when the first or last value is unknown, or when no unit is ever
    /// held (nothing at `from` and no flow, as a portfolio of income alone).
    public var twr: Double?
    /// The money-weighted return, a yearly rate in percent; nil without a single root.
    public var mwr: Double?
    /// The benchmark coin's change, when one was asked for.
    public var benchmark: BenchmarkChange?
    /// Share (0…1) of the points whose value is known.
    public var coverage: Double
    /// The points, by time.
    public var points: [PerformancePoint]
    /// The days and coins without a price (for a point's value, a transfer's market value, or the
    /// benchmark), by day.
    public var missing: [MissingPrices]

    /// The keys of the `performance` answer, in the order written.
    enum JSONKey: String, WireKeys {
        case portfolio, vsCurrency = "vs_currency", from, to, startValue = "start_value", endValue = "end_value"
        case netFlows = "net_flows", gain, roi, twr, mwr, benchmark, coverage, points, missing
    }

    /// `{"portfolio","vs_currency","from","to","start_value","end_value","net_flows","gain","roi",
    /// "twr","mwr","benchmark":{"coin_id","change"}|null,"coverage","points":[[t_ms,value,
    /// net_flows]…],"missing":[{"date","coin_ids"}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: points.count * 48 + missing.count * 40 + 400)
        w.beginObject()
        w.key(JSONKey.portfolio); w.string(portfolio)
        w.key(JSONKey.vsCurrency); w.string(vsCurrency)
        w.key(JSONKey.from); w.timestamp(from)
        w.key(JSONKey.to); w.timestamp(to)
        w.key(JSONKey.startValue); w.decimal(startValue)
        w.key(JSONKey.endValue); w.decimal(endValue)
        w.key(JSONKey.netFlows); w.decimal(netFlows)
        w.key(JSONKey.gain); w.decimal(gain)
        w.key(JSONKey.roi); w.number(roi)
        w.key(JSONKey.twr); w.number(twr)
        w.key(JSONKey.mwr); w.number(mwr)
        w.key(JSONKey.benchmark)
        if let benchmark {
            w.beginObject()
            w.key(BenchmarkChange.JSONKey.coinID); w.string(benchmark.coinID)
            w.key(BenchmarkChange.JSONKey.change); w.number(benchmark.change)
            w.endObject()
        } else {
            w.null()
        }
        w.key(JSONKey.coverage); w.number(coverage)
        w.key(JSONKey.points); w.beginArray()
        for point in points {
            w.beginArray()
            w.number(Int(point.time))
            w.decimal(point.value)
            w.decimal(point.netFlows)
            w.endArray()
        }
        w.endArray()
        w.key(JSONKey.missing); w.beginArray()
        for day in missing {
            w.beginObject()
            w.key(MissingPrices.JSONKey.date)
            w.rawBytes { bytes in
                bytes.append(UInt8(ascii: "\""))
                LedgerTimestamp.appendDate(Int(day.day), to: &bytes)
                bytes.append(UInt8(ascii: "\""))
            }
            w.key(MissingPrices.JSONKey.coinIDs); w.beginArray()
            for id in day.coinIDs { w.string(id) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
