import Synchronization

/// What the engine derives from the owner's ledger, kept while that ledger does not change (the
/// owner's change counter, `OwnerView.ledgerCounter`, which every committed write counts in)
/// instead of derived again on every query: per portfolio, which of its coins are held and how
/// many units (`LedgerStore.holdings(of:)`) and its cost-basis figures by method
/// (`CostBasisFigures`); and where its coins are in a snapshot, kept while the snapshot is the
/// same object (a snapshot never changes: a refresh, load or price update makes a new one).
///
/// Issue 30: at 10,000 holdings over 15,000 coins, `statistics` and `portfolio` otherwise summed
/// every coin's entries, ran every coin's lots and hashed each held id into the snapshot's
/// 15,000-entry index three or four times, on every call.
final class LedgerDerivations: Sendable {
    /// One portfolio's derivations at one ledger counter; indices are into its `OwnerView.ledger`.
    private struct Portfolio {
        /// The held coins (entries summing above zero) and their units, in ledger order.
        var holdings: [(index: Int, amount: Double)]?
        var figures: [CostBasisMethod: [CostBasisFigures]] = [:]
        /// The snapshot `positions` were found in; weak, so that a replaced snapshot is not kept.
        weak var snapshot: MarketSnapshot?
        /// Each ledger coin's position in `snapshot`, nil where the snapshot does not have it.
        var positions: [Int?] = []
    }

    private let state = Mutex<(counter: Int64, portfolios: [HoldingsKey: Portfolio])>((-1, [:]))

    /// The held coins of `view`'s ledger (read for `portfolio`): each coin's index in
    /// `view.ledger` and its units, in ledger order (by coin id).
    func holdings(_ view: OwnerView, portfolio: String) -> [(index: Int, amount: Double)] {
        if let known = cached(view, portfolio)?.holdings { return known }
        var held: [(index: Int, amount: Double)] = []
        for (index, coin) in view.ledger.enumerated() {
            if let amount = LedgerStore.heldAmount(coin.entries) { held.append((index, amount)) }
        }
        update(view, portfolio) { $0.holdings = held }
        return held
    }

    /// The figures of `view`'s ledger by `method`, from `compute` when not kept yet.
    func figures(
        _ view: OwnerView, portfolio: String, method: CostBasisMethod, compute: () -> [CostBasisFigures]
    ) -> [CostBasisFigures] {
        if let known = cached(view, portfolio)?.figures[method] { return known }
        let figures = compute()
        update(view, portfolio) { $0.figures[method] = figures }
        return figures
    }

    /// Each coin of `view.ledger`: its position in `snapshot`, nil where the snapshot lacks it.
    func positions(_ view: OwnerView, portfolio: String, in snapshot: MarketSnapshot) -> [Int?] {
        if let known = cached(view, portfolio), known.snapshot === snapshot, known.positions.count == view.ledger.count {
            return known.positions
        }
        let positions = view.ledger.map { snapshot.indexByID[$0.coinID] }
        update(view, portfolio) {
            $0.snapshot = snapshot
            $0.positions = positions
        }
        return positions
    }

    private func cached(_ view: OwnerView, _ portfolio: String) -> Portfolio? {
        state.withLock { $0.counter == view.ledgerCounter ? $0.portfolios[HoldingsKey(portfolio)] : nil }
    }

    /// Keeps what was derived from `view`; what was kept for another counter is dropped.
    private func update(_ view: OwnerView, _ portfolio: String, _ change: (inout Portfolio) -> Void) {
        state.withLock { state in
            if state.counter != view.ledgerCounter { state = (view.ledgerCounter, [:]) }
            change(&state.portfolios[HoldingsKey(portfolio), default: Portfolio()])
        }
    }
}
