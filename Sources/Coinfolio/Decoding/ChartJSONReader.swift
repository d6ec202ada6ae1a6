import Foundation

/// Reads time series straight from the bytes, in one pass: the chart JSON `cf_chart_svg` draws
/// (`"points":[[t, v|null, …]…]` and `"vs_currency"`), and `/coins/{id}/market_chart` bodies
/// (`marketChart()`). A year of hourly points is about 1 MB, which Foundation's
/// `JSONSerialization` reads about ten times slower than this. Members other than the series are
/// skipped but still checked, so malformed JSON anywhere is refused (`.invalidArgument`).
struct ChartJSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// What was read: times, values (NaN for null), and the currency code when present.
    struct Chart {
        var times: [Double] = []
        var values: [Double] = []
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

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func malformed(_ what: String = "malformed JSON") -> CoinfolioError {
        CoinfolioError(.invalidArgument, "\(what) at offset \(index)", reason: .malformedJSON)
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw malformed() }
        index += 1
    }

    mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func document() throws -> Chart {
        var chart = Chart()
        guard peek() == UInt8(ascii: "{") else {
            if peek() == nil { throw malformed() }
            try skipValue()
            skipSpace()
            guard index == bytes.count else { throw malformed() }
            throw CoinfolioError.invalid("expected a JSON object")
        }
        index += 1
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                let key = try string()
                try expect(UInt8(ascii: ":"))
                switch key {
                case "points":
                    try points(into: &chart)
                case "vs_currency":
                    if peek() == UInt8(ascii: "\"") {
                        chart.vsCurrency = try string()
                    } else if peek() == UInt8(ascii: "n") {
                        try literal("null")
                    } else {
                        throw CoinfolioError.invalid("vs_currency must be a string")
                    }
                default:
                    try skipValue()
                }
                guard let next = peek() else { throw malformed() }
                index += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw malformed() }
            }
        }
        skipSpace()
        guard index == bytes.count else { throw malformed("text after the JSON object") }
        return chart
    }

    private mutating func points(into chart: inout Chart) throws {
        guard peek() == UInt8(ascii: "[") else {
            throw CoinfolioError.invalid(
                "chart_json needs \"points\": an array of [t_ms, value|null] (a chart or portfolio_history answer)")
        }
        index += 1
        chart.hasPoints = true
        chart.times.removeAll(keepingCapacity: true)
        chart.values.removeAll(keepingCapacity: true)
        if peek() == UInt8(ascii: "]") { index += 1; return }
        var position = 0
        while true {
            func bad() -> CoinfolioError {
                CoinfolioError(
                    .invalidArgument, "points[\(position)] is not [t_ms, value|null]", details: ["index": .number(Double(position))])
            }
            guard peek() == UInt8(ascii: "[") else { throw bad() }
            index += 1
            guard let time = try numberOrNil(), time.isFinite else { throw bad() }
            try expect(UInt8(ascii: ","))
            guard let first = peek() else { throw malformed() }
            var value = Double.nan
            if first == UInt8(ascii: "n") {
                try literal("null")
            } else if first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                guard let number = try numberOrNil(), number.isFinite else { throw bad() }
                value = number
            } else {
                throw bad()
            }
            // Further members (portfolio_history's `partial`) are read and ignored.
            while peek() == UInt8(ascii: ",") {
                index += 1
                try skipValue()
            }
            try expect(UInt8(ascii: "]"))
            chart.times.append(time)
            chart.values.append(value)
            position += 1
            guard let next = peek() else { throw malformed() }
            index += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw malformed() }
        }
    }

    /// A JSON number (RFC 8259 grammar; ±infinity beyond a Double's range), or nil when the next
    /// value is not a number.
    mutating func numberOrNil() throws -> Double? {
        skipSpace()
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { index = start; return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            index = start
            return nil
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            integral = false
            guard digits() > 0 else { throw malformed() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            integral = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw malformed() }
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if integral, slice.count <= 15 {
            // Whole numbers below 10^15 (timestamps in ms) are exact in a Double: no strtod.
            var value = 0.0
            var negative = false
            for byte in slice {
                if byte == UInt8(ascii: "-") { negative = true } else { value = value * 10 + Double(byte - 0x30) }
            }
            return negative ? -value : value
        }
        // Out of a Double's range (1e400) reads as infinity; callers refuse it. strtod on a stack
        // copy: a String per number would cost more than the rest of the reading.
        guard slice.count < 64 else {
            guard let value = Double(String(decoding: slice, as: UTF8.self)) else { throw malformed() }
            return value
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            for (offset, byte) in slice.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[slice.count] = 0
            guard let base = buffer.baseAddress else { return .nan }
            return strtod(base, nil)
        }
    }

    mutating func literal(_ word: StaticString) throws {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw malformed() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw malformed() }
        index += count
    }

    /// A JSON string, unescaped; the bytes must be UTF-8.
    mutating func string() throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw malformed() }
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw malformed("bad UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw malformed() }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800...0xDBFF).contains(unit), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            // A lone high surrogate then another escape (JSON syntax allows it;
                            // Python reads it): U+FFFD, then that escape read on its own.
                            index -= 6
                        }
                    }
                    // A lone surrogate is no character: it becomes U+FFFD.
                    let scalar = Unicode.Scalar(unit) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(scalar).utf8))
                default:
                    throw malformed("bad escape")
                }
            case 0x00..<0x20:
                throw malformed("control character in a string")
            default:
                out.append(byte)
            }
        }
        throw malformed("unterminated string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw malformed() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x37
            default: throw malformed("bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Skips one value of any kind, checking its syntax; nesting is bounded.
    mutating func skipValue(depth: Int = 0) throws {
        guard depth < JSONSyntax.maximumDepth else { throw malformed("nested too deep") }
        guard let first = peek() else { throw malformed() }
        switch first {
        case UInt8(ascii: "{"):
            index += 1
            if peek() == UInt8(ascii: "}") { index += 1; return }
            while true {
                _ = try string()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
                guard let next = peek() else { throw malformed() }
                index += 1
                if next == UInt8(ascii: "}") { return }
                guard next == UInt8(ascii: ",") else { throw malformed() }
            }
        case UInt8(ascii: "["):
            index += 1
            if peek() == UInt8(ascii: "]") { index += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                guard let next = peek() else { throw malformed() }
                index += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw malformed() }
            }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default:
            guard try numberOrNil() != nil else { throw malformed() }
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

        /// A finite number, or a string whose whole content is a JSON number (SPEC §10).
        var number: Double? {
            switch self {
            case .number(let value): return value.isFinite ? value : nil
            case .string(let text):
                guard CoinGeckoBody.isJSONNumber(text), let value = Double(text), value.isFinite else { return nil }
                return value
            case .null, .other: return nil
            }
        }
    }

    private mutating func scalar() throws -> Scalar {
        guard let first = peek() else { throw malformed() }
        switch first {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let value = try numberOrNil() else { throw malformed() }
            return .number(value)
        default:
            try skipValue()
            return .other
        }
    }

    /// A `/coins/{id}/market_chart` body (the rules of `CoinGeckoBody.marketChart`).
    /// - Throws: `.invalidArgument` for malformed JSON anywhere; `.decode` when the JSON is well
    ///   formed but not an object, or a series is not an array.
    mutating func marketChart() throws -> MarketChart {
        var chart = MarketChart()
        var shapeError: CoinfolioError?
        guard peek() == UInt8(ascii: "{") else {
            if peek() == nil { throw malformed() }
            try skipValue()
            skipSpace()
            guard index == bytes.count else { throw malformed() }
            throw CoinfolioError(.decode, "expected a JSON object {\"prices\":[…]} (/coins/{id}/market_chart)")
        }
        index += 1
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                let key = try string()
                try expect(UInt8(ascii: ":"))
                switch key {
                case "prices", "market_caps", "total_volumes":
                    var points: [ChartPoint] = []
                    if peek() == UInt8(ascii: "[") {
                        try series(key, into: &points, warnings: &chart.warnings)
                    } else if peek() == UInt8(ascii: "n") {
                        try literal("null")
                    } else {
                        try skipValue()
                        shapeError =
                            shapeError
                            ?? CoinfolioError(.decode, "\(key) is not an array of [time, value] points (/coins/{id}/market_chart)")
                    }
                    switch key {
                    case "prices": chart.prices = points
                    case "market_caps": chart.marketCaps = points
                    default: chart.totalVolumes = points
                    }
                default:
                    try skipValue()
                }
                guard let next = peek() else { throw malformed() }
                index += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw malformed() }
            }
        }
        skipSpace()
        guard index == bytes.count else { throw malformed("text after the JSON object") }
        if let shapeError { throw shapeError }
        return chart
    }

    /// The points of one series; what cannot be placed is left out, what is not a number is a
    /// gap, and each is reported.
    private mutating func series(_ key: String, into points: inout [ChartPoint], warnings: inout [MarketChart.Warning]) throws {
        index += 1  // "["
        if peek() == UInt8(ascii: "]") { index += 1; return }
        var position = 0
        while true {
            if peek() == UInt8(ascii: "[") {
                index += 1
                if peek() == UInt8(ascii: "]") {
                    index += 1
                    warnings.append(.init(series: key, index: position, reason: "not a [time, value] point: left out"))
                } else {
                    let time = try scalar().number
                    var value: Double?
                    var valueIsBad = false
                    if peek() == UInt8(ascii: ",") {
                        index += 1
                        let second = try scalar()
                        value = second.number
                        if case .null = second {} else if value == nil { valueIsBad = true }
                        while peek() == UInt8(ascii: ",") {
                            index += 1
                            try skipValue()
                        }
                    }
                    try expect(UInt8(ascii: "]"))
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
                try skipValue()
                warnings.append(.init(series: key, index: position, reason: "not a [time, value] point: left out"))
            }
            position += 1
            guard let next = peek() else { throw malformed() }
            index += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw malformed() }
        }
    }
}
