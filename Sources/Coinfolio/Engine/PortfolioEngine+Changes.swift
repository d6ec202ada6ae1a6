import Foundation

/// The engine's changes as a stream (SPEC §21).
extension PortfolioEngine {
    /// The engine's changes, as they happen: `.snapshot` when a refresh, price update or load of
    /// this engine installs a snapshot, or when another engine or process saved one in the same
    /// database (installed here too); `.ledger(portfolio:)` when this engine writes the ledger
    /// (holdings, transactions, trades, moves, portfolios, imports), or another engine or process
    /// writes this owner's ledger (`portfolio` nil); `.refreshFailed` when this engine's refresh
    /// or price update fails.
    ///
    /// Each access is a new stream of its own; it ends when the consumer's task is cancelled or
    /// the stream is dropped. Changes made elsewhere are found by a watcher thread of the engine's
    /// own (never a cooperative thread) while at least one stream is consumed: one indexed read
    /// of the database's change versions (SPEC §20's version check, `ChangeVersions`) every half second, so they arrive within a
    /// second, without the host querying; the first read, made as the first stream starts (never
    /// on the caller's thread), is what later changes are counted from. Its own changes arrive at once. Up to 256 changes wait
    /// for a slow consumer; older ones are then dropped. A private `:memory:` database has no
    /// other writer: only this engine's changes arrive.
    ///
    ///     for await change in engine.changes {
    ///         if case .ledger = change { await home.update() }
    ///     }
    public var changes: AsyncStream<EngineChange> {
        changeFeed.stream { [weak self] in
            guard let self else { return false }
            self.followChanges()
            return true
        }
    }

    /// The watcher's look at the database: the version check of SPEC §20
    /// (`followSharedChanges`, forced: one indexed read of the market-data version and the
    /// owner's ledger counter), which installs a snapshot another engine saved; reports that
    /// snapshot and a ledger change made elsewhere. Skipped while this engine refreshes (its
    /// refresh reports what it installs) and on a private `:memory:` database (no other writer);
    /// a database that does not answer is asked again next time.
    func followChanges() {
        let held = currentStamp()
        guard let versions = followSharedChanges(force: true) else { return }
        changeFeed.ledgerCounterRead(versions.ledger)
        guard let current = currentSnapshot(), let stamp = current.saved, stamp != held else { return }
        changeFeed.publish(
            .snapshot(
                RefreshSummary(
                    coins: current.coins.count, asOf: current.asOf, fetchedAt: current.fetchedAt,
                    isStale: current.isStale(now: Date(), staleAfter: configuration.staleAfter), fetched: false)))
    }

    /// Reports this engine's write of the ledger of `portfolio` (nil: several).
    func ledgerChanged(_ portfolio: String?) {
        changeFeed.ownLedgerWrite(portfolio: portfolio, counter: store.ledgerCounterOfLastWrite)
    }

    /// Runs a refresh or price update, reporting what it installed or why it failed (a
    /// cancelled one reports nothing).
    /// - Parameter pricesOnly: a price update, which reports a snapshot only when it priced a coin.
    func reportingRefresh(pricesOnly: Bool = false, _ body: () throws -> RefreshSummary) throws -> RefreshSummary {
        do {
            let summary = try body()
            if !pricesOnly || summary.coins > 0 { changeFeed.publish(.snapshot(summary)) }
            return summary
        } catch let error as CoinfolioError {
            changeFeed.publish(.refreshFailed(error))
            throw error
        }
    }
}
