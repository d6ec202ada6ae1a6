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
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return (seconds * 1000).rounded()
    }

    /// `yyyy-MM-dd` (UTC) of a time in milliseconds, with ` HH:mm` when `withTime`.
    static func date(milliseconds: Double, withTime: Bool = false) -> String {
        guard milliseconds.isFinite, abs(milliseconds) < 2.5e14 else { return "n/a" }
        let seconds = Int((milliseconds / 1000).rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = civilFromDays(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        var text =
            "\(year < 0 ? "-" : "")\(String(repeating: "0", count: max(0, 4 - String(abs(year)).count)))\(abs(year))-\(two(month))-\(two(day))"
        if withTime {
            let inDay = seconds - days * 86_400
            text += " \(two(inDay / 3600)):\(two(inDay % 3600 / 60))"
        }
        return text
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day count since 1970-01-01 (inverse of `daysFromCivil`).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
