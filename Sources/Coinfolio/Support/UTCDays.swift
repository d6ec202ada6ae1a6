/// UTC days in milliseconds: reports count days, and look up prices, on the UTC calendar, never
/// the host's.
enum UTCDays {
    /// Milliseconds in a day.
    static let milliseconds: Int64 = 86_400_000

    /// The day of `time` (ms) as days since 1970-01-01 (before 1970 counts back correctly).
    static func number(of time: Int64) -> Int64 {
        let (quotient, remainder) = time.quotientAndRemainder(dividingBy: milliseconds)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// 00:00:00.000 UTC of the day of `time` (ms).
    static func start(of time: Int64) -> Int64 { number(of: time) * milliseconds }
}
