/// `performance`'s time-weighted return (SPEC §19): units are issued at the first flow at the value
/// then, and each flow buys or sells units at the value just before it.
///
/// The value just before a flow is the portfolio's at the flow's time: the units held after every
/// earlier transaction (ledger order: time, then id; earlier rows of the same time included) ×
/// each coin's price at that time by the `price_at` rule over the stored points. An inflow buys
/// units at the value before it; a sell's proceeds leave after the sale, so an outflow sells units
/// at the value of what is left plus what leaves (for a transfer out, the value before it): a
/// trade priced away from the coin's stored price is gain or loss at that moment and can never
/// leave negative units. Chained: the unit value grows by (the value just before a flow, or at a
/// point) ÷ (the value just after the one before). While no unit is held (before the first flow,
/// after every unit left) the unit value stays, coins that came without a flow (income) count from
/// the next flow, and that flow issues units at the unit value then. A flow whose value just
/// before is unknown (a held coin without a price at its time) joins the periods around it, as a
/// point without a value does: its inflows count at the start, its outflows at the end.
extension PerformanceReport {
    /// A transaction of the range for the twr's walk in ledger order over every coin.
    struct Row {
        /// ms since 1970, UTC.
        var time: Int64
        /// The transaction's id (ledger order within a time).
        var id: Int64
        /// The index of its coin in the report's coins.
        var coin: Int
        /// Its effect on the coin's holding (units, signed).
        var units: PreciseDecimal
        /// Its flow (in > 0, out < 0); nil when it is none.
        var flow: PreciseDecimal?
    }

    /// The unit value's chain: the value just after the last flow or point, and the flows of
    /// unknown value since.
    private struct UnitValue {
        var unitValue = 1.0
        var base: PreciseDecimal
        var pendingIn = PreciseDecimal.zero
        var pendingOut = PreciseDecimal.zero

        /// Whether units are held: false before the first flow and after every unit left (the
        /// value of coins that came without a flow, such as income, then counts from the next flow).
        var hasUnits: Bool { !(base + pendingIn).isZero }

        /// At a point whose value is `value` (no flow): the unit value there.
        mutating func point(_ value: PreciseDecimal) {
            guard hasUnits else { return }
            link(to: value)
            base = value
        }

        /// The unit value at a time whose value is `value`, from the last link's.
        mutating func link(to value: PreciseDecimal) {
            let before = base + pendingIn
            if !before.isZero, let growth = (value + pendingOut).divided(by: before) { unitValue *= growth.double }
            (pendingIn, pendingOut) = (.zero, .zero)
        }
    }

    /// The portfolio's value inside one period [times[k], times[k+1]) (one UTC day at most): the
    /// coins whose price cannot change that day kept as one running sum, the others priced at each
    /// flow's time.
    private struct PeriodValue {
        /// Σ held × the day's price of the coins not in `varying`.
        var steady = PreciseDecimal.zero
        /// The held coins not in `varying` without a price that day.
        var unpriced = 0
        /// The coins whose price may change within the day (several points or manual points).
        var varying: [Int]
        /// `varying` as a flag per coin.
        var isVarying: [Bool]
    }

    /// The time-weighted return in percent over the points `times` (their values `values`, known
    /// where `known`), the coins held at `from` (`heldAtFrom`, by coin index) and the range's
    /// transactions `rows`; nil when the first or last value is unknown, or when no unit is ever
    /// held (nothing at `from` and no flow: a portfolio of income alone has no money in to weigh).
    static func timeWeighted(
        times: [Int64], values: [PreciseDecimal], known: [Bool], coins: [Coin], heldAtFrom: [PreciseDecimal], rows: [Row]
    ) -> Double? {
        guard known.first == true, known.last == true else { return nil }
        var chain = UnitValue(base: values[0])
        var everHeld = chain.hasUnits
        var held = heldAtFrom
        var heldCount = held.lazy.filter { !$0.isZero }.count
        // Ledger order over every coin (each coin's rows are in it already): sorted as small keys.
        var order = rows.indices.map { (rows[$0].time, rows[$0].id, $0) }
        order.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var rowDays: [Int64] = []
        for key in order where rowDays.last != UTCDay.number(of: key.0) { rowDays.append(UTCDay.number(of: key.0)) }
        let (varyingByDay, alwaysVarying) = varyingCoins(coins, on: rowDays)
        var period = 0
        var current: PeriodValue?
        func start(_ index: Int) -> PeriodValue {
            var varying = varyingByDay[UTCDay.number(of: times[index]), default: []]
            if !alwaysVarying.isEmpty { varying = Array(Set(varying + alwaysVarying)).sorted() }
            var state = PeriodValue(varying: varying, isVarying: [Bool](repeating: false, count: coins.count))
            for coin in varying { state.isVarying[coin] = true }
            if known[index] {
                state.steady = values[index]
                for coin in varying where !held[coin].isZero {
                    if let price = coins[coin].precisePrice(at: times[index]) { state.steady -= held[coin] * price }
                }
            } else {
                for coin in coins.indices where !held[coin].isZero && !state.isVarying[coin] {
                    if let price = coins[coin].precisePrice(at: times[index]) {
                        state.steady += held[coin] * price
                    } else {
                        state.unpriced += 1
                    }
                }
            }
            return state
        }
        func apply(_ row: Row, _ state: inout PeriodValue) {
            let before = held[row.coin]
            let after = before + row.units
            held[row.coin] = after
            heldCount += (after.isZero ? 0 : 1) - (before.isZero ? 0 : 1)
            if heldCount == 0 {
                (state.steady, state.unpriced) = (.zero, 0)
            } else if !state.isVarying[row.coin] {
                if let price = coins[row.coin].precisePrice(at: row.time) {
                    state.steady += row.units * price
                } else {
                    state.unpriced += (after.isZero ? 0 : 1) - (before.isZero ? 0 : 1)
                }
            }
        }
        func value(at time: Int64, _ state: PeriodValue) -> PreciseDecimal? {
            if heldCount == 0 { return .zero }
            guard state.unpriced == 0 else { return nil }
            var sum = state.steady
            for coin in state.varying where !held[coin].isZero {
                guard let price = coins[coin].precisePrice(at: time) else { return nil }
                sum += held[coin] * price
            }
            return sum
        }
        for key in order {
            let row = rows[key.2]
            while period + 1 < times.count, row.time >= times[period + 1] {
                period += 1
                current = nil
                if known[period] { chain.point(values[period]) }
            }
            var state = current ?? start(period)
            defer { current = state }
            guard let flow = row.flow else {
                apply(row, &state)
                continue
            }
            if flow.isNegative {
                apply(row, &state)
                if let after = value(at: row.time, state) {
                    chain.link(to: after - flow)
                    chain.base = after
                } else {
                    chain.pendingOut -= flow
                }
            } else {
                if let before = value(at: row.time, state) {
                    chain.link(to: before)
                    chain.base = before + flow
                } else {
                    chain.pendingIn += flow
                }
                apply(row, &state)
            }
            if chain.hasUnits { everHeld = true }
        }
        for index in times.indices.dropFirst(period + 1) where known[index] { chain.point(values[index]) }
        guard everHeld else { return nil }
        let result = (chain.unitValue - 1) * 100
        return result.isFinite ? result : nil
    }

    /// The coins (by index) whose price may change within a UTC day, by day (the days of `days`,
    /// ascending, with several CoinGecko points of the coin; any day with several of its manual
    /// points), and those whose price may change on any day (a manual point without a time). On
    /// any other day a coin's price is one number from 00:00 to the next 00:00.
    private static func varyingCoins(_ coins: [Coin], on days: [Int64]) -> (byDay: [Int64: [Int]], always: [Int]) {
        var byDay: [Int64: [Int]] = [:]
        var always: [Int] = []
        guard !days.isEmpty else { return (byDay, always) }
        func add(_ coin: Int, _ day: Int64) {
            if byDay[day, default: []].last != coin { byDay[day, default: []].append(coin) }
        }
        for (index, coin) in coins.enumerated() {
            // The days in both ascending lists.
            let several = coin.prices.daysWithSeveralPoints
            var (a, b) = (0, 0)
            while a < days.count, b < several.count {
                if days[a] < several[b] {
                    a += 1
                } else if several[b] < days[a] {
                    b += 1
                } else {
                    add(index, days[a])
                    (a, b) = (a + 1, b + 1)
                }
            }
            // One manual point in a day is that day's price all day; several may differ.
            var lastManualDay: Int64?
            for manual in coin.prices.manual {
                guard let time = manual.time else {
                    always.append(index)
                    break
                }
                let day = UTCDay.number(of: time)
                if day == lastManualDay { add(index, day) }
                lastManualDay = day
            }
        }
        return (byDay, always)
    }
}
