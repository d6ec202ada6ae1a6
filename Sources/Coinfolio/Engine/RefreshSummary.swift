import Foundation

/// What `PortfolioEngine.refresh()` and `load(…)` report.
public struct RefreshSummary: Hashable, Sendable {
    /// Coins in the new snapshot.
    public var coins: Int
    /// When the snapshot was taken.
    public var asOf: Date
    /// Always false right after a successful refresh.
    public var isStale: Bool

    /// `{"coins":n,"as_of":"…","stale":false}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("coins"); w.number(coins)
        w.key("as_of"); w.string(isoTimestamp(asOf))
        w.key("stale"); w.bool(isStale)
        w.endObject()
        return w.bytes
    }
}
