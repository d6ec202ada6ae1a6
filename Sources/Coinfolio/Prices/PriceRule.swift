/// The `price_at` rule of SPEC §17, without the store and the network: which of the candidates
/// a time has decides its price.
///
/// For a coin, a vs_currency and a time t, in this order:
/// 1. a manual point of t's UTC day (the owner's): the latest at or before t, else the earliest after;
/// 2. the latest stored CoinGecko point in [t's day 00:00, t];
/// 3. the earliest stored point in (t, the next 00:00);
/// 4. the snapshot's `current_price` when its `last_updated` is within an hour of t (either side),
///    `at` being `last_updated`;
/// 5. otherwise the engine fetches the range covering t's day (`FillPlanner`) and tries 2–3 again,
///    and without a point says why (`PriceGap`).
enum PriceRule {
    /// How far the snapshot's `last_updated` may be from the time asked (either side): one hour.
    static let snapshotWindow: Int64 = 3_600_000

    /// The stored points the rule looks at for `time`: the latest in [day start, time] and the
    /// earliest in (time, next 00:00) — the bounds a store queries.
    static func window(for time: Int64) -> (dayStart: Int64, time: Int64, dayEnd: Int64) {
        (UTCDay.start(of: time), time, UTCDay.end(of: time))
    }

    /// Steps 2–3 (or step 1 among manual points): the candidate at or before `time` within its
    /// day wins, else the one after it within the day; nil when neither lies in the window.
    static func pick<Point>(atOrBefore: Point?, after: Point?, time: Int64, timeOf: (Point) -> Int64) -> Point? {
        let (dayStart, _, dayEnd) = window(for: time)
        if let before = atOrBefore, (dayStart...time).contains(timeOf(before)) { return before }
        if let later = after, timeOf(later) > time, timeOf(later) < dayEnd { return later }
        return nil
    }

    /// Steps 2–3 over the points of one day (any order, times in it): the latest at or before
    /// `time`, else the earliest after it.
    static func pick<Point>(among points: [Point], time: Int64, timeOf: (Point) -> Int64) -> Point? {
        var atOrBefore: Point?
        var after: Point?
        for point in points {
            let at = timeOf(point)
            if at <= time {
                if atOrBefore.map({ timeOf($0) < at }) ?? true { atOrBefore = point }
            } else if after.map({ timeOf($0) > at }) ?? true {
                after = point
            }
        }
        return pick(atOrBefore: atOrBefore, after: after, time: time, timeOf: timeOf)
    }

    /// Step 4: whether a snapshot updated at `lastUpdated` (ms) prices `time`.
    static func snapshotPrices(lastUpdated: Int64, time: Int64) -> Bool {
        let distance = lastUpdated >= time ? lastUpdated - time : time - lastUpdated
        return distance <= snapshotWindow
    }
}

/// A `PriceGap` as an error value (a range request CoinGecko refused), for `Result`.
struct PriceGapError: Error, Hashable {
    var gap: PriceGap
}

/// Why a time has no price (`details.reason` of `CF_NO_DATA` from `price_at`, and the `reason` of
/// each row `fill_prices` leaves pending).
public enum PriceGap: String, Sendable, CaseIterable {
    /// CoinGecko has no point in the time's UTC day (a coin not yet trading, a day it sent
    /// nothing for, a time in the future).
    case noPoint = "no_point"
    /// CoinGecko does not know the coin (404).
    case unknownCoin = "unknown_coin"
    /// The public and demo plans reach back 365 days only (CoinGecko error 10012).
    case historyLimit = "history_limit"
    /// `fill_prices` stopped at its `max_requests` before asking for this row's range.
    case maxRequests = "max_requests"
    /// A 429 stopped `fill_prices` (or a remembered Retry-After was still running).
    case rateLimited = "rate_limited"
}
