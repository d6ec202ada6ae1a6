/// A series `ChartSVG` draws: times in milliseconds, values with NaN for gaps, and which points
/// are partial (a `portfolio_history` point that leaves out a holding without a price).
struct ChartSeries {
    var times: [Double]
    var values: [Double]
    /// One flag a point, or empty when no point is partial.
    var partial: [Bool]

    init(points: [ChartPoint]) {
        times = points.map(\.time)
        values = points.map { $0.value ?? .nan }
        partial = []
    }

    init(times: [Double], values: [Double], partial: [Bool] = []) {
        self.times = times
        self.values = values
        self.partial = partial.count == times.count ? partial : []
    }

    /// Whether the point at `index` is partial.
    func isPartial(_ index: Int) -> Bool { !partial.isEmpty && partial[index] }

    /// The series in time order (points with equal times keep their order).
    func sorted() -> ChartSeries {
        guard !zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) else { return self }
        let order = times.indices.sorted { (times[$0], $0) < (times[$1], $1) }
        return ChartSeries(
            times: order.map { times[$0] }, values: order.map { values[$0] }, partial: partial.isEmpty ? [] : order.map { partial[$0] })
    }

    /// The lowest, highest, first and last of some values (in time order); empty when none.
    struct Extremes {
        var low = Double.infinity
        var high = -Double.infinity
        var first = Double.nan
        var last = Double.nan

        var isEmpty: Bool { !(low <= high) }

        mutating func add(_ value: Double) {
            if first.isNaN { first = value }
            last = value
            if value < low { low = value }
            if value > high { high = value }
        }
    }

    /// What the drawing needs to know before it draws: the time span, the extremes of every
    /// value and of the complete ones, and how many points are partial.
    struct Extent {
        var start = Double.infinity
        var end = -Double.infinity
        /// Every value.
        var all = Extremes()
        /// The values of points that are not partial.
        var complete = Extremes()
        var partialCount = 0

        /// The values the scale and the colour follow: the complete ones, or every value when no
        /// point is complete.
        var scaled: Extremes { complete.isEmpty ? all : complete }
    }

    /// One pass over the series.
    var extent: Extent {
        var extent = Extent()
        for index in values.indices {
            let time = times[index], value = values[index]
            if time < extent.start { extent.start = time }
            if time > extent.end { extent.end = time }
            let partial = isPartial(index)
            if partial { extent.partialCount += 1 }
            guard value.isFinite else { continue }
            extent.all.add(value)
            if !partial { extent.complete.add(value) }
        }
        return extent
    }
}
