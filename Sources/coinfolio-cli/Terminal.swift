import Coinfolio
import Foundation

/// Output for a person: colours on a terminal, none when piped or with NO_COLOR.
struct Terminal {
    let colors: Bool

    init(environment: [String: String]) {
        colors = isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    func paint(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }

    /// What a table cell shows for a figure that is not known (a rank, a price, a 24 h change).
    static let unknownCell = "-"

    /// A change in a table's cell: as `change`, and `unknownCell` when unknown.
    func changeCell(_ value: Double?) -> String {
        guard let value, value.isFinite else { return Terminal.unknownCell }
        return change(value)
    }

    /// "+1.23%" in green, "-4.56%" in red, "" when unknown (after a total or a statistic).
    func change(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        let text = (value > 0 ? "+" : "") + NumberFormat.percent(value)
        if text.hasPrefix("+") { return paint(text, "32") }
        if text.hasPrefix("-") { return paint(text, "31") }
        return text
    }

    /// Text from market data made safe for a terminal: control characters (an ESC or BEL in a
    /// coin's name could recolour or clear the screen) become "�"; line breaks are kept only
    /// where `multiline` says so.
    static func printable(_ text: String, multiline: Bool = false) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    if multiline, scalar == "\n" { return scalar }
                    return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "\u{FFFD}" : scalar
                }))
    }

    /// A one-line chart of prices: ▁▂▃▄▅▆▇█, at most `width` characters.
    static func sparkline(_ prices: [Double]?, width: Int = 24) -> String {
        let points = (prices ?? []).filter(\.isFinite)
        guard points.count > 1, let low = points.min(), let high = points.max() else { return "" }
        let bars = Array("▁▂▃▄▅▆▇█")
        let step = Double(points.count) / Double(min(width, points.count))
        var line = ""
        var position = 0.0
        while Int(position) < points.count {
            let value = points[Int(position)]
            // Halves first, so that ±1.7e308 cannot overflow the range to infinity.
            let ratio = (value / 2 - low / 2) / (high / 2 - low / 2)
            let level = ratio.isFinite ? Int((ratio * Double(bars.count - 1)).rounded()) : 3
            line.append(bars[min(max(level, 0), bars.count - 1)])
            position += step
        }
        return line
    }

    /// Lays out rows in columns; `right` lists the columns aligned right.
    static func table(_ header: [String], _ rows: [[String]], right: Set<Int>) -> String {
        func width(_ text: String) -> Int {
            // Escape sequences take no room on screen.
            var count = 0, escaping = false
            for character in text {
                if character == "\u{1B}" {
                    escaping = true
                } else if escaping {
                    if character == "m" { escaping = false }
                } else {
                    count += 1
                }
            }
            return count
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { width($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let pad = String(repeating: " ", count: widths[column] - width(row[column]))
                return right.contains(column) ? pad + row[column] : row[column] + pad
            }.joined(separator: "  ").trailingSpacesRemoved
        }.joined(separator: "\n")
    }
}

extension String {
    /// The text without the spaces that padding left at its end.
    var trailingSpacesRemoved: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

/// A one-line progress bar on stderr for long work (refresh pages, import, charts), drawn only
/// when stderr is a terminal so that logs and pipes get nothing.
struct ProgressBar {
    /// Whether stderr is a terminal (otherwise the bar is never drawn).
    static var isEnabled: Bool { isatty(STDERR_FILENO) == 1 }

    /// "markets  [##########··········]  2/4", or a spinner-free "import  12" without a total.
    static func line(_ progress: WorkProgress, width: Int = 20) -> String {
        let label = progress.phase.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        guard let total = progress.total, total > 0 else { return "\(label) \(progress.done)" }
        let filled = min(width, max(0, progress.done * width / total))
        let bar = String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
        return "\(label) [\(bar)] \(progress.done)/\(total)"
    }

    /// Redraws the bar in place.
    static func draw(_ progress: WorkProgress) {
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line(progress))".utf8))
    }

    /// Removes the bar, leaving the line empty for the next output.
    static func clear() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
