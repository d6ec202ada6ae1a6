/// One coin's lots and running figures in one portfolio, fed its entries in ledger order
/// (SPEC §12, §16): the lots by `Lots`'s method, what was realized, the fees, the income.
///
/// Known means a cost (or value) the ledger knows: units transferred in, and prices still
/// pending (SPEC §17), are unknown, and every figure over them is left out and shows in its
/// coverage, never counted as 0.
struct CoinCostBasis<Lots: LotMethod> {
    private(set) var lots = Lots()
    /// Whether the running figures below (other than `amount`) are kept: a run that only reads
    /// the pieces each disposal took (`realized`'s rows) skips them (false).
    private let keepsFigures: Bool
    /// Units held.
    private(set) var amount = PreciseDecimal.zero
    /// Net proceeds − cost over disposed units whose cost and proceeds are both known.
    private(set) var realized = PreciseDecimal.zero
    /// The cost of those units.
    private(set) var realizedCost = PreciseDecimal.zero
    /// Those units.
    private(set) var realizedUnits = PreciseDecimal.zero
    /// Every unit sold or paid as a fee.
    private(set) var disposedUnits = PreciseDecimal.zero
    /// Every fee's value in the portfolio's currency; `feesKnown` false once a fee's value is
    /// pending.
    private(set) var fees = PreciseDecimal.zero
    private(set) var feesKnown = true
    /// Σ amount × price of income with a known price, and the units and rows of income.
    private(set) var income = PreciseDecimal.zero
    private(set) var incomeUnits = PreciseDecimal.zero
    private(set) var incomeKnownUnits = PreciseDecimal.zero
    private(set) var incomeRows = 0
    private(set) var incomeKnownRows = 0

    /// A calculator with no lots; `keepsFigures` false: only the lots and `amount` are kept.
    init(keepsFigures: Bool = true) { self.keepsFigures = keepsFigures }

    /// Lets the lot method plan over every entry before any is applied (`LotMethod.prepare`).
    mutating func prepare(_ entries: [LedgerEntry]) { lots.prepare(entries) }

    /// Applies one entry. `moves` carries lots from a move's transfer_out to its transfer_in;
    /// `pieces` is scratch space reused between calls.
    mutating func apply(_ entry: borrowing LedgerEntry, moves: inout MovedLots, pieces: inout [Lot]) {
        let units = entry.units
        if keepsFigures {
            if let fee = entry.fee { fees += fee } else { feesKnown = false }
        }
        switch entry.kind {
        case .buy, .income:
            var cost: PreciseDecimal?
            if let price = entry.price, let fee = entry.fee { cost = units * price + fee }
            if entry.kind == .income, keepsFigures {
                incomeRows += 1
                incomeUnits += units
                if let price = entry.price {
                    income += units * price
                    incomeKnownUnits += units
                    incomeKnownRows += 1
                }
            }
            amount += units
            lots.acquire(Lot(units: units, cost: cost, acquired: entry.point))
        case .transferIn:
            if entry.group != 0, let received = moves.receive(entry.group, units) {
                for lot in received { add(lot) }
            } else {
                add(Lot(units: units, cost: nil, acquired: entry.point))
            }
        case .sell, .fee:
            let taken = remove(units, disposalAt: entry.point, &pieces)
            guard keepsFigures else { return }
            disposedUnits += taken
            // Proceeds net of the fee; unknown while the price or the fee's value is pending.
            guard let price = entry.price, let fee = entry.fee else { return }
            var knownUnits = PreciseDecimal.zero
            var knownCost = PreciseDecimal.zero
            for piece in pieces {
                guard let cost = piece.cost else { continue }
                knownUnits += piece.units
                knownCost += cost
            }
            guard !knownUnits.isZero else { return }
            let proceeds = units * price - fee
            // Units of unknown cost realize nothing: only the known share of the proceeds counts.
            let knownProceeds = knownUnits == units ? proceeds : proceeds.multiplied(by: knownUnits, dividedBy: units)
            realized += knownProceeds - knownCost
            realizedCost += knownCost
            realizedUnits += knownUnits
        case .transferOut:
            _ = remove(units, disposalAt: nil, &pieces)
            if entry.group != 0 { moves.send(entry.group, pieces) }
        }
    }

    private mutating func add(_ lot: Lot) {
        amount += lot.units
        lots.add(lot)
    }

    /// Removes `units` (never more than held) into `pieces` for the disposal at `point` (nil: a
    /// transfer out); returns the units removed.
    private mutating func remove(_ units: PreciseDecimal, disposalAt point: LedgerPoint?, _ pieces: inout [Lot]) -> PreciseDecimal {
        pieces.removeAll(keepingCapacity: true)
        let closing = !(units < amount)
        let taken = closing ? amount : units
        if let point {
            lots.dispose(taken, closing: closing, at: point, into: &pieces)
        } else {
            lots.transfer(taken, closing: closing, into: &pieces)
        }
        amount = closing ? .zero : amount - units
        return taken
    }

    /// The units of known cost still held, and their cost.
    var known: (units: PreciseDecimal, cost: PreciseDecimal) {
        var units = PreciseDecimal.zero
        var cost = PreciseDecimal.zero
        lots.forEachLot { lot in
            guard let lotCost = lot.cost else { return }
            units += lot.units
            cost += lotCost
        }
        return (units, cost)
    }
}
