import Foundation

/// Draws a price or portfolio series as a standalone SVG document, as the tracker's detail screen
/// does: the line green when the last value ≥ the first and red otherwise, gaps as breaks in the
/// line, the max, middle and min on the left formatted as prices in the chart's currency
/// (`NumberFormat.price`), the first and last dates (UTC) below, and an optional title. A series
/// with no value says "No data". Every text is XML-escaped, so a coin named `<script>` is text.
///
/// The document parses as XML and renders in rsvg-convert and browsers.
public enum ChartSVG {
    /// The line when the series went up or stayed level.
    public static let risingColour = "#16c784"
    /// The line when the series went down.
    public static let fallingColour = "#ea3943"

    /// A series: times in milliseconds, values with NaN for gaps.
    struct Series {
        var times: [Double]
        var values: [Double]

        init(points: [ChartPoint]) {
            times = points.map(\.time)
            values = points.map { $0.value ?? .nan }
        }

        init(times: [Double], values: [Double]) {
            self.times = times
            self.values = values
        }
    }

    /// Renders the JSON answer of `chart` or `portfolio_history`: an object with `points`
    /// (`[[t_ms, v|null, …]…]`; sorted by time here when they are not) and `vs_currency`
    /// (default usd); other keys are ignored.
    /// - Throws: `.invalidArgument` for malformed JSON or points that are not `[number, number|null, …]`.
    public static func render(json: String, options: ChartSVGOptions = ChartSVGOptions()) throws -> String {
        let chart = try ChartJSONReader.read(json)
        guard chart.hasPoints else {
            throw CoinfolioError.invalid(
                "chart_json needs \"points\": an array of [t_ms, value|null] (a chart or portfolio_history answer)")
        }
        let vs = try chart.vsCurrency.map { try VsCurrency($0) } ?? .usd
        var series = Series(times: chart.times, values: chart.values)
        // Drawn in time order, as `PriceChart` keeps its points, so that the line never runs
        // backwards and its colour compares the earliest and latest values.
        if !zip(series.times, series.times.dropFirst()).allSatisfy({ $0 <= $1 }) {
            let order = series.times.indices.sorted { (series.times[$0], $0) < (series.times[$1], $1) }
            series = Series(times: order.map { series.times[$0] }, values: order.map { series.values[$0] })
        }
        return render(series, vsCurrency: vs, options: options)
    }

    private struct Palette {
        var background: String, text: String, grid: String
        init(_ theme: ChartSVGOptions.Theme) {
            switch theme {
            case .light: (background, text, grid) = ("#ffffff", "#3c3c43", "#e5e5ea")
            case .dark: (background, text, grid) = ("#111418", "#d1d1d6", "#2c2f36")
            }
        }
    }

    static func render(_ series: Series, vsCurrency: VsCurrency, options: ChartSVGOptions) -> String {
        let width = Double(options.width)
        let height = Double(options.height)
        let palette = Palette(options.theme)
        let fontSize = min(12.0, max(7.0, height / 12))
        var out = SVGBuffer(capacity: series.times.count * 16 + 2048)
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(options.width)\" height=\"\(options.height)\" viewBox=\"0 0 \(options.width) \(options.height)\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"\(Int(fontSize))\">\n"
        )
        out.append("<rect x=\"0\" y=\"0\" width=\"\(options.width)\" height=\"\(options.height)\" fill=\"\(palette.background)\"/>\n")
        var top = 6.0 + fontSize / 2
        if let title = options.title, !title.isEmpty {
            out.append("<text x=\"6\" y=\"\(Int(fontSize + 4))\" fill=\"\(palette.text)\" font-weight=\"bold\">")
            out.appendEscaped(title)
            out.append("</text>\n")
            top = fontSize * 2 + 8
        }

        // Extremes and ends, ignoring gaps.
        var low = Double.infinity, high = -Double.infinity
        var first = Double.nan, last = Double.nan
        var start = Double.infinity, end = -Double.infinity
        for index in series.values.indices {
            let v = series.values[index]
            let t = series.times[index]
            if t < start { start = t }
            if t > end { end = t }
            guard v.isFinite else { continue }
            if first.isNaN { first = v }
            last = v
            if v < low { low = v }
            if v > high { high = v }
        }
        guard low <= high else {
            out.append(
                "<text x=\"\(Int(width / 2))\" y=\"\(Int((height + top) / 2))\" fill=\"\(palette.text)\" text-anchor=\"middle\">No data</text>\n</svg>\n"
            )
            return out.string
        }

        let labels = [high, (high / 2 + low / 2), low].map { NumberFormat.price($0, vsCurrency: vsCurrency) }
        let characters = labels.map(\.count).max() ?? 0
        let labelWidth = min(Double(characters) * fontSize * 0.62 + 8, width / 2)
        let bottom = height - fontSize - 8
        let left = 4 + labelWidth
        let right = width - 6
        let plotTop = min(top, bottom - 1)
        let plotHeight = max(bottom - plotTop, 1)
        let plotWidth = max(right - left, 1)

        // Grid lines and y labels at max, middle and min.
        for (row, label) in labels.enumerated() {
            let y = plotTop + plotHeight * Double(row) / 2
            out.append("<line x1=\"")
            out.coordinate(left)
            out.append("\" y1=\"")
            out.coordinate(y)
            out.append("\" x2=\"")
            out.coordinate(right)
            out.append("\" y2=\"")
            out.coordinate(y)
            out.append("\" stroke=\"\(palette.grid)\" stroke-width=\"1\"/>\n<text x=\"")
            out.coordinate(left - 4)
            out.append("\" y=\"")
            out.coordinate(y + fontSize * 0.35)
            out.append("\" fill=\"\(palette.text)\" text-anchor=\"end\">")
            out.appendEscaped(label)
            out.append("</text>\n")
        }

        // x labels: the first and last dates, with the time when the span is under two days.
        let withTime = end - start < 2 * 86_400_000
        let baseline = height - 5
        out.append("<text x=\"")
        out.coordinate(left)
        out.append("\" y=\"")
        out.coordinate(baseline)
        out.append("\" fill=\"\(palette.text)\" text-anchor=\"start\">")
        out.appendEscaped(ChartTime.date(milliseconds: start, withTime: withTime))
        out.append("</text>\n<text x=\"")
        out.coordinate(right)
        out.append("\" y=\"")
        out.coordinate(baseline)
        out.append("\" fill=\"\(palette.text)\" text-anchor=\"end\">")
        out.appendEscaped(ChartTime.date(milliseconds: end, withTime: withTime))
        out.append("</text>\n")

        // The line: one subpath per run of values between gaps.
        let colour = last >= first ? risingColour : fallingColour
        out.append("<path fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"")
        // Halves here too: times ±1e308 apart would make the span infinite and every x NaN.
        let span = end / 2 - start / 2
        // Halves first, so that values near ±Double.greatestFiniteMagnitude cannot overflow.
        let range = high / 2 - low / 2
        var drawing = false
        var dots: [(x: Double, y: Double)] = []
        for index in series.values.indices {
            let v = series.values[index]
            guard v.isFinite else { drawing = false; continue }
            let x = span > 0 ? left + (series.times[index] / 2 - start / 2) / span * plotWidth : left + plotWidth / 2
            let ratio = range > 0 ? (v / 2 - low / 2) / range : 0.5
            let y = plotTop + (1 - ratio) * plotHeight
            out.byte(drawing ? UInt8(ascii: "L") : UInt8(ascii: "M"))
            out.coordinate(x)
            out.byte(UInt8(ascii: ","))
            out.coordinate(y)
            let nextIsGap = index + 1 >= series.values.count || !series.values[index + 1].isFinite
            if !drawing && nextIsGap { dots.append((x, y)) }
            drawing = true
        }
        out.append("\"/>\n")
        // A value alone between gaps draws no segment: it is a dot of the line's width.
        for dot in dots {
            out.append("<circle cx=\"")
            out.coordinate(dot.x)
            out.append("\" cy=\"")
            out.coordinate(dot.y)
            out.append("\" r=\"1.5\" fill=\"\(colour)\"/>\n")
        }
        out.append("</svg>\n")
        return out.string
    }
}

/// The bytes of an SVG document being written: coordinates with one decimal, written by hand
/// (no `String(format:)`), and text escaped for XML.
struct SVGBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
    mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    /// `value` rounded to one decimal: "12.3", "-4", "0.5".
    mutating func coordinate(_ value: Double) {
        // Coordinates stay on the page; a non-finite one (a defect upstream) draws at 0.
        let bounded = value.isFinite ? min(max(value, -100_000), 100_000) : 0
        var tenths = Int((bounded * 10).rounded())
        if tenths < 0 { bytes.append(UInt8(ascii: "-")); tenths = -tenths }
        integer(tenths / 10)
        let fraction = tenths % 10
        if fraction != 0 { bytes.append(UInt8(ascii: ".")); bytes.append(0x30 + UInt8(fraction)) }
    }

    private mutating func integer(_ value: Int) {
        if value >= 10 { integer(value / 10) }
        bytes.append(0x30 + UInt8(value % 10))
    }

    /// Text content or an attribute value: `& < > " '` escaped; characters XML 1.0 forbids
    /// (controls other than tab, newline and return; U+FFFE, U+FFFF) become U+FFFD.
    mutating func appendEscaped(_ text: String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": append("&amp;")
            case "<": append("&lt;")
            case ">": append("&gt;")
            case "\"": append("&quot;")
            case "'": append("&apos;")
            case "\t", "\n", "\r": bytes.append(UInt8(scalar.value))
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF || (0x7F...0x9F).contains(scalar.value) {
                    append("\u{FFFD}")
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
        }
    }
}
