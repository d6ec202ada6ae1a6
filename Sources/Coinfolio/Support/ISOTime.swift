import Foundation

/// ISO-8601 timestamps as CoinGecko writes them, read fast: computing a snapshot's `as_of` reads
/// every coin's `last_updated`, and Foundation's parser costs microseconds a call.
enum ISOTime {
    /// Unix seconds of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; other spellings go through
    /// Foundation (`Coin.date`). nil when the text is no date.
    static func seconds(_ text: String) -> Double? {
        if let fast = fastSeconds(text) { return fast }
        return Coin.date(text)?.timeIntervalSince1970
    }

    /// `seconds(_:)` of the UTF-8 bytes of a text (a decoded coin's held date, read without a `String`).
    static func seconds(utf8 b: UnsafeBufferPointer<UInt8>) -> Double? {
        if let fast = fastSeconds(b) { return fast }
        return Coin.date(String(decoding: b, as: UTF8.self))?.timeIntervalSince1970
    }

    private static func fastSeconds(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { fastSeconds($0) }
    }

    private static func fastSeconds(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":")
        else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let digit = Int(b[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
            let minute = digits(14, 2), let second = digits(17, 2), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, (48...57).contains(b[index]) {
                fraction += Double(b[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        if b[index] == UInt8(ascii: "Z") {
            index += 1
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            guard b.count - index == 6, b[index + 3] == UInt8(ascii: ":"), let h = digits(index + 1, 2),
                let m = digits(index + 4, 2)
            else { return nil }
            offset = (h * 3600 + m * 60) * (b[index] == UInt8(ascii: "+") ? 1 : -1)
            index += 6
        } else {
            return nil
        }
        guard index == b.count else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}
