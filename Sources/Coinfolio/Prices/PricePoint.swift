/// One price of one coin at one moment, in one quote currency (SPEC §17).
///
/// CoinGecko's points (`/coins/{id}/market_chart/range`'s `prices`) are market data, stored once
/// per database and shared by every owner (SPEC §20); manual points belong to the owner who set
/// them (`ManualPrice`).
public struct PricePoint: Hashable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z (UTC): when the price held.
    public var time: Int64
    /// The price of one unit, in the point's vs_currency, as CoinGecko sent it.
    public var price: Double

    /// A point worth `price` at `time` (ms).
    public init(time: Int64, price: Double) {
        self.time = time
        self.price = price
    }

    /// The points of a chart's `prices` series a store keeps: a gap (null), a price that is not
    /// finite or below 0, and a time that is not whole milliseconds within years 1970…9999 are
    /// left out; a time sent twice keeps its last price. Sorted by time.
    static func storable(_ series: [ChartPoint]) -> [PricePoint] {
        var byTime: [Int64: Double] = [:]
        for point in series {
            guard let price = point.value, price.isFinite, price >= 0, point.time.isFinite, point.time == point.time.rounded(),
                point.time >= 0, point.time <= Double(UTCDay.latestMilliseconds)
            else { continue }
            byTime[Int64(point.time)] = price
        }
        return byTime.map { PricePoint(time: $0.key, price: $0.value) }.sorted { $0.time < $1.time }
    }
}

/// A price the owner set by hand (SPEC §17): a historical point for a day CoinGecko has no price
/// for, or the current price of a coin the snapshot lacks (a token CoinGecko does not list).
public struct ManualPrice: Hashable, Sendable {
    /// The coin id.
    public var coinID: String
    /// The quote currency (lower-case code).
    public var vsCurrency: String
    /// The moment (ms since 1970, UTC) of a historical point; nil for the current price.
    public var time: Int64?
    /// The price of one unit in `vsCurrency`, exact as given (≥ 0).
    public var price: ExactDecimal

    /// A manual price.
    public init(coinID: String, vsCurrency: String, time: Int64?, price: ExactDecimal) {
        self.coinID = coinID
        self.vsCurrency = vsCurrency
        self.time = time
        self.price = price
    }
}
