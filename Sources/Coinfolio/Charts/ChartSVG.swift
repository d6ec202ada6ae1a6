import Foundation

/// Draws a price or portfolio series as a standalone SVG document, as the tracker's detail screen
/// does, readable at a glance:
/// - the line green when the last value ≥ the first and red otherwise, gaps as breaks in it;
/// - on the left, round value ticks (`ValueAxis`: steps of 1, 2 or 5 × 10ⁿ, 3 to 6 of them,
///   covering the data) written like values (`NumberFormat.tick`), with grid lines;
/// - below, the first and last dates (UTC; with the time under two days) and round times
///   between them (`TimeAxis`: hours, days, months or years, UTC), with grid lines;
/// - partial points (a `portfolio_history` hour that leaves out a holding without a price there)
///   drawn dashed and lighter, and a note under the title saying how many there are; the scale
///   and the colour follow the complete points only (all points when none is complete), and a
///   partial value outside that scale is cut at the plot's edge;
/// - an optional title. A series with no value says "No data".
///
/// Every text is XML-escaped, so a coin named `<script>` is text. The document parses as XML and
/// renders in rsvg-convert and browsers.
public enum ChartSVG {
    /// The line when the series went up or stayed level.
    public static let risingColour = "#16c784"
    /// The line when the series went down.
    public static let fallingColour = "#ea3943"
    /// How partial points are drawn: the line's colour, dashed and lighter.
    static let partialStyle = "stroke-dasharray=\"5 4\" stroke-opacity=\"0.5\""

    /// Renders the JSON answer of `chart` or `portfolio_history`: an object with `points`
    /// (`[[t_ms, v|null, partial?, …]…]`: a third member `true` marks a partial point; sorted by
    /// time here when they are not) and `vs_currency` (default usd); other keys are ignored.
    /// - Throws: `.invalidArgument` for malformed JSON or points that are not `[number, number|null, …]`.
    public static func render(json: String, options: ChartSVGOptions = ChartSVGOptions()) throws -> String {
        let chart = try ChartJSONReader.read(json)
        guard chart.hasPoints else {
            throw CoinfolioError.invalid(
                "chart_json needs \"points\": an array of [t_ms, value|null] (a chart or portfolio_history answer)")
        }
        let vs = try chart.vsCurrency.map { try VsCurrency($0) } ?? .usd
        // Drawn in time order, as `PriceChart` keeps its points, so that the line never runs
        // backwards and its colour compares the earliest and latest values.
        let series = ChartSeries(times: chart.times, values: chart.values, partial: chart.partial).sorted()
        return render(series, vsCurrency: vs, options: options)
    }

    private struct Palette {
        var background: String, text: String, grid: String, muted: String
        init(_ theme: ChartSVGOptions.Theme) {
            switch theme {
            case .light: (background, text, grid, muted) = ("#ffffff", "#3c3c43", "#e5e5ea", "#6e6e73")
            case .dark: (background, text, grid, muted) = ("#111418", "#d1d1d6", "#2c2f36", "#a1a1a6")
            }
        }
    }

    /// The note over a series with partial points.
    static func partialNote(partial: Int, of count: Int) -> String {
        "Dashed: \(partial) of \(count) points miss a holding\u{2019}s price"
    }

    static func render(_ series: ChartSeries, vsCurrency: VsCurrency, options: ChartSVGOptions) -> String {
        let width = Double(options.width)
        let height = Double(options.height)
        let palette = Palette(options.theme)
        let fontSize = min(12.0, max(7.0, height / 12))
        // Text is measured, not laid out: 0.62 em a character fits DejaVu Sans digits and capitals.
        let characterWidth = fontSize * 0.62
        var out = SVGBuffer(capacity: series.times.count * 16 + 4096)
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(options.width)\" height=\"\(options.height)\" viewBox=\"0 0 \(options.width) \(options.height)\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"\(Int(fontSize))\">\n"
        )
        out.append("<rect x=\"0\" y=\"0\" width=\"\(options.width)\" height=\"\(options.height)\" fill=\"\(palette.background)\"/>\n")
        var top = 6.0 + fontSize / 2
        if let title = options.title, !title.isEmpty {
            out.text(title, x: 6, y: Double(Int(fontSize + 4)), anchor: "start", fill: palette.text, attributes: " font-weight=\"bold\"")
            top = fontSize * 2 + 8
        }

        let extent = series.extent
        let scaled = extent.scaled
        guard !scaled.isEmpty else {
            out.text("No data", x: Double(Int(width / 2)), y: Double(Int((height + top) / 2)), anchor: "middle", fill: palette.text)
            out.append("</svg>\n")
            return out.string
        }
        let colour = scaled.last >= scaled.first ? risingColour : fallingColour

        // The note on partial points, on a row of its own under the title: a dashed sample of the
        // line, then the text (left-aligned, so that no text width has to be guessed).
        if extent.partialCount > 0 {
            let noteSize = (fontSize * 0.85).rounded()
            let baseline = top - fontSize / 2 + noteSize
            out.append("<path fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" \(partialStyle) d=\"M6,")
            out.coordinate(baseline - noteSize * 0.35)
            out.append("h18\"/>\n")
            out.text(
                partialNote(partial: extent.partialCount, of: series.times.count), x: 30, y: baseline, anchor: "start", fill: palette.muted,
                attributes: " font-size=\"\(Int(noteSize))\"")
            top = baseline + fontSize / 2 + 8
        }

        let bottom = height - fontSize - 8
        let plotTop = min(top, bottom - 1)
        let plotHeight = max(bottom - plotTop, 1)
        // As many value ticks as fit with their labels 1.5 lines apart (3 to 6).
        let axis = ValueAxis(
            low: scaled.low, high: scaled.high, vsCurrency: vsCurrency, maximumCount: Int(plotHeight / (fontSize * 1.5)) + 1)
        let characters = axis.labels.map(\.count).max() ?? 0
        let labelWidth = min(Double(characters) * characterWidth + 8, width / 2)
        let frame = ChartFrame(
            left: 4 + labelWidth, top: plotTop, width: max(width - 6 - (4 + labelWidth), 1), height: plotHeight, start: extent.start,
            end: extent.end, low: axis.low, high: axis.high)
        let (left, right) = (frame.left, width - 6)

        // Round times: grid lines, then (below) the labels that fit between the end dates. At
        // most a dozen, each with two ems to spare: days for a week, months for a year.
        let timeTicks = TimeAxis.ticks(start: extent.start, end: extent.end) { unit in
            Int(frame.width / (Double(unit.labelCharacters) * characterWidth + 2 * fontSize))
        }
        for tick in timeTicks { out.line(x1: frame.x(tick.time), y1: plotTop, x2: frame.x(tick.time), y2: bottom, stroke: palette.grid) }

        // Value ticks, highest first: grid lines and labels.
        for (tick, label) in zip(axis.ticks, axis.labels).reversed() {
            out.line(x1: left, y1: frame.y(tick), x2: right, y2: frame.y(tick), stroke: palette.grid)
            out.text(label, x: left - 4, y: frame.y(tick) + fontSize * 0.35, anchor: "end", fill: palette.text)
        }

        // Time labels: the first and last dates, with the time when the span is under two days,
        // and the round times between them where they do not crowd each other.
        let withTime = extent.end - extent.start < 2 * 86_400_000
        let baseline = height - 5
        let first = ChartTime.date(milliseconds: extent.start, withTime: withTime)
        if frame.halfSpan > 0 {
            let last = ChartTime.date(milliseconds: extent.end, withTime: withTime)
            let gap = fontSize / 2
            var free = left + Double(first.count) * characterWidth + gap
            let limit = right - Double(last.count) * characterWidth - gap
            out.text(first, x: left, y: baseline, anchor: "start", fill: palette.text)
            for tick in timeTicks {
                let half = Double(tick.label.count) * characterWidth / 2
                let at = frame.x(tick.time)
                guard at - half >= free, at + half <= limit else { continue }
                out.text(tick.label, x: at, y: baseline, anchor: "middle", fill: palette.text)
                free = at + half + gap
            }
            out.text(last, x: right, y: baseline, anchor: "end", fill: palette.text)
        } else {
            out.text(first, x: frame.x(extent.start), y: baseline, anchor: "middle", fill: palette.text)
        }

        drawLine(series, colour: colour, frame: frame, scale: axis.low...axis.high, into: &out)
        out.append("</svg>\n")
        return out.string
    }

    /// The line: complete segments solid, segments that touch a partial point dashed and lighter
    /// (drawn first, under the solid ones), one subpath per run between gaps; a value alone
    /// between gaps is a dot of the line's width. Cut at the plot's edge when a value lies
    /// outside `scale` (a partial one).
    private static func drawLine(
        _ series: ChartSeries, colour: String, frame: ChartFrame, scale: ClosedRange<Double>, into out: inout SVGBuffer
    ) {
        var solid = SVGBuffer(capacity: series.times.count * 16)
        var dashed = SVGBuffer(capacity: series.partial.isEmpty ? 0 : series.times.count * 16)
        var solidEnd = -2, dashedEnd = -2
        var previous: (x: Double, y: Double, partial: Bool)?
        var dots: [(x: Double, y: Double, partial: Bool)] = []
        var outside = false
        let values = series.values
        for index in values.indices {
            let v = values[index]
            guard v.isFinite else { previous = nil; continue }
            let point = (x: frame.x(series.times[index]), y: frame.y(v), partial: series.isPartial(index))
            if !scale.contains(v) { outside = true }
            if let previous {
                if previous.partial || point.partial {
                    dashed.segment(from: (previous.x, previous.y), to: (point.x, point.y), penIsThere: dashedEnd == index - 1)
                    dashedEnd = index
                } else {
                    solid.segment(from: (previous.x, previous.y), to: (point.x, point.y), penIsThere: solidEnd == index - 1)
                    solidEnd = index
                }
            } else if index + 1 >= values.count || !values[index + 1].isFinite {
                dots.append(point)
            }
            previous = point
        }
        var clip = ""
        if outside {
            let id = "cf-plot-\(Int(frame.left))-\(Int(frame.top))-\(Int(frame.width))-\(Int(frame.height))"
            out.append("<clipPath id=\"\(id)\"><rect x=\"")
            out.coordinate(frame.left)
            out.append("\" y=\"")
            out.coordinate(frame.top)
            out.append("\" width=\"")
            out.coordinate(frame.width)
            out.append("\" height=\"")
            out.coordinate(frame.height)
            out.append("\"/></clipPath>\n")
            clip = " clip-path=\"url(#\(id))\""
        }
        let stroke = "fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\"\(clip)"
        if !dashed.bytes.isEmpty {
            out.append("<path \(stroke) \(partialStyle) d=\"")
            out.append(bytes: dashed.bytes)
            out.append("\"/>\n")
        }
        if !solid.bytes.isEmpty {
            out.append("<path \(stroke) d=\"")
            out.append(bytes: solid.bytes)
            out.append("\"/>\n")
        }
        for dot in dots {
            out.append("<circle cx=\"")
            out.coordinate(dot.x)
            out.append("\" cy=\"")
            out.coordinate(dot.y)
            out.append("\" r=\"1.5\" fill=\"\(colour)\"\(dot.partial ? " fill-opacity=\"0.5\"" : "")\(clip)/>\n")
        }
    }
}
