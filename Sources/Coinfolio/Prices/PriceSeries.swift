/// One coin's stored prices of a range in memory (SPEC §17), answering §17's `price_at` rule
/// without its snapshot and fetch steps for any time of the range: the owner's manual point of
/// that UTC day (the latest at or before the time, else the earliest after it); else the latest
/// CoinGecko point in [the day's 00:00, the time]; else the earliest in (the time, the next
/// 00:00); else none. At a day's 00:00 that is the day's first point: the daily value of
/// `performance`. Reports read a coin's points once and ask many times (one binary search each).
struct PriceSeries: Sendable {
    /// CoinGecko's points, by time.
    private var times: [Int64]
    private var prices: [Double]
    /// The owner's manual points, by time.
    private var manualTimes: [Int64]
    private var manualPrices: [PreciseDecimal]

    /// Points given in any order (a time given twice keeps its last price).
    init(points: [(time: Int64, price: Double)] = [], manual: [(time: Int64, price: PreciseDecimal)] = []) {
        func sorted<Price>(_ points: [(time: Int64, price: Price)]) -> (times: [Int64], prices: [Price]) {
            var byTime: [(time: Int64, price: Price)] = []
            byTime.reserveCapacity(points.count)
            let order = points.indices.sorted { (points[$0].time, $0) < (points[$1].time, $1) }
            for point in order.map({ points[$0] }) {
                if byTime.last?.time == point.time { byTime[byTime.count - 1] = point } else { byTime.append(point) }
            }
            return (byTime.map(\.time), byTime.map(\.price))
        }
        (times, prices) = sorted(points)
        (manualTimes, manualPrices) = sorted(manual)
    }

    /// No point at all.
    static let empty = PriceSeries()

    /// The price at `time` by the rule, nil when neither the owner nor CoinGecko has a point in
    /// that UTC day. A CoinGecko price (a double) is read as its shortest decimal text, as the
    /// snapshot's prices are.
    func price(at time: Int64) -> PreciseDecimal? {
        if let index = Self.pick(manualTimes, time) { return manualPrices[index] }
        guard let index = Self.pick(times, time) else { return nil }
        let price = prices[index]
        return price.isFinite ? PreciseDecimal(price.description) : nil
    }

    /// The index of the point the rule picks among `times` (sorted): the latest at or before `time`
    /// within its UTC day, else the earliest after it within the day.
    private static func pick(_ times: [Int64], _ time: Int64) -> Int? {
        guard !times.isEmpty else { return nil }
        // The first index whose time is after `time`.
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= time { low = middle + 1 } else { high = middle }
        }
        let dayStart = UTCDays.start(of: time)
        if low > 0, times[low - 1] >= dayStart { return low - 1 }
        if low < times.count, times[low] < dayStart + UTCDays.milliseconds { return low }
        return nil
    }
}
