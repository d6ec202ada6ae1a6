import Foundation

/// What `PortfolioEngine.refresh()` and `load(…)` report.
public struct RefreshSummary: Hashable, Sendable {
    /// Coins in the new snapshot.
    public var coins: Int
    /// The data's own time: the newest `last_updated` among the coins, or `/global`'s
    /// `updated_at` when newer (the fetch time when neither is known).
    public var asOf: Date
    /// When the data was fetched (refresh) or loaded (load).
    public var fetchedAt: Date
    /// Judged from `asOf`: false after a refresh of live data, true at once for a loaded old body.
    public var isStale: Bool
    /// Whether this call sent the requests (SPEC §20): false when a refresh answered with the
    /// snapshot saved in the database — fetched by another engine within `refresh_max_age_s`,
    /// or while this one waited for that engine's refresh — and for a `load`.
    public var fetched: Bool

    /// A summary.
    public init(coins: Int, asOf: Date, fetchedAt: Date, isStale: Bool, fetched: Bool = true) {
        self.coins = coins
        self.asOf = asOf
        self.fetchedAt = fetchedAt
        self.isStale = isStale
        self.fetched = fetched
    }

    /// The keys of the answer besides its `Freshness` members: `coins` before them, `fetched`
    /// after them.
    enum JSONKey: String, WireKeys {
        case coins, fetched
    }

    /// `{"coins":n,"as_of":"…","fetched_at":"…","stale":b,"fetched":b}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.coins); w.number(coins)
        Freshness(asOf: asOf, fetchedAt: fetchedAt, isStale: isStale).write(to: &w)
        w.key(JSONKey.fetched); w.bool(fetched)
        w.endObject()
        return w.bytes
    }
}
