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

    /// Outside text made safe for a terminal — the one function every piece of text the CLI did
    /// not write itself goes through before it is printed: CoinGecko's answers (coin names,
    /// detail fields such as hashing_algorithm, descriptions, links, error messages), files (CSV
    /// cells echoed in an import error, exported notes), the database (notes, portfolio names)
    /// and JSON answers. Every control character — C0 (ESC, BEL, CR, …), DEL and C1 (U+0080…
    /// U+009F, which some terminals obey as 8-bit controls) — is made visible as its JSON escape
    /// `\u001B`, so `ESC ]0;title BEL` prints as `\u001B]0;title\u0007` instead of retitling the
    /// terminal, and `ESC [2J` cannot clear it. Line breaks are kept only where `multiline` says
    /// so. JSON text stays valid JSON with the same value (its C0 characters are escaped already;
    /// a raw C1 becomes the escape of itself).
    static func printable(_ text: String, multiline: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !(multiline && $0 == "\n") }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar), !(multiline && scalar == "\n") {
                result.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0, DEL and C1: Unicode's control characters (general category Cc).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
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
        try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K\(line(progress))".utf8))
    }

    /// Removes the bar, leaving the line empty for the next output.
    static func clear() {
        try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K".utf8))
    }
}
