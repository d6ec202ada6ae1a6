import Foundation

/// Market charts on demand: `GET /coins/{id}/market_chart` cached per (id, days, interval) for
/// `ttl` seconds; callers asking for the same chart at once share one request, like details.
final class ChartLoader: Sendable {
    struct Key: Hashable, Sendable {
        var id: String
        var days: ChartDays
        var interval: ChartInterval?
    }

    private let fetches: SharedFetches<Key, MarketChart>

    init(ttl: Double) { fetches = SharedFetches(ttl: ttl) }

    /// Answers served from the cache or from another caller's request.
    var cacheHits: Int { fetches.hits }

    /// The cached chart for `key`, or the result of one fetch shared with concurrent callers.
    /// - Throws: what `fetch` threw; `.invalidArgument` (reason "reentrant") when a progress
    ///   handler of this very download asks for the same chart.
    func chart(_ key: Key, fetch: (Key) throws -> MarketChart) throws -> MarketChart {
        try fetches.value(for: key, what: "chart of \"\(key.id)\"") { .init(value: try fetch($0)) }
    }
}
