/// Reads time series straight from the bytes, in one pass: the chart JSON `cf_chart_svg` draws
/// (`"points":[[t, v|null, …]…]` and `"vs_currency"`), and `/coins/{id}/market_chart` bodies
/// (`marketChart()`). A year of hourly points is about 1 MB, which Foundation's
/// `JSONSerialization` reads about ten times slower than this. It walks the text with the one
/// strict reader (`JSONReader`): members other than the series are skipped but checked, so
/// malformed JSON anywhere, a lone surrogate, a number beyond ±1.8e308 and nesting past 512 are
/// refused (`.invalidArgument` with the reader's reasons); a key given twice reads as its later
/// member.
struct ChartJSONReader {
    var reader: JSONReader

    /// What was read: times, values (NaN for null), partial flags, and the currency code when
    /// present.
    struct Chart {
        var times: [Double] = []
        var values: [Double] = []
        /// Whether each point is partial (its third member is `true`, as `portfolio_history`
        /// marks a point that leaves out a holding); empty when none is.
        var partial: [Bool] = []
        var vsCurrency: String?
        var hasPoints = false
    }

    /// Reads `text`.
    /// - Throws: `.invalidArgument` for malformed JSON, a top level that is not an object, or
    ///   points that are not `[number, number|null, …]`.
    static func read(_ text: String) throws -> Chart {
        var copy = text
        return try copy.withUTF8 { buffer in
            var reader = ChartJSONReader(bytes: buffer)
            return try reader.document()
        }
    }

    /// A reader of UTF-8 `bytes`.
    init(bytes: UnsafeBufferPointer<UInt8>) { reader = JSONReader(bytes) }

    /// The top level, which must be an object: `member` reads each member's value (the key
    /// given); then nothing but whitespace may follow.
    /// - Parameter notAnObject: the error for a well-formed top level that is not an object.
    private mutating func object(notAnObject: @autoclosure () -> CoinfolioError, member: (inout Self, String) throws -> Void)
        throws
    {
        guard reader.peek() == UInt8(ascii: "{") else {
            try reader.document { try $0.skipValue() }
            throw notAnObject()
        }
        reader.index += 1
        if reader.peek() == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            repeat {
                let key = try reader.memberName()
                try member(&self, key)
            } while try reader.nextInContainer(object: true)
        }
        try reader.end()
    }

    private mutating func document() throws -> Chart {
        var chart = Chart()
        try object(notAnObject: CoinfolioError.invalid("expected a JSON object")) { this, key in
            switch PriceChart.JSONKey(rawValue: key) {
            case .points?:
                try this.points(into: &chart)
            case .vsCurrency?:
                switch this.reader.peek() {
                case UInt8(ascii: "\""): chart.vsCurrency = try this.reader.string()
                case UInt8(ascii: "n"): try this.reader.literal("null")
                default:
                    try this.reader.skipValue(depth: 1)
                    throw CoinfolioError.invalid("vs_currency must be a string")
                }
            default:
                try this.reader.skipValue(depth: 1)
            }
        }
        return chart
    }

    private mutating func points(into chart: inout Chart) throws {
        guard reader.peek() == UInt8(ascii: "[") else {
            throw CoinfolioError.invalid(
                "chart_json needs \"points\": an array of [t_ms, value|null] (a chart or portfolio_history answer)")
        }
        reader.index += 1
        chart.hasPoints = true
        chart.times.removeAll(keepingCapacity: true)
        chart.values.removeAll(keepingCapacity: true)
        chart.partial.removeAll()
        if reader.peek() == UInt8(ascii: "]") {
            reader.index += 1
            return
        }
        var position = 0
        var anyPartial = false
        repeat {
            func bad() -> CoinfolioError {
                CoinfolioError(
                    .invalidArgument, "points[\(position)] is not [t_ms, value|null]", details: [.index: .number(Double(position))])
            }
            guard reader.peek() == UInt8(ascii: "[") else { throw bad() }
            reader.index += 1
            guard let time = try numberOrNil() else { throw bad() }
            try reader.expect(UInt8(ascii: ","), "',' after a point's time")
            var value = Double.nan
            guard let next = reader.peek() else { throw reader.failure("the text ends inside an array") }
            switch next {
            case UInt8(ascii: "n"): try reader.literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try reader.double()
            default: throw bad()
            }
            // A third member `true` is portfolio_history's `partial`; further members are read
            // and ignored.
            var partial = false
            if reader.peek() == UInt8(ascii: ",") {
                reader.index += 1
                if reader.peek() == UInt8(ascii: "t") {
                    try reader.literal("true")
                    partial = true
                } else {
                    try reader.skipValue(depth: 3)
                }
            }
            while reader.peek() == UInt8(ascii: ",") {
                reader.index += 1
                try reader.skipValue(depth: 3)
            }
            try reader.expect(UInt8(ascii: "]"), "']' after a point")
            if partial && !anyPartial {
                anyPartial = true
                chart.partial = [Bool](repeating: false, count: position)
                chart.partial.reserveCapacity(chart.times.capacity)
            }
            if anyPartial { chart.partial.append(partial) }
            chart.times.append(time)
            chart.values.append(value)
            position += 1
        } while try reader.nextInContainer(object: false)
    }

    /// The number that comes next, or nil when the next value is not a number.
    private mutating func numberOrNil() throws -> Double? {
        switch reader.peek() ?? 0 {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try reader.double()
        default: return nil
        }
    }
}

extension ChartJSONReader {
    /// A value where a point's time or price stands: a number, a string, null, or anything else.
    private enum Scalar {
        case number(Double)
        case string(String)
        case null
        case other

        /// A number, or a string whose whole content is a JSON number (SPEC §10).
        var number: Double? {
            switch self {
            case .number(let value): return value
            case .string(let text): return NumberText.parse(text)
            case .null, .other: return nil
            }
        }
    }

    /// The value that comes next, inside a point (3 levels deep).
    private mutating func scalar() throws -> Scalar {
        switch reader.peek() ?? 0 {
        case UInt8(ascii: "\""): return .string(try reader.string())
        case UInt8(ascii: "n"):
            try reader.literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try reader.double())
        default:
            try reader.skipValue(depth: 3)
            return .other
        }
    }

    /// A `/coins/{id}/market_chart` body (the rules of `CoinGeckoBody.marketChart`).
    /// - Throws: `.invalidArgument` for malformed JSON anywhere; `.decode` when the JSON is well
    ///   formed but not an object, or a series is not an array.
    mutating func marketChart() throws -> MarketChart {
        var chart = MarketChart()
        var shapeError: CoinfolioError?
        try object(notAnObject: CoinfolioError(.decode, "expected a JSON object {\"prices\":[…]} (/coins/{id}/market_chart)")) {
            this, key in
            let series = MarketChart.JSONKey(rawValue: key)
            switch series {
            case .prices?, .marketCaps?, .totalVolumes?:
                var points: [ChartPoint] = []
                switch this.reader.peek() {
                case UInt8(ascii: "["): try this.series(key, into: &points, warnings: &chart.warnings)
                case UInt8(ascii: "n"): try this.reader.literal("null")
                default:
                    try this.reader.skipValue(depth: 1)
                    shapeError =
                        shapeError ?? CoinfolioError(.decode, "\(key) is not an array of [time, value] points (/coins/{id}/market_chart)")
                }
                switch series {
                case .prices?: chart.prices = points
                case .marketCaps?: chart.marketCaps = points
                default: chart.totalVolumes = points
                }
            default:
                try this.reader.skipValue(depth: 1)
            }
        }
        if let shapeError { throw shapeError }
        return chart
    }

    /// The points of one series; what cannot be placed is left out, what is not a number is a
    /// gap, and each is reported.
    private mutating func series(_ key: String, into points: inout [ChartPoint], warnings: inout [MarketChart.Warning]) throws {
        reader.index += 1  // "["
        if reader.peek() == UInt8(ascii: "]") {
            reader.index += 1
            return
        }
        var position = 0
        repeat {
            if reader.peek() == UInt8(ascii: "[") {
                reader.index += 1
                if reader.peek() == UInt8(ascii: "]") {
                    reader.index += 1
                    warnings.append(.init(series: key, index: position, reason: "not a [time, value] point: left out"))
                } else {
                    let time = try scalar().number
                    var value: Double?
                    var valueIsBad = false
                    if reader.peek() == UInt8(ascii: ",") {
                        reader.index += 1
                        let second = try scalar()
                        value = second.number
                        if case .null = second {} else if value == nil { valueIsBad = true }
                        while reader.peek() == UInt8(ascii: ",") {
                            reader.index += 1
                            try reader.skipValue(depth: 3)
                        }
                    }
                    try reader.expect(UInt8(ascii: "]"), "']' after a point")
                    if let time {
                        points.append(ChartPoint(time: time, value: value))
                        if valueIsBad {
                            warnings.append(.init(series: key, index: position, reason: "the value is not a number: read as a gap"))
                        }
                    } else {
                        warnings.append(.init(series: key, index: position, reason: "not a [time, value] point: left out"))
                    }
                }
            } else {
                try reader.skipValue(depth: 2)
                warnings.append(.init(series: key, index: position, reason: "not a [time, value] point: left out"))
            }
            position += 1
        } while try reader.nextInContainer(object: false)
    }
}
