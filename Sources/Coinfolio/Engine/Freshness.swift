import Foundation

/// How fresh an answer's data is: the `as_of`, `fetched_at` and `stale` members that end every
/// answer read from a market snapshot (`coins`, `portfolio`, `refresh`, `load`, `refresh_prices`)
/// and, without `fetched_at`, the coin detail screen's. The one writer of those members.
struct Freshness {
    /// The data's own time (ISO-8601 UTC when written); nil without data (JSON null).
    var asOf: Date?
    /// When the data was downloaded or loaded; nil when unknown (JSON null).
    var fetchedAt: Date?
    /// The data is older than `stale_after_s` (or `detail_ttl_s`), or its last refresh failed.
    var isStale: Bool

    /// The keys, in the order they end an answer.
    enum JSONKey: String, WireKeys {
        case asOf = "as_of"
        case fetchedAt = "fetched_at"
        case stale
    }

    /// Writes `"as_of":…,"fetched_at":…,"stale":b` into the open object; without `fetched_at`
    /// when `withFetchedAt` is false (the detail screen, whose `as_of` is its fetch time).
    func write(to w: inout JSONWriter, withFetchedAt: Bool = true) {
        w.key(JSONKey.asOf); w.string(asOf.map(isoTimestamp))
        if withFetchedAt { w.key(JSONKey.fetchedAt); w.string(fetchedAt.map(isoTimestamp)) }
        w.key(JSONKey.stale); w.bool(isStale)
    }
}
