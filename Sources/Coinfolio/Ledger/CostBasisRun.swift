/// Runs a `CoinCostBasis` over one coin's entries: of one portfolio, or of several at once when
/// moves link them (SPEC §16: "a pnl over one portfolio computes the other portfolios of the
/// owner as far as the moves need").
enum CostBasisRun {
    /// What a run hands its observer after each entry of the target portfolio: the entry and, for
    /// an entry that removes units (a sell, a fee row, a transfer out), the pieces of lots it took.
    typealias Observer = (_ entry: borrowing LedgerEntry, _ pieces: [Lot]) -> Void

    /// The calculator after every entry of one portfolio, in ledger order (`keepsFigures`: see
    /// `CoinCostBasis.init(keepsFigures:)`).
    static func run<Lots: LotMethod>(
        _ entries: [LedgerEntry], as _: Lots.Type = Lots.self, keepsFigures: Bool = true, observe: Observer = { _, _ in }
    ) -> CoinCostBasis<Lots> {
        var basis = CoinCostBasis<Lots>(keepsFigures: keepsFigures)
        basis.prepare(entries)
        var moves = MovedLots()
        var pieces: [Lot] = []
        for index in entries.indices {
            basis.apply(entries[index], moves: &moves, pieces: &pieces)
            observe(entries[index], pieces)
        }
        return basis
    }

    /// The calculator of `portfolios[target]` after running every portfolio's entries of the coin
    /// together in ledger order (timestamp, then id across portfolios: a move's transfer_out is
    /// written before its transfer_in), so that each move's transfer_in receives the lots its
    /// transfer_out removed.
    static func run<Lots: LotMethod>(
        _ portfolios: [[LedgerEntry]], target: Int, as _: Lots.Type = Lots.self, keepsFigures: Bool = true,
        observe: Observer = { _, _ in }
    ) -> CoinCostBasis<Lots> {
        var bases = [CoinCostBasis<Lots>](repeating: CoinCostBasis<Lots>(keepsFigures: keepsFigures), count: portfolios.count)
        for index in portfolios.indices { bases[index].prepare(portfolios[index]) }
        var next = [Int](repeating: 0, count: portfolios.count)
        var moves = MovedLots()
        var pieces: [Lot] = []
        while true {
            // The portfolio whose next entry comes first (a handful of portfolios: a scan).
            var chosen = -1
            for index in portfolios.indices where next[index] < portfolios[index].count {
                if chosen < 0 || precedes(portfolios[index][next[index]].point, portfolios[chosen][next[chosen]].point) {
                    chosen = index
                }
            }
            guard chosen >= 0 else { break }
            let entry = portfolios[chosen][next[chosen]]
            bases[chosen].apply(entry, moves: &moves, pieces: &pieces)
            if chosen == target { observe(entry, pieces) }
            next[chosen] += 1
        }
        return bases[target]
    }

    /// `run` over the entries of one portfolio, with the owner's other portfolios' entries of the
    /// coin (`others`) joined in only when a move brings lots into it.
    static func run<Lots: LotMethod>(
        _ entries: [LedgerEntry], others: () -> [[LedgerEntry]], as _: Lots.Type = Lots.self, keepsFigures: Bool = true,
        observe: Observer = { _, _ in }
    ) -> CoinCostBasis<Lots> {
        let receivesMoves = entries.contains { $0.kind == .transferIn && $0.group != 0 }
        let linked = receivesMoves ? others() : []
        return linked.isEmpty
            ? run(entries, keepsFigures: keepsFigures, observe: observe)
            : run([entries] + linked, target: 0, keepsFigures: keepsFigures, observe: observe)
    }
}
