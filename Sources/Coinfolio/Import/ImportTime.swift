/// The time forms exchanges write (SPEC §18: times are UTC unless the header says otherwise),
/// each accepted only where a format writes it. Never the host's time zone.
enum ImportTime {
    /// A form of time cell.
    enum Form: Sendable {
        /// `2024-01-05 10:00:00`, `2024-01-05T10:00:00Z`, `2024-01-05 10:00:00.1234`,
        /// `2024-01-05 10:00:00 UTC`, `2024-01-05 10:00 UTC`, with an offset `+02:00`; RFC 3339
        /// with a space allowed, ` UTC` meaning Z (Coinbase, Binance, Kraken, Koinly).
        case iso
        /// `05.01.2024 10:00:00` (day.month.year, seconds optional; CoinTracking).
        case dayMonthYear
    }

    /// Milliseconds since the epoch (UTC) of `text` in `form`; a time without a zone is in the
    /// header's offset (`offset`, local − UTC, milliseconds), else UTC. Nil when it is not a
    /// time of that form.
    static func parse(_ text: String, _ form: Form, offset: Int64 = 0) -> Int64? {
        switch form {
        case .iso:
            if let time = plainTime(text) { return time - offset }
            if let time = plainTime(text, suffix: " UTC") { return time }
            let utf8 = text.utf8
            // " UTC" at the end means Z (Coinbase v4, Koinly).
            if utf8.count > 4, utf8.reversed().starts(with: " UTC".utf8.reversed()) {
                return LedgerTimestamp.parse(String(decoding: utf8.dropLast(4), as: UTF8.self))
            }
            guard let time = LedgerTimestamp.parse(text) else { return nil }
            return hasZone(utf8) ? time : time - offset
        case .dayMonthYear:
            // dd.mm.yyyy[ HH:MM[:SS]] → yyyy-mm-dd[ HH:MM[:SS]]
            let bytes = Array(text.utf8)
            guard bytes.count >= 10, bytes[2] == UInt8(ascii: "."), bytes[5] == UInt8(ascii: "."),
                bytes[..<10].enumerated().allSatisfy({ $0.offset == 2 || $0.offset == 5 || (0x30...0x39).contains($0.element) })
            else { return nil }
            let date =
                "\(String(decoding: bytes[6..<10], as: UTF8.self))-\(String(decoding: bytes[3..<5], as: UTF8.self))-\(String(decoding: bytes[0..<2], as: UTF8.self))"
            let rest = String(decoding: bytes[10...], as: UTF8.self)
            guard rest.isEmpty || rest.hasPrefix(" "), let time = LedgerTimestamp.parse(date + rest), !hasZone(rest.utf8) else {
                return nil
            }
            return time - offset
        }
    }

    /// `parse(_:.iso:offset:)`'s first two readings over a cell's bytes: `2024-01-05 10:00:00`
    /// in the header's offset, or with ` UTC`; nil for any other text, which `parse` reads.
    static func plainISO(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int64) -> Int64? {
        if let time = plainTime(bytes) { return time - offset }
        return plainTime(bytes, suffix: " UTC")
    }

    /// `2024-01-05 10:00:00` followed by `suffix`, the shape nearly every exchange writes, read
    /// in place (no copy; a time a row): nil for any other text, which the full rule reads.
    private static func plainTime(_ text: String, suffix: StaticString = "") -> Int64? {
        var text = text
        return text.withUTF8 { plainTime($0, suffix: suffix) }
    }

    /// `plainTime` over bytes: the separators and the fourteen digits read straight from the
    /// buffer (one length check, no slices or optionals a field: ~100 instructions a time, where
    /// the sliced `elementsEqual` and six optional fields took ~600).
    private static func plainTime(_ b: UnsafeBufferPointer<UInt8>, suffix: StaticString = "") -> Int64? {
        let suffixCount = suffix.utf8CodeUnitCount
        guard b.count == 19 + suffixCount, let p = b.baseAddress else { return nil }
        let s = suffix.utf8Start
        for index in 0..<suffixCount where p[19 + index] != s[index] { return nil }
        guard p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: " "), p[13] == UInt8(ascii: ":"),
            p[16] == UInt8(ascii: ":")
        else { return nil }
        // Each digit's value (a byte below '0' wraps to a large value): any above 9 is no digit.
        @inline(__always) func digit(_ index: Int) -> Int { Int(p[index] &- 0x30) }
        let d0 = digit(0), d1 = digit(1), d2 = digit(2), d3 = digit(3), d5 = digit(5), d6 = digit(6)
        let d8 = digit(8), d9 = digit(9), d11 = digit(11), d12 = digit(12), d14 = digit(14), d15 = digit(15)
        let d17 = digit(17), d18 = digit(18)
        guard d0 <= 9, d1 <= 9, d2 <= 9, d3 <= 9, d5 <= 9, d6 <= 9, d8 <= 9, d9 <= 9, d11 <= 9, d12 <= 9, d14 <= 9, d15 <= 9,
            d17 <= 9, d18 <= 9
        else { return nil }
        let year = d0 * 1000 + d1 * 100 + d2 * 10 + d3
        let month = d5 * 10 + d6
        let day = d8 * 10 + d9
        let hour = d11 * 10 + d12
        let minute = d14 * 10 + d15
        let second = d17 * 10 + d18
        guard year >= 1, (1...12).contains(month), day >= 1, day <= LedgerTimestamp.daysIn(month: month, year: year), hour <= 23,
            minute <= 59, second <= 59
        else { return nil }
        return (Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
    }

    /// Whether an RFC 3339 text ends with a zone (`Z`, `+02:00`, `-05:00`) after its time.
    private static func hasZone(_ utf8: String.UTF8View) -> Bool {
        guard let last = utf8.last else { return false }
        if last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") { return true }
        // "+hh:mm" after the time's digits (a date's own '-' is at index 4 and 7).
        guard utf8.count >= 16 else { return false }
        let sign = utf8[utf8.index(utf8.endIndex, offsetBy: -6)]
        return (sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"))
            && utf8[utf8.index(utf8.endIndex, offsetBy: -3)] == UInt8(ascii: ":")
    }
}
