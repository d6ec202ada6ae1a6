/// Where a chart's plot sits on the page and how times and values map into it: times from the
/// first to the last run left to right, values from the axis' first tick to its last run bottom
/// to top. Halves throughout, so that times or values near ±Double.greatestFiniteMagnitude (a
/// span of ±1e308) cannot overflow to infinity and put every point at NaN.
struct ChartFrame {
    var left: Double
    var top: Double
    var width: Double
    var height: Double
    /// The first time, milliseconds.
    var start: Double
    /// Half the time from the first to the last (0 for one time).
    var halfSpan: Double
    /// The bottom of the value scale.
    var low: Double
    /// Half the value scale (0 for a scale of one value).
    var halfRange: Double

    init(left: Double, top: Double, width: Double, height: Double, start: Double, end: Double, low: Double, high: Double) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.start = start
        halfSpan = end / 2 - start / 2
        self.low = low
        halfRange = high / 2 - low / 2
    }

    var right: Double { left + width }
    var bottom: Double { top + height }

    /// The x of a time: centred when all times are one.
    @inline(__always) func x(_ time: Double) -> Double {
        halfSpan > 0 ? left + (time / 2 - start / 2) / halfSpan * width : left + width / 2
    }

    /// The y of a value: centred when the scale is one value.
    @inline(__always) func y(_ value: Double) -> Double {
        top + (1 - (halfRange > 0 ? (value / 2 - low / 2) / halfRange : 0.5)) * height
    }
}
