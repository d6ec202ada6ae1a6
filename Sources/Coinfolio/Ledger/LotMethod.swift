/// How the cost of units leaving a holding is chosen (SPEC §12, §16): which lots a sell, a fee
/// row or a transfer out takes.
public enum CostBasisMethod: String, Sendable, CaseIterable {
    /// First in, first out: the earliest acquired lots first (the default).
    case fifo
    /// Last in, first out: the latest acquired lots first.
    case lifo
    /// Highest in, first out: the lots of the highest unit cost first (unknown cost counts as 0,
    /// so those go last); ties in ledger order.
    case hifo
    /// Lowest in, first out: the lots of the lowest unit cost first (unknown cost first); ties
    /// in ledger order.
    case lofo
    /// Average cost (ACB): one pool of known-cost units and one of unknown-cost units; units
    /// leave both in proportion and leave the average cost unchanged.
    case average
    /// UK share pooling (HMRC's Cryptoassets Manual CRYPTO22200 onwards; SPEC §19): a disposal
    /// matches acquisitions of the same UTC day first, then acquisitions of the 30 days after it
    /// (earliest first), then the Section 104 pool at its average cost, fees in the pool's cost.
    case uk

    /// "fifo, lifo, hifo, lofo, average or uk", for messages.
    static let list = "fifo, lifo, hifo, lofo, average or uk"
}

/// The lots of one coin in one portfolio, kept for one `CostBasisMethod`: each method is a
/// type of its own. Most only need the next removal (`remove`, `removeAll`); a method whose
/// matching looks ahead (`uk`, which matches a disposal with acquisitions of the 30 days after
/// it) plans over the whole ledger first (`prepare`) and tells disposals, transfers out and
/// acquisitions apart (`dispose`, `transfer`, `acquire`).
protocol LotMethod {
    init()
    /// Adds a lot (a buy, an income, a transfer in, or a piece a move carried over).
    mutating func add(_ lot: Lot)
    /// Removes `units` (at most what the lots hold), appending each piece taken — units, their
    /// cost, their acquisition point — to `pieces`.
    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot])
    /// Removes every lot (the holding closes: an average pool starts afresh), appending them to
    /// `pieces`.
    mutating func removeAll(into pieces: inout [Lot])
    /// Calls `body` with every lot still holding units.
    func forEachLot(_ body: (Lot) -> Void)

    /// Called once with every entry of the coin in this portfolio, in ledger order, before any is
    /// applied. By default nothing.
    mutating func prepare(_ entries: [LedgerEntry])
    /// Adds the lot of an acquisition (a buy or an income; `lot.acquired` is its entry's point).
    /// By default `add`.
    mutating func acquire(_ lot: Lot)
    /// Takes `units` for the disposal (a sell or a fee row) at `point`; `closing`: they are all
    /// the coin holds. By default as `transfer`.
    mutating func dispose(_ units: PreciseDecimal, closing: Bool, at point: LedgerPoint, into pieces: inout [Lot])
    /// Takes `units` for a transfer out; `closing`: they are all the coin holds (every lot goes,
    /// an average pool starts afresh). By default `removeAll` when closing, else `remove`.
    mutating func transfer(_ units: PreciseDecimal, closing: Bool, into pieces: inout [Lot])
}

extension LotMethod {
    mutating func prepare(_ entries: [LedgerEntry]) {}
    mutating func acquire(_ lot: Lot) { add(lot) }
    mutating func dispose(_ units: PreciseDecimal, closing: Bool, at point: LedgerPoint, into pieces: inout [Lot]) {
        transfer(units, closing: closing, into: &pieces)
    }
    mutating func transfer(_ units: PreciseDecimal, closing: Bool, into pieces: inout [Lot]) {
        if closing { removeAll(into: &pieces) } else { remove(units, into: &pieces) }
    }
}
