import Coinfolio
import Foundation

/// A line chart for a terminal: Unicode braille (2 × 4 dots a cell) when the locale is UTF-8,
/// `*` on a character grid otherwise; gaps break the line. The max, middle and min prices are
/// labelled on the left, the first and last dates (UTC) below.
struct LineChart {
    /// Times in milliseconds, values with nil for gaps, sorted by time.
    var points: [(time: Double, value: Double?)]
    var vsCurrency: VsCurrency

    /// Rows of text, `width` columns wide at most (labels included), `height` rows of plot.
    func render(width: Int, height: Int, unicode: Bool, paint: (String) -> String) -> [String] {
        let known = points.compactMap { $0.value.flatMap { $0.isFinite ? $0 : nil } }
        guard let low = known.min(), let high = known.max(), let start = points.first?.time, let end = points.last?.time else {
            return ["(no data)"]
        }
        let labels = [high, high / 2 + low / 2, low].map { NumberFormat.price($0, vsCurrency: vsCurrency) }
        let labelWidth = labels.map(\.count).max() ?? 0
        let columns = max(width - labelWidth - 3, 8)
        let rows = max(height, 3)
        let (dotsX, dotsY) = unicode ? (columns * 2, rows * 4) : (columns, rows)
        var dots = [[Bool]](repeating: [Bool](repeating: false, count: dotsX), count: dotsY)
        // Halves, so that times or values near ±Double.greatestFiniteMagnitude cannot overflow.
        let span = end / 2 - start / 2
        let range = high / 2 - low / 2
        func place(_ point: (time: Double, value: Double?)) -> (Int, Int)? {
            guard let value = point.value, value.isFinite, point.time.isFinite else { return nil }
            let x = span > 0 ? (point.time / 2 - start / 2) / span * Double(dotsX - 1) : Double(dotsX - 1) / 2
            let ratio = range > 0 ? (value / 2 - low / 2) / range : 0.5
            let y = (1 - ratio) * Double(dotsY - 1)
            // Int(_:) of NaN or ±infinity stops the process: such a point is a gap instead.
            guard x.isFinite, y.isFinite else { return nil }
            return (min(max(Int(x.rounded()), 0), dotsX - 1), min(max(Int(y.rounded()), 0), dotsY - 1))
        }
        var previous: (Int, Int)?
        for point in points {
            guard let (x, y) = place(point) else { previous = nil; continue }
            if let (px, py) = previous {
                // A straight segment from the previous dot (Bresenham).
                var cx = px, cy = py
                let dx = abs(x - px), dy = -abs(y - py)
                let sx = px < x ? 1 : -1, sy = py < y ? 1 : -1
                var error = dx + dy
                while true {
                    dots[cy][cx] = true
                    if cx == x && cy == y { break }
                    let doubled = 2 * error
                    if doubled >= dy { error += dy; cx += sx }
                    if doubled <= dx { error += dx; cy += sy }
                }
            } else {
                dots[y][x] = true
            }
            previous = (x, y)
        }
        var lines: [String] = []
        for row in 0..<rows {
            var text = ""
            for column in 0..<columns {
                if unicode {
                    // Braille dot numbers: 1 2 3 7 down the left column, 4 5 6 8 down the right.
                    let bits: [[UInt32]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
                    var code: UInt32 = 0
                    for dy in 0..<4 {
                        for dx in 0..<2 where dots[row * 4 + dy][column * 2 + dx] { code |= bits[dy][dx] }
                    }
                    text.unicodeScalars.append(code == 0 ? " " : Unicode.Scalar(0x2800 + code) ?? " ")
                } else {
                    text.append(dots[row][column] ? "*" : " ")
                }
            }
            let label: String
            switch row {
            case 0: label = labels[0]
            case rows / 2: label = labels[1]
            case rows - 1: label = labels[2]
            default: label = ""
            }
            let padded = String(repeating: " ", count: labelWidth - label.count) + label
            lines.append("\(padded) \(unicode ? "┤" : "|") \(paint(text.trailingSpacesRemoved))".trailingSpacesRemoved)
        }
        let withTime = end - start < 2 * 86_400_000
        // The dates fit under the plot: without the times, or the first date alone, when narrow.
        var first = Self.date(start, withTime: withTime), last = Self.date(end, withTime: withTime)
        if withTime, first.count + 1 + last.count > columns {
            (first, last) = (Self.date(start, withTime: false), Self.date(end, withTime: false))
        }
        let dates =
            first.count + 1 + last.count > columns
            ? first : first + String(repeating: " ", count: max(columns - first.count - last.count, 1)) + last
        lines.append(String(repeating: " ", count: labelWidth + 3) + dates)
        return lines
    }

    /// `yyyy-MM-dd` (UTC), with ` HH:mm` when `withTime`.
    static func date(_ milliseconds: Double, withTime: Bool) -> String {
        guard milliseconds.isFinite, abs(milliseconds) < 2.5e14 else { return "n/a" }
        var style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current).year().month().day()
        if withTime { style = style.time(includingFractionalSeconds: false) }
        let text = Date(timeIntervalSince1970: milliseconds / 1000).formatted(style)
        // "2024-12-12T10:40:00Z" → "2024-12-12 10:40"
        return withTime ? String(text.prefix(16)).replacingOccurrences(of: "T", with: " ") : String(text.prefix(10))
    }
}

extension Terminal {
    /// Columns of the terminal: `COLUMNS`, else the window size of stdout, else 80.
    static func width(environment: [String: String]) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return min(max(columns, 20), 500) }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return min(max(Int(size.ws_col), 20), 500) }
        return 80
    }

    /// Whether the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`).
    static func isUTF8(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lower = locale.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }
}
