/// How the cost of sold units is chosen (SPEC §12).
public enum CostBasisMethod: String, Sendable, CaseIterable {
    /// First in, first out: a sell takes the oldest lots first (the default).
    case fifo
    /// Last in, first out: a sell takes the newest lots first.
    case lifo
    /// Average cost (ACB): one pool of known-cost units and one of unknown-cost units; a sell
    /// takes from both in proportion and leaves the average cost unchanged.
    case average
}

/// One transaction as the calculator needs it: compact, in ledger order.
struct LedgerEntry: Sendable {
    var id: Int64
    var kind: TransactionKind
    var amount: ExactDecimal
    var price: ExactDecimal?
    var fee: ExactDecimal
    var timestamp: Int64
}

/// Lots and pools of one coin, fed its transactions in ledger order (timestamp, then insertion).
struct CostBasisCalculator {
    /// A lot: units bought (or transferred in) together, with their remaining cost (nil: unknown).
    struct Lot {
        var amount: ExactDecimal
        var cost: ExactDecimal?
    }

    let method: CostBasisMethod
    private var lots: [Lot] = []
    /// fifo: index of the oldest lot still holding units.
    private var head = 0
    // average: the two pools.
    private var knownUnits = ExactDecimal.zero
    private var knownCost = ExactDecimal.zero
    private var unknownUnits = ExactDecimal.zero

    private(set) var amount = ExactDecimal.zero
    private(set) var realized = ExactDecimal.zero
    private(set) var fees = ExactDecimal.zero
    private(set) var soldUnits = ExactDecimal.zero
    private(set) var soldKnownUnits = ExactDecimal.zero
    /// Cost of the sold units of known cost (what the realized P&L is measured against).
    private(set) var soldKnownCost = ExactDecimal.zero

    init(method: CostBasisMethod) { self.method = method }

    mutating func apply(_ entry: LedgerEntry) {
        fees += entry.fee
        switch entry.kind {
        case .buy:
            let cost = entry.amount * (entry.price ?? .zero) + entry.fee
            add(entry.amount, cost: cost)
        case .transferIn:
            add(entry.amount, cost: nil)
        case .sell:
            let taken = take(entry.amount)
            let proceeds = entry.amount * (entry.price ?? .zero) - entry.fee
            soldUnits += entry.amount
            soldKnownUnits += taken.knownUnits
            soldKnownCost += taken.knownCost
            // Units of unknown cost realize nothing: only the known share of the proceeds counts.
            let knownProceeds =
                taken.knownUnits == entry.amount ? proceeds : proceeds.multiplied(by: taken.knownUnits, dividedBy: entry.amount)
            if !taken.knownUnits.isZero { realized += knownProceeds - taken.knownCost }
        case .transferOut:
            _ = take(entry.amount)
        }
    }

    private mutating func add(_ units: ExactDecimal, cost: ExactDecimal?) {
        amount += units
        switch method {
        case .fifo, .lifo:
            lots.append(Lot(amount: units, cost: cost))
        case .average:
            if let cost {
                knownUnits += units
                knownCost += cost
            } else {
                unknownUnits += units
            }
        }
    }

    /// Removes `units` (never more than held) and says how many of them had a known cost and
    /// what that cost was.
    private mutating func take(_ units: ExactDecimal) -> (knownUnits: ExactDecimal, knownCost: ExactDecimal) {
        var wanted = min(units, amount)
        amount -= wanted
        var takenKnown = ExactDecimal.zero
        var takenCost = ExactDecimal.zero
        switch method {
        case .fifo, .lifo:
            while !wanted.isZero {
                let index = method == .fifo ? head : lots.count - 1
                guard index >= head, index < lots.count else { break }
                var lot = lots[index]
                let piece = min(wanted, lot.amount)
                var pieceCost: ExactDecimal?
                if let cost = lot.cost {
                    pieceCost = piece == lot.amount ? cost : cost.multiplied(by: piece, dividedBy: lot.amount)
                }
                lot.amount -= piece
                lot.cost = lot.cost.map { $0 - (pieceCost ?? .zero) }
                wanted -= piece
                if let pieceCost {
                    takenKnown += piece
                    takenCost += pieceCost
                }
                if lot.amount.isZero {
                    if method == .fifo { head += 1 } else { lots.removeLast() }
                } else {
                    lots[index] = lot
                }
            }
            if method == .fifo, head > 64, head * 2 > lots.count {
                lots.removeFirst(head)
                head = 0
            }
        case .average:
            let total = knownUnits + unknownUnits
            if unknownUnits.isZero {
                takenKnown = wanted
            } else if !knownUnits.isZero {
                takenKnown = wanted == total ? knownUnits : knownUnits.multiplied(by: wanted, dividedBy: total)
            }
            let takenUnknown = wanted - takenKnown
            takenCost = takenKnown == knownUnits ? knownCost : knownCost.multiplied(by: takenKnown, dividedBy: knownUnits)
            knownUnits -= takenKnown
            knownCost -= takenCost
            unknownUnits -= takenUnknown
            if amount.isZero {
                // The pool starts afresh once the position is closed.
                knownUnits = .zero
                knownCost = .zero
                unknownUnits = .zero
            }
        }
        return (takenKnown, takenCost)
    }

    /// Remaining units of known cost and their cost.
    var known: (units: ExactDecimal, cost: ExactDecimal) {
        switch method {
        case .average:
            return (knownUnits, knownCost)
        case .fifo, .lifo:
            var units = ExactDecimal.zero
            var cost = ExactDecimal.zero
            for lot in lots[head...] {
                if let lotCost = lot.cost {
                    units += lot.amount
                    cost += lotCost
                }
            }
            return (units, cost)
        }
    }
}

/// The running amount of one coin in ledger order never goes below zero (SPEC §12 "never
/// negative"). Returns the first entry where it would, and by how much it falls short.
/// `held` is what is held before the first entry (zero for a coin's whole ledger).
func firstShortfall(_ entries: [LedgerEntry], startingAt start: ExactDecimal = .zero) -> (entry: LedgerEntry, shortBy: ExactDecimal)? {
    var held = start
    for entry in entries {
        if entry.kind.adds {
            held += entry.amount
        } else {
            held -= entry.amount
            if held.isNegative { return (entry, -held) }
        }
    }
    return nil
}
