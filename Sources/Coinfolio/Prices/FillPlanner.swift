/// The requests that price a set of times (SPEC §17 `fill_prices`, and `price_at`'s fetch): at
/// most one `/coins/{id}/market_chart/range` request per coin and vs_currency per 365 days of its
/// times, never one per transaction.
///
/// For each coin and currency the times are sorted and cut into runs whose UTC days span at most
/// 365 days; each run is one request from its first day's 00:00 to the end of its last day (or
/// now, when that is earlier). CoinGecko gives such a range daily points at 00:00 UTC when it is
/// longer than 90 days, hourly ones up to 90 days, 5-minute ones within a day of now, so every
/// day of the run gets a point at or after its 00:00 when CoinGecko has one.
///
/// Times no request can price are answered at once: a time after now has no point yet
/// (`noPoint`), and on the public and demo plans a time more than 365 days ago is beyond the plan
/// (`historyLimit`, CoinGecko's error 10012); a run's first day that starts before that limit is
/// asked from the limit on.
enum FillPlanner {
    /// One price a row waits for: a coin in a quote currency at a time (ms since 1970, UTC).
    struct Need: Hashable, Sendable {
        var coinID: String
        var vsCurrency: String
        var time: Int64
    }

    /// One range request and the needs (indexes into the planned array) it serves.
    struct Request: Hashable, Sendable {
        var coinID: String
        var vsCurrency: String
        /// UNIX seconds, as sent.
        var from: Int64
        /// UNIX seconds, as sent.
        var to: Int64
        /// Indexes of the needs this request prices.
        var needs: [Int]
    }

    /// The longest span of days one request covers.
    static let daysPerRequest: Int64 = 365

    /// Seconds of slack on the plan's 365 days, so that a request's `from` stays inside the limit
    /// while it travels and CoinGecko's clock differs from ours by a little.
    static let planLimitSlack: Int64 = 300

    /// The requests that price `needs`, in coin, currency and time order, and the needs no
    /// request can price with why.
    /// - Parameters:
    ///   - plan: the client's plan (public and demo reach back 365 days).
    ///   - now: the current time, ms since 1970.
    static func plan(_ needs: [Need], plan: ClientConfiguration.Plan, now: Int64) -> (
        requests: [Request], unpriceable: [(need: Int, gap: PriceGap)]
    ) {
        let limitedFrom: Int64? = plan == .pro ? nil : now / 1000 - daysPerRequest * 86_400 + planLimitSlack
        var unpriceable: [(Int, PriceGap)] = []
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (index, need) in needs.enumerated() {
            if need.time > now {
                unpriceable.append((index, .noPoint))
                continue
            }
            if let limitedFrom, need.time < limitedFrom * 1000 {
                unpriceable.append((index, .historyLimit))
                continue
            }
            let key = need.coinID + "\u{0}" + need.vsCurrency
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        var requests: [Request] = []
        for key in order.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let members = groups[key]?.sorted(by: { (needs[$0].time, $0) < (needs[$1].time, $1) }), let first = members.first else {
                continue
            }
            var run: [Int] = []
            var runStart = UTCDay.start(of: needs[first].time)
            func close() {
                guard let last = run.last else { return }
                var from = runStart / 1000
                if let limitedFrom { from = max(from, limitedFrom) }
                let to = min(UTCDay.end(of: needs[last].time), now) / 1000
                requests.append(
                    Request(coinID: needs[last].coinID, vsCurrency: needs[last].vsCurrency, from: from, to: max(to, from), needs: run))
            }
            for index in members {
                if UTCDay.end(of: needs[index].time) - runStart > daysPerRequest * UTCDay.milliseconds {
                    close()
                    run = []
                    runStart = UTCDay.start(of: needs[index].time)
                }
                run.append(index)
            }
            close()
        }
        return (requests, unpriceable)
    }
}
