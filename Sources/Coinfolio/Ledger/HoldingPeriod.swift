/// How long a lot was held, on the UTC calendar (SPEC §19): the days between the acquisition's
/// and the disposal's UTC dates, and the anniversary rule that decides `term` and `tax_free`.
///
/// N years after an acquisition date is the same calendar date N years later, or the last day of
/// that month when the date does not exist there (a lot bought 2020-02-29 reaches one year on
/// 2021-02-28): IRS Publication 544 and Form 8949's instructions count a holding period from the
/// day after the acquisition through the day of the disposal, so "more than one year" starts the
/// day after the anniversary (bought 2023-03-10: 2024-03-10 short, 2024-03-11 long); German law
/// (§23 EStG with §188 BGB) ends a year on the anniversary, or on the month's last day when the
/// date is missing, and a sale after it is tax-free.
enum HoldingPeriod {
    /// The UTC date of a time, as days since 1970-01-01.
    static func day(_ timestamp: Int64) -> Int { Int(UTCDay.number(of: timestamp)) }

    /// The anniversary `years` years after the date `day` (days since 1970-01-01): the same month
    /// and day, or the last day of the month when that day does not exist in it.
    static func anniversary(of day: Int, years: Int) -> Int {
        let (year, month, date) = CivilDate.date(days: day)
        let later = year + years
        return CivilDate.days(year: later, month: month, day: min(date, LedgerTimestamp.daysIn(month: month, year: later)))
    }

    /// Whether a lot acquired at `acquired` and disposed of at `disposed` (ms, UTC) was held past
    /// `years` years: the disposal's UTC date is after the anniversary.
    static func isPast(years: Int, acquired: Int64, disposed: Int64) -> Bool {
        isPast(years: years, acquiredDay: day(acquired), disposedDay: day(disposed))
    }

    /// `isPast` over UTC dates already counted (days since 1970-01-01).
    static func isPast(years: Int, acquiredDay: Int, disposedDay: Int) -> Bool {
        // The anniversary lies 365·years − 1 to 366·years days after the date (a Feb 29 a year
        // at most, a 29 February's anniversary on the 28th): outside that span no calendar is
        // worked out (`realized` asks twice per row).
        if years >= 0, years <= 10_000 {
            let held = disposedDay - acquiredDay
            if held <= 365 * years - 1 { return false }
            if held > 366 * years { return true }
        }
        return disposedDay > anniversary(of: acquiredDay, years: years)
    }

    /// UTC calendar days from the acquisition's date to the disposal's (0 on the same day, and for
    /// units matched with an acquisition after the disposal, as UK share pooling's thirty-day
    /// rule does).
    static func days(acquired: Int64, disposed: Int64) -> Int {
        max(0, day(disposed) - day(acquired))
    }
}
