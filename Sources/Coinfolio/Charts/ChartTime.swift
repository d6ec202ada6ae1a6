/// Times of charts: CoinGecko's ISO-8601 strings to milliseconds, and milliseconds to the UTC
/// dates printed under a chart. Pure arithmetic (no formatter, no time zone database), so a
/// thousand coins' `last_updated` cost microseconds.
enum ChartTime {
    /// Milliseconds since 1970 of a CoinGecko time (`2021-11-10T14:24:11.849Z`,
    /// `2021-03-13T20:49:26Z`, any offset; `ISOTime` reads it); nil for anything else.
    static func milliseconds(iso text: String) -> Double? {
        ISOTime.seconds(text).map { ($0 * 1000).rounded() }
    }

    /// `yyyy-MM-dd` (UTC) of a time in milliseconds, with ` HH:mm` when `withTime`.
    static func date(milliseconds: Double, withTime: Bool = false) -> String {
        guard milliseconds.isFinite, abs(milliseconds) < 2.5e14 else { return "n/a" }
        let seconds = Int((milliseconds / 1000).rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = CivilDate.date(days: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        var text =
            "\(year < 0 ? "-" : "")\(String(repeating: "0", count: max(0, 4 - String(abs(year)).count)))\(abs(year))-\(two(month))-\(two(day))"
        if withTime {
            let inDay = seconds - days * 86_400
            text += " \(two(inDay / 3600)):\(two(inDay % 3600 / 60))"
        }
        return text
    }
}
