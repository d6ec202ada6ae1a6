/// Average cost (ACB, SPEC §12): one pool of known-cost units and one of unknown-cost units.
/// Units leave both in proportion to their sizes, so the average cost stays what it was; the
/// pools start afresh when the holding closes. A move carries a known piece (at the average cost)
/// and an unknown one, acquired when the pool began.
struct AverageCostLots: LotMethod {
    private var knownUnits = PreciseDecimal.zero
    private var knownCost = PreciseDecimal.zero
    private var unknownUnits = PreciseDecimal.zero
    /// The earliest acquisition in the pools.
    private var since: LedgerPoint = (0, 0)

    init() {}

    private var isEmpty: Bool { knownUnits.isZero && unknownUnits.isZero }

    /// The units held, of known and unknown cost.
    var units: PreciseDecimal { knownUnits + unknownUnits }

    mutating func add(_ lot: Lot) {
        if isEmpty || precedes(lot.acquired, since) { since = lot.acquired }
        if let cost = lot.cost {
            knownUnits += lot.units
            knownCost += cost
        } else {
            unknownUnits += lot.units
        }
    }

    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) {
        let total = self.units
        guard units < total else {
            removeAll(into: &pieces)
            return
        }
        var takenKnown = PreciseDecimal.zero
        if unknownUnits.isZero {
            takenKnown = units
        } else if !knownUnits.isZero {
            takenKnown = knownUnits.multiplied(by: units, dividedBy: total)
        }
        let takenUnknown = units - takenKnown
        if !takenKnown.isZero {
            let takenCost = takenKnown == knownUnits ? knownCost : knownCost.multiplied(by: takenKnown, dividedBy: knownUnits)
            knownUnits -= takenKnown
            knownCost -= takenCost
            pieces.append(Lot(units: takenKnown, cost: takenCost, acquired: since))
        }
        if !takenUnknown.isZero {
            unknownUnits -= takenUnknown
            pieces.append(Lot(units: takenUnknown, cost: nil, acquired: since))
        }
    }

    mutating func removeAll(into pieces: inout [Lot]) {
        if !knownUnits.isZero { pieces.append(Lot(units: knownUnits, cost: knownCost, acquired: since)) }
        if !unknownUnits.isZero { pieces.append(Lot(units: unknownUnits, cost: nil, acquired: since)) }
        knownUnits = .zero
        knownCost = .zero
        unknownUnits = .zero
    }

    func forEachLot(_ body: (Lot) -> Void) {
        if !knownUnits.isZero { body(Lot(units: knownUnits, cost: knownCost, acquired: since)) }
        if !unknownUnits.isZero { body(Lot(units: unknownUnits, cost: nil, acquired: since)) }
    }
}
