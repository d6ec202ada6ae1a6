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

    /// "fifo, lifo, hifo, lofo or average", for messages.
    static let list = "fifo, lifo, hifo, lofo or average"
}

/// The lots of one coin in one portfolio, kept for one `CostBasisMethod`: each method is a
/// type of its own (room for more, such as the UK's share pooling, whose matching rules need
/// more than the next disposal).
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
}
