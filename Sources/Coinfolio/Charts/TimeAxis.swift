/// The round times a chart's time axis marks between its first and last time, in UTC (never the
/// host's zone): the finest of these intervals that puts at most a dozen ticks there, and no more
/// than the width has room for —
/// - minutes (1, 2, 5, 10, 15, 30) and hours (1, 2, 3, 6, 12), at multiples of the interval
///   since midnight, labelled `HH:mm` ("15:00"), midnight by its date ("Dec 13");
/// - days (1, 2, 5, 10), at midnight of the days 1, 1 + n, 1 + 2n… of each month that leave a
///   whole interval before the next month (days 1, 6, …, 26 for 5), labelled `MMM d` ("Dec 13");
/// - months (1, 2, 3, 6), on the 1st of January and every n-th month after, labelled `MMM`
///   ("Feb"), January by its year ("2025");
/// - years (1, 2, 5 × 10ⁿ), on 1 January of multiples of n, labelled by the year.
///
/// A week of hourly points gets days, a year of points months, a day of 5-minute points every
/// 3 hours (at 640 pixels), CoinGecko's `max` (2013 on) years. The first and last times are
/// labelled by the chart itself; a series of one time, or times outside years ±9900, gets none.
struct TimeAxis {
    /// A marked time and its label.
    struct Tick: Equatable {
        /// Milliseconds since 1970 (UTC).
        var time: Double
        /// `HH:mm`, `MMM d`, `MMM` or the year.
        var label: String
    }

    /// The calendar unit of an interval.
    enum Unit: Equatable {
        case minute, hour, day, month, year

        /// The most characters a label of this unit has ("15:00", "Dec 13", "2025").
        var labelCharacters: Int {
            switch self {
            case .minute, .hour: return 5
            case .day: return 6
            case .month, .year: return 4
            }
        }
    }

    /// `count` units.
    struct Interval: Equatable {
        var unit: Unit
        var count: Int

        /// About how long it is, in milliseconds (a month is 30.44 days, a year 365.25).
        var nominal: Double {
            switch unit {
            case .minute: return Double(count) * 60_000
            case .hour: return Double(count) * 3_600_000
            case .day: return Double(count) * 86_400_000
            case .month: return Double(count) * 30.436_875 * 86_400_000
            case .year: return Double(count) * 365.2425 * 86_400_000
            }
        }
    }

    /// The most ticks an axis has, however wide.
    static let mostTicks = 12

    /// Every interval, shortest first.
    static let intervals: [Interval] =
        [1, 2, 5, 10, 15, 30].map { Interval(unit: .minute, count: $0) }
        + [1, 2, 3, 6, 12].map { Interval(unit: .hour, count: $0) }
        + [1, 2, 5, 10].map { Interval(unit: .day, count: $0) }
        + [1, 2, 3, 6].map { Interval(unit: .month, count: $0) }
        + [1, 10, 100, 1000].flatMap { power in [1, 2, 5].map { Interval(unit: .year, count: $0 * power) } }

    /// The ticks strictly between `start` and `end` (milliseconds) of the finest interval that
    /// puts at most `maximumCount(unit)` (and `mostTicks`) ticks there; none when no interval does.
    static func ticks(start: Double, end: Double, maximumCount: (Unit) -> Int) -> [Tick] {
        guard start < end, abs(start) < ChartTime.printableRange, abs(end) < ChartTime.printableRange else { return [] }
        for interval in intervals {
            let most = min(mostTicks, maximumCount(interval.unit))
            // A cheap estimate first, so that no interval far too fine is ever listed.
            guard (end - start) / interval.nominal <= Double(most) + 1 else { continue }
            let ticks = times(of: interval, from: start, to: end)
            if ticks.count <= most { return ticks.map { Tick(time: $0, label: label($0, interval.unit)) } }
        }
        return []
    }

    /// The times of `interval` strictly between `start` and `end`.
    static func times(of interval: Interval, from start: Double, to end: Double) -> [Double] {
        var times: [Double] = []
        func add(_ time: Double) { if time > start && time < end { times.append(time) } }
        let day = 86_400_000.0
        switch interval.unit {
        case .minute, .hour:
            let step = interval.nominal
            var multiple = (start / step).rounded(.down)
            while multiple * step < end {
                add(multiple * step)
                multiple += 1
            }
        case .day:
            let n = interval.count
            for days in Int((start / day).rounded(.down))...Int((end / day).rounded(.down)) {
                let (year, month, date) = CivilDate.date(days: days)
                let length =
                    CivilDate.days(year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1)
                    - CivilDate.days(year: year, month: month, day: 1)
                if (date - 1) % n == 0 && date + n <= length + 1 { add(Double(days) * day) }
            }
        case .month, .year:
            guard let first = ChartTime.fields(milliseconds: start), let last = ChartTime.fields(milliseconds: end) else { return [] }
            let months = interval.unit == .month ? interval.count : interval.count * 12
            // Months since year 0, January 0; stepping from a multiple keeps January of multiples of n years.
            let firstIndex = first.year * 12 + first.month - 1, lastIndex = last.year * 12 + last.month - 1
            var index = firstIndex - ((firstIndex % months) + months) % months
            while index <= lastIndex {
                let year = Int((Double(index) / 12).rounded(.down))
                add(Double(CivilDate.days(year: year, month: index - year * 12 + 1, day: 1)) * day)
                index += months
            }
        }
        return times
    }

    /// The label of a tick of `unit` at `time`.
    static func label(_ time: Double, _ unit: Unit) -> String {
        switch unit {
        case .minute, .hour:
            return time.truncatingRemainder(dividingBy: 86_400_000) == 0
                ? ChartTime.monthDay(milliseconds: time) : ChartTime.clock(milliseconds: time)
        case .day: return ChartTime.monthDay(milliseconds: time)
        case .month: return ChartTime.month(milliseconds: time)
        case .year: return ChartTime.year(milliseconds: time)
        }
    }
}
