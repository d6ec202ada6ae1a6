/// Times of charts: CoinGecko's ISO-8601 strings to milliseconds, and milliseconds to the UTC
/// dates printed under a chart. Pure arithmetic (no formatter, no time zone database, never the
/// host's zone), so a thousand coins' `last_updated` cost microseconds.
enum ChartTime {
    /// The latest time (either side of 1970, in milliseconds) that prints as a date; beyond it
    /// dates print "n/a" (about year 9900).
    static let printableRange = 2.5e14

    /// English month abbreviations (the formatting locale is pinned to en_US).
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Milliseconds since 1970 of a CoinGecko time (`2021-11-10T14:24:11.849Z`,
    /// `2021-03-13T20:49:26Z`, any offset; `ISOTime` reads it); nil for anything else.
    static func milliseconds(iso text: String) -> Double? {
        ISOTime.seconds(text).map(milliseconds(seconds:))
    }

    /// Seconds since 1970 (as `ISOTime` reads them) to whole milliseconds.
    static func milliseconds(seconds: Double) -> Double { (seconds * 1000).rounded() }

    /// The UTC calendar fields of a time in milliseconds (nil outside `printableRange`).
    static func fields(milliseconds: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int)? {
        guard milliseconds.isFinite, abs(milliseconds) < printableRange else { return nil }
        let seconds = Int((milliseconds / 1000).rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = CivilDate.date(days: days)
        let inDay = seconds - days * 86_400
        return (year, month, day, inDay / 3600, inDay % 3600 / 60)
    }

    /// `yyyy-MM-dd` (UTC) of a time in milliseconds, with ` HH:mm` when `withTime`.
    static func date(milliseconds: Double, withTime: Bool = false) -> String {
        guard let time = fields(milliseconds: milliseconds) else { return "n/a" }
        var text = "\(time.year < 0 ? "-" : "")\(String(repeating: "0", count: max(0, 4 - String(abs(time.year)).count)))\(abs(time.year))"
        text += "-\(two(time.month))-\(two(time.day))"
        if withTime { text += " \(two(time.hour)):\(two(time.minute))" }
        return text
    }

    /// `HH:mm` (UTC): "09:00".
    static func clock(milliseconds: Double) -> String {
        guard let time = fields(milliseconds: milliseconds) else { return "n/a" }
        return "\(two(time.hour)):\(two(time.minute))"
    }

    /// `MMM d` (UTC): "Dec 13".
    static func monthDay(milliseconds: Double) -> String {
        guard let time = fields(milliseconds: milliseconds) else { return "n/a" }
        return "\(monthNames[time.month - 1]) \(time.day)"
    }

    /// `MMM` (UTC), or the year for January: "Feb", "2025".
    static func month(milliseconds: Double) -> String {
        guard let time = fields(milliseconds: milliseconds) else { return "n/a" }
        return time.month == 1 ? String(time.year) : monthNames[time.month - 1]
    }

    /// The year (UTC): "2025".
    static func year(milliseconds: Double) -> String {
        guard let time = fields(milliseconds: milliseconds) else { return "n/a" }
        return String(time.year)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
}
