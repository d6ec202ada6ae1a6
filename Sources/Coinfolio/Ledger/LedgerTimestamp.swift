import Foundation

/// Transaction times: RFC 3339 text in, milliseconds since 1970-01-01T00:00:00Z (UTC) kept.
///
/// Accepted (SPEC §12 "timestamps"): `2024-03-01T12:30:00Z`, with an offset
/// (`2024-03-01T14:30:00+02:00` is 12:30 UTC), with fractional seconds (kept to the millisecond,
/// further digits dropped), without a zone (read as UTC), and a date alone (`2024-03-01` is
/// 00:00:00Z). `t` or a space may stand for `T`, `z` for `Z`. Never the host's time zone.
/// Years 0001…9999.
///
/// A leap second (`23:59:60Z`, RFC 3339 §5.7), which Unix time and so these milliseconds cannot
/// hold, reads as the last millisecond of its minute, `23:59:59.999Z` of that day: after every
/// other instant of the minute and before midnight, so the ledger's order holds; the fraction of
/// the leap second is dropped. Leap seconds are inserted at the end of a UTC day: `:60` is read
/// where the time is 23:59 in UTC once the offset is applied (`15:59:60-08:00` too), and refused
/// anywhere else.
public enum LedgerTimestamp {
    /// Milliseconds since the Unix epoch (UTC) for RFC 3339 text; nil when it is not one.
    public static func parse(_ text: String) -> Int64? {
        // Read from the text's contiguous UTF-8 (no copy of it into an array: a ledger write reads one).
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// `parse(_:)` of UTF-8 bytes.
    static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                value = value * 10 + Int(b[k] - 0x30)
            }
            i += count
            return value
        }
        func expect(_ char: UInt8) -> Bool {
            guard i < b.count, b[i] == char else { return false }
            i += 1
            return true
        }
        guard let year = number(4), year >= 1, expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var hour = 0, minute = 0, second = 0, millis = 0, offsetMinutes = 0
        if i < b.count {
            guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else { return nil }
            i += 1
            guard let h = number(2), expect(UInt8(ascii: ":")), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(UInt8(ascii: ":")) {
                guard let s = number(2) else { return nil }
                second = s
                if expect(UInt8(ascii: ".")) {
                    var digits = 0
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                        if digits < 3 { millis = millis * 10 + Int(b[i] - 0x30) }
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    if digits < 3 { for _ in digits..<3 { millis *= 10 } }
                }
            }
            guard hour <= 23, minute <= 59, second <= 60 else { return nil }
            if i < b.count {
                if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
                    i += 1
                } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                    let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                    i += 1
                    guard let oh = number(2), expect(UInt8(ascii: ":")), let om = number(2), oh <= 23, om <= 59 else { return nil }
                    offsetMinutes = sign * (oh * 60 + om)
                } else {
                    return nil
                }
            }
        }
        guard i == b.count else { return nil }
        if second == 60 {
            // A leap second: only in the last minute of a UTC day; read as its last millisecond.
            guard ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440 == 23 * 60 + 59 else { return nil }
            second = 59
            millis = 999
        }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millis)
    }

    /// `2024-03-01T12:30:00Z`, or `2024-03-01T12:30:00.250Z` when there are milliseconds.
    public static func format(_ milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format(milliseconds)` appended to `bytes` (no String made: reports write thousands).
    static func append(_ milliseconds: Int64, to bytes: inout [UInt8]) {
        let (days, rest) = split(milliseconds)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
            let count = writeDate(days, into: text)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
        appendTime(rest, to: &bytes)
    }

    /// The dates written lately and their text: a report's times mostly fall on a few thousand
    /// days (`realized` writes two per row, its acquisitions from any day of the ledger), so the
    /// calendar is worked out once per day held, not per time. A table of `slots` days by day
    /// number (a day pushes out the one that shares its slot), each day's ten bytes
    /// `YYYY-MM-DD` as two words; a date of another length (a year past 9999 or before 0) is
    /// written without it.
    struct DateCache {
        private static let slots = 2048
        /// Four words a slot (one cache line holds it whole): the day it holds (`Int.min` as
        /// bits: none), its text's bytes 0–7, bytes 8–9, and one unused.
        private var table = [UInt64](repeating: 0, count: 4 * slots)

        init() {
            for slot in 0..<Self.slots { table[4 * slot] = UInt64(bitPattern: Int64.min) }
        }

        /// Writes the date of `day` at `bytes`.
        mutating func write(_ day: Int, to bytes: inout ByteCursor) {
            let slot = 4 * (day & (Self.slots - 1))
            let tag = UInt64(bitPattern: Int64(day))
            if table[slot] != tag {
                let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { date -> Bool in
                    let count = writeDate(day, into: date)
                    guard count == 10, let base = date.baseAddress else {
                        bytes.put(UnsafeBufferPointer(rebasing: date[..<count]))
                        return true
                    }
                    let raw = UnsafeRawPointer(base)
                    table[slot + 1] = raw.loadUnaligned(as: UInt64.self)
                    table[slot + 2] = UInt64(raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
                    return false
                }
                if written { return }
                table[slot] = tag
            }
            bytes.putTen(table[slot + 1], UInt16(truncatingIfNeeded: table[slot + 2]))
        }
    }

    /// `append(milliseconds, to:)` written at a cursor (at most 46 bytes), the date's text taken
    /// from `dates` when it holds that day.
    static func write(_ milliseconds: Int64, to bytes: inout ByteCursor, dates: inout DateCache) {
        let (days, rest) = split(milliseconds)
        dates.write(days, to: &bytes)
        if rest % 1000 == 0, rest >= 0, rest < UTCDay.milliseconds {
            // `THH:MM:SSZ` (whole seconds, most times) as one word and two bytes at the cursor, not
            // written on the stack and copied: a report writes two times a row.
            let time = Int(rest / 1000)
            @inline(__always) func pair(_ value: Int) -> UInt64 {
                let tens = value / 10
                return UInt64(truncatingIfNeeded: 0x30 + tens) | UInt64(truncatingIfNeeded: 0x30 + value - tens * 10) << 8
            }
            let (hours, minutes, seconds) = (time / 3600, time % 3600 / 60, time % 60)
            let tens = seconds / 10
            // Bytes in memory order: T, H, H, :, M, M, :, S, then S, Z.
            let low: UInt64 =
                0x54 | pair(hours) << 8 | 0x3A << 24 | pair(minutes) << 32 | 0x3A << 48 | UInt64(truncatingIfNeeded: 0x30 + tens) << 56
            let high = UInt16(truncatingIfNeeded: 0x30 + seconds - tens * 10) | 0x5A << 8
            bytes.putTen(UInt64(littleEndian: low), UInt16(littleEndian: high))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
            bytes.put(UnsafeBufferPointer(rebasing: text[..<writeTime(rest, into: text)]))
        }
    }

    /// `THH:MM:SSZ` or `THH:MM:SS.mmmZ` of the milliseconds into a day, appended to `bytes`.
    private static func appendTime(_ rest: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<writeTime(rest, into: text)]))
        }
    }

    /// Writes `appendTime`'s text at the start of `text` (32 bytes); returns its length.
    private static func writeTime(_ rest: Int64, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let seconds = Int(rest / 1000)
        let millis = Int(rest % 1000)
        do {
            var count = 0
            func two(_ value: Int) {
                text[count] = UInt8(ascii: "0") + UInt8(value / 10)
                text[count + 1] = UInt8(ascii: "0") + UInt8(value % 10)
                count += 2
            }
            func put(_ byte: UInt8) {
                text[count] = byte
                count += 1
            }
            put(UInt8(ascii: "T"))
            two(seconds / 3600)
            put(UInt8(ascii: ":"))
            two(seconds % 3600 / 60)
            put(UInt8(ascii: ":"))
            two(seconds % 60)
            if millis != 0 {
                put(UInt8(ascii: "."))
                put(UInt8(ascii: "0") + UInt8(millis / 100))
                two(millis % 100)
            }
            put(UInt8(ascii: "Z"))
            return count
        }
    }

    /// The UTC date `2024-03-01` of a day count since 1970-01-01, appended to `bytes`.
    static func appendDate(_ days: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<writeDate(days, into: text)]))
        }
    }

    /// Writes the date of `days` at the start of `text` (32 bytes); returns its length.
    fileprivate static func writeDate(_ days: Int, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let (year, month, day) = CivilDate.date(days: days)
        var count = 0
        func two(_ value: Int) {
            text[count] = UInt8(ascii: "0") + UInt8(value / 10)
            text[count + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            count += 2
        }
        if year >= 0, year <= 9999 {
            two(year / 100)
            two(year % 100)
        } else {
            for byte in String(year).utf8 {
                text[count] = byte
                count += 1
            }
        }
        text[count] = UInt8(ascii: "-")
        count += 1
        two(month)
        text[count] = UInt8(ascii: "-")
        count += 1
        two(day)
        return count
    }

    /// Days since 1970-01-01 and milliseconds into that UTC day.
    static func split(_ milliseconds: Int64) -> (days: Int, rest: Int64) {
        let days = UTCDay.number(of: milliseconds)
        return (Int(days), milliseconds - days * UTCDay.milliseconds)
    }

    /// Now, in milliseconds since the epoch.
    public static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension JSONWriter {
    /// A time (ms, UTC) as RFC 3339 text, `"2024-03-01T12:30:00Z"`.
    mutating func timestamp(_ milliseconds: Int64) {
        rawBytes { bytes in
            bytes.append(UInt8(ascii: "\""))
            LedgerTimestamp.append(milliseconds, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
