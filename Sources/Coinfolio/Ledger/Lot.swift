/// Units acquired together (SPEC §12, §16): bought, received as income, transferred in, or
/// carried over by a move with the time of their first acquisition.
struct Lot: Sendable {
    /// Units left.
    var units: PreciseDecimal
    /// Their remaining cost in the portfolio's currency; nil when unknown (a transfer in, a
    /// pending price).
    var cost: PreciseDecimal?
    /// Where the units were first acquired in ledger order (a move keeps it): fifo and lifo
    /// order lots by it, and ties of hifo and lofo go by it.
    var acquired: LedgerPoint

    /// The part `piece` (0 < piece ≤ units) of the lot, with its share of the cost; the lot keeps
    /// the rest. The whole lot when `piece` is all of it (its cost exact, no division).
    mutating func split(_ piece: PreciseDecimal) -> Lot {
        guard piece < units else {
            defer { units = .zero; cost = cost.map { _ in .zero } }
            return self
        }
        let pieceCost = cost.map { $0.multiplied(by: piece, dividedBy: units) }
        units -= piece
        if let pieceCost, let whole = cost { cost = whole - pieceCost }
        return Lot(units: piece, cost: pieceCost, acquired: acquired)
    }
}
