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

    /// The key of the answer before its `Freshness` members.
    enum JSONKey: String, WireKeys {
        case coins
    }

    /// `{"coins":n,"as_of":"…","fetched_at":"…","stale":b}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.coins); w.number(coins)
        Freshness(asOf: asOf, fetchedAt: fetchedAt, isStale: isStale).write(to: &w)
        w.endObject()
        return w.bytes
    }
}
