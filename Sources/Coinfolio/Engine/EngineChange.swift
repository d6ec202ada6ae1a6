/// One change `PortfolioEngine.changes` reports (SPEC §21).
public enum EngineChange: Sendable, Equatable {
    /// A new snapshot is installed: this engine's refresh, price update or load, or a snapshot
    /// another engine or process saved in the same database (then installed here too). The
    /// summary as `refresh()` returns it (`coins`: the coins installed, or priced by a price
    /// update).
    case snapshot(RefreshSummary)
    /// The ledger changed: `portfolio` names the portfolio this engine wrote (nil when its write
    /// touched several: a move, a CSV import, a deleted group), and is nil for a change another
    /// engine or process made to this owner's ledger (the owner's change counter tells that
    /// something changed, not where).
    case ledger(portfolio: String?)
    /// This engine's refresh or price update failed with this error; the snapshot stays (marked
    /// stale unless the error says `no_coins`). A cancelled refresh reports nothing.
    case refreshFailed(CoinfolioError)
}
