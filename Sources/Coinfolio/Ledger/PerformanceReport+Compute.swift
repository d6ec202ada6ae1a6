/// Computing `performance` (SPEC §19) from the covered portfolios' entries and stored prices.
///
/// Values: at each point, the units held just before it (transactions at a point's time come
/// after its value) × the coin's price there. Flows (money from outside; the portfolio holds no
/// money of its own): a buy brings in amount × price + its fee, a sell takes out amount × price −
/// its fee (a fee paid in a coin is that coin's disposal, not money), a transfer in or out that is
/// not one side of a move within the covered portfolios moves its market value at its time, and
/// income and fee rows are none. A flow in [point k, point k+1) belongs to period k.
extension PerformanceReport {
    /// One coin of the report.
    struct Coin {
        /// CoinGecko coin id.
        var coinID: String
        /// Its entries of every covered portfolio, in ledger order.
        var entries: [LedgerEntry]
        /// Its stored and manual price points over the range's UTC days.
        var prices: PriceSeries
        /// Its current price (the snapshot's, or the owner's manual current price), used for a
        /// range's last point when the range ends now; else the stored points at `to`.
        var currentPrice: PreciseDecimal?

        /// The price at `time` by the `price_at` rule over `prices`, nil when that UTC day has none.
        func price(at time: Int64) -> PreciseDecimal? { prices.price(at: time).map { PreciseDecimal($0.price) } }

        /// `price(at:)` as `PriceSeries.precisePrice(at:)` gives it (the same value, without the
        /// decimal text of a CoinGecko point's double).
        func precisePrice(at time: Int64) -> PreciseDecimal? { prices.precisePrice(at: time) }

        /// `price(at:)` at times that never decrease (`PriceSeries.precisePrice(at:cursor:)`).
        func price(at time: Int64, cursor: inout Int) -> PreciseDecimal? { prices.precisePrice(at: time, cursor: &cursor) }
    }

    /// The times of the points: `from`, each UTC day's 00:00 strictly between, `to`.
    static func pointTimes(from: Int64, to: Int64) -> [Int64] {
        var times = [from]
        var day = UTCDay.start(of: from) + UTCDay.milliseconds
        while day < to {
            times.append(day)
            day += UTCDay.milliseconds
        }
        if to > from { times.append(to) }
        return times
    }

    /// The report over [from, to).
    static func compute(
        portfolio: String?, vsCurrency: String, from: Int64, to: Int64, endsNow: Bool, coins: [Coin], benchmark: Coin? = nil
    ) -> PerformanceReport {
        let times = pointTimes(from: from, to: to)
        let last = times.count - 1
        var values = [PreciseDecimal](repeating: .zero, count: times.count)
        var known = [Bool](repeating: true, count: times.count)
        var inflows = [PreciseDecimal](repeating: .zero, count: times.count)
        var outflows = [PreciseDecimal](repeating: .zero, count: times.count)
        /// The first period with a flow of unknown value (count: none).
        var firstUnknownFlow = times.count
        var missing: [Int64: Set<String>] = [:]
        func price(_ coin: Coin, _ index: Int, _ cursor: inout Int) -> PreciseDecimal? {
            if index == last, endsNow, let current = coin.currentPrice { return current }
            return coin.price(at: times[index], cursor: &cursor)
        }
        // The range's transactions in every coin, and the coins held at `from`: the twr's walk.
        var rows: [Row] = []
        var heldAtFrom = [PreciseDecimal](repeating: .zero, count: coins.count)
        for (coinIndex, coin) in coins.enumerated() {
            let moves = movesWithin(coin.entries)
            var held = PreciseDecimal.zero
            var next = 0
            // The coin's points are asked at the report's times in order: one walk over them.
            var cursor = 0
            for index in times.indices {
                let time = times[index]
                while next < coin.entries.count, coin.entries[next].timestamp < time {
                    let entry = coin.entries[next]
                    next += 1
                    held = entry.kind.adds ? held + entry.units : held - entry.units
                    guard index > 0 else { continue }
                    var row = Row(time: entry.timestamp, id: entry.id, coin: coinIndex, units: entry.kind.adds ? entry.units : -entry.units)
                    switch flow(entry, coin, moves) {
                    case .none: break
                    case .some(.none):
                        firstUnknownFlow = min(firstUnknownFlow, index - 1)
                        missing[UTCDay.number(of: entry.timestamp), default: []].insert(coin.coinID)
                    case .some(.some(let amount)):
                        if amount.isNegative { outflows[index - 1] -= amount } else { inflows[index - 1] += amount }
                        row.flow = amount
                    }
                    rows.append(row)
                }
                if index == 0 { heldAtFrom[coinIndex] = held }
                guard !held.isZero else { continue }
                if let price = price(coin, index, &cursor) {
                    values[index] += held * price
                } else {
                    known[index] = false
                    missing[UTCDay.number(of: time), default: []].insert(coin.coinID)
                }
            }
        }
        var report = PerformanceReport(
            portfolio: portfolio, vsCurrency: vsCurrency, from: from, to: to, startValue: known[0] ? values[0] : nil,
            endValue: known[last] ? values[last] : nil, netFlows: nil, gain: nil, roi: nil, twr: nil, mwr: nil, benchmark: nil,
            coverage: Double(known.lazy.filter { $0 }.count) / Double(times.count), points: [], missing: [])
        var cumulative: PreciseDecimal? = .zero
        report.points.reserveCapacity(times.count)
        for index in times.indices {
            report.points.append(PerformancePoint(time: times[index], value: known[index] ? values[index] : nil, netFlows: cumulative))
            cumulative = index >= firstUnknownFlow ? nil : cumulative.map { $0 + inflows[index] - outflows[index] }
        }
        if firstUnknownFlow == times.count {
            var net = PreciseDecimal.zero
            var totalIn = PreciseDecimal.zero
            for index in times.indices {
                net += inflows[index] - outflows[index]
                totalIn += inflows[index]
            }
            report.netFlows = net
            if let start = report.startValue, let end = report.endValue {
                let gain = end - start - net
                report.gain = gain
                report.roi = PnLReport.percentage(gain, of: start + totalIn)
                report.twr = timeWeighted(times: times, values: values, known: known, coins: coins, heldAtFrom: heldAtFrom, rows: rows)
                var terms: [MoneyWeightedReturn.Term] = [(start.double, years(from, to))]
                for index in times.indices where !inflows[index].isZero || !outflows[index].isZero {
                    terms.append(((inflows[index] - outflows[index]).double, years(times[index], to)))
                }
                report.mwr = MoneyWeightedReturn.yearlyRate(terms, end: end.double).map { $0 * 100 }
            }
        }
        if let benchmark {
            let start = benchmark.price(at: from)
            let end = endsNow ? benchmark.currentPrice ?? benchmark.price(at: to) : benchmark.price(at: to)
            if start == nil { missing[UTCDay.number(of: from), default: []].insert(benchmark.coinID) }
            if end == nil { missing[UTCDay.number(of: to), default: []].insert(benchmark.coinID) }
            var change: Double?
            if let start, let end, let ratio = end.divided(by: start) { change = (ratio - 1).double * 100 }
            report.benchmark = BenchmarkChange(coinID: benchmark.coinID, change: change)
        }
        report.missing = missing.keys.sorted().map { day in
            MissingPrices(day: day, coinIDs: missing[day, default: []].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
        return report
    }

    /// Years (of 365 days) from `start` to `end`.
    private static func years(_ start: Int64, _ end: Int64) -> Double {
        Double(end - start) / Double(365 * UTCDay.milliseconds)
    }

    /// The groups of moves whose both sides are among `entries` (a transfer_out and a transfer_in
    /// of one group): those transfers are no flow.
    private static func movesWithin(_ entries: [LedgerEntry]) -> Set<Int32> {
        var out: Set<Int32> = []
        var into: Set<Int32> = []
        for entry in entries where entry.group != 0 {
            if entry.kind == .transferOut { out.insert(entry.group) } else if entry.kind == .transferIn { into.insert(entry.group) }
        }
        return out.intersection(into)
    }

    /// An entry's flow: nil when it is none, .some(nil) when its value is unknown (a pending
    /// price, a transfer without a stored price at its time).
    private static func flow(_ entry: borrowing LedgerEntry, _ coin: Coin, _ moves: Set<Int32>) -> PreciseDecimal?? {
        let fee: PreciseDecimal? = entry.feeInCoin ? .zero : entry.fee
        switch entry.kind {
        case .buy:
            guard let price = entry.price, let fee else { return .some(nil) }
            return entry.units * price + fee
        case .sell:
            guard let price = entry.price, let fee else { return .some(nil) }
            return fee - entry.units * price
        case .transferIn, .transferOut:
            if entry.group != 0, moves.contains(entry.group) { return nil }
            guard let price = coin.price(at: entry.timestamp) else { return .some(nil) }
            let value = entry.units * price
            return entry.kind == .transferIn ? value : -value
        case .income, .fee:
            return nil
        }
    }
}
