/// Times of charts: CoinGecko's ISO-8601 strings to milliseconds, and milliseconds to the UTC
/// dates printed under a chart. Pure arithmetic (no formatter, no time zone database), so a
/// thousand coins' `last_updated` cost microseconds.
enum ChartTime {
    /// Milliseconds since 1970 of `2021-11-10T14:24:11.849Z` or `2021-03-13T20:49:26Z` (any
    /// number of fraction digits; `Z` or `+00:00`); nil for anything else.
    static func milliseconds(iso text: String) -> Double? {
        let b = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for byte in b[start..<start + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, (0x30...0x39).contains(b[index]) {
                fraction += Double(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            if index == start { return nil }
        }
        let rest = b[index...]
        guard rest.elementsEqual("Z".utf8) || rest.elementsEqual("+00:00".utf8) else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return (seconds * 1000).rounded()
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
