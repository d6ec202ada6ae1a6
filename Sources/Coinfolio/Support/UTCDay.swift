/// UTC days in milliseconds since 1970: `price_at`, `price_currency` conversion, performance's
/// daily values and holding periods look at the UTC day of a time, never the host's.
enum UTCDay {
    /// Milliseconds in a day.
    static let milliseconds: Int64 = 86_400_000
    /// 9999-12-31T23:59:59.999Z, the latest time a price may have.
    static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// The day of `time` (ms) as days since 1970-01-01 (before 1970 counts back correctly).
    static func number(of time: Int64) -> Int64 {
        let (quotient, remainder) = time.quotientAndRemainder(dividingBy: milliseconds)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// 00:00:00.000 UTC of the day of `time` (ms).
    static func start(of time: Int64) -> Int64 { number(of: time) * milliseconds }

    /// 00:00:00.000 UTC of the next day.
    static func end(of time: Int64) -> Int64 { start(of: time) + milliseconds }
}
