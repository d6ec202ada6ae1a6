/// UK share pooling (method `uk`, SPEC §19): the matches `UKShareMatching` planned over the
/// coin's whole ledger, and the Section 104 pool — every unit no match claimed, at its average
/// cost, fees included in the cost (CRYPTO22250–CRYPTO22256).
///
/// A disposal takes its planned pieces (same day, then thirty days), then the rest from the pool;
/// an acquisition adds to the pool only the units its day did not give to matches; a transfer in
/// joins the pool and a transfer out leaves it (a transfer is no acquisition or disposal: moved
/// units keep the pool's cost). Units of unknown cost (transferred in, pending prices) sit in the
/// pool beside the known ones and leave in proportion, as with `average`.
///
/// A day's disposals are one disposal (s105): what they take from the pool is worked out from the
/// pool as the day's first of them found it, for the units taken so far, so that their pieces add
/// up to exactly what one disposal of their sum takes (CRYPTO22254: 1,000 × 500/8,000 = 62.5,
/// never 62.4999… from two rows' rounded shares).
///
/// The pool holds the coin's units plus those that disposals already matched with acquisitions
/// still to come, so it never runs short of a disposal. A transfer out on a day whose
/// acquisitions were claimed by a later disposal of that day can find it short: the units it
/// lacks leave at an unknown cost, and the next units to reach the pool make up for them (they
/// are the ones that left) instead of joining it.
struct UKShareLots: LotMethod {
    private var plan = UKShareMatching([])
    private var pool = AverageCostLots()
    /// Units that left the pool before they reached it (see above).
    private var owed = PreciseDecimal.zero
    /// The latest acquisition that reached the pool: the acquisition time of units it lacked.
    private var latest: LedgerPoint = (0, 0)
    /// Where the next look-up in the plan's two lists starts (entries come in ledger order).
    private var nextMatched = 0
    private var nextReserved = 0
    /// The day's disposals from the pool so far, while nothing else changed the pool.
    private var dayTake: DayTake?

    /// The pool before a day's first disposal from it, the units the day's disposals took since
    /// and the pieces those units took (a known one, an unknown one).
    private struct DayTake {
        var day: Int64
        var start: AverageCostLots
        var taken = PreciseDecimal.zero
        var pieces: [Lot] = []
    }

    init() {}

    mutating func prepare(_ entries: [LedgerEntry]) {
        plan = UKShareMatching(entries)
        nextMatched = 0
        nextReserved = 0
        dayTake = nil
    }

    mutating func add(_ lot: Lot) {
        dayTake = nil
        var lot = lot
        if !owed.isZero {
            let paid = lot.split(min(owed, lot.units))
            owed -= paid.units
            guard !lot.units.isZero else { return }
        }
        latest = lot.acquired
        pool.add(lot)
    }

    mutating func acquire(_ lot: Lot) {
        guard let reserved = UKShareMatching.take(plan.reserved, at: lot.acquired, cursor: &nextReserved) else { return add(lot) }
        // The day's acquisitions are one (s105): its share of what the day kept, at the day's average cost.
        if reserved.planned {
            if let pooled = reserved.pooled { add(pooled) }
            return
        }
        var rest = lot
        guard reserved.units < lot.units else { return }
        _ = rest.split(reserved.units)
        add(rest)
    }

    mutating func dispose(_ units: PreciseDecimal, closing: Bool, at point: LedgerPoint, into pieces: inout [Lot]) {
        var rest = units
        for index in UKShareMatching.take(plan.matched, at: point, cursor: &nextMatched) ?? 0..<0 {
            let piece = plan.matchedLots[index]
            pieces.append(piece)
            rest -= piece.units
        }
        if rest > .zero { disposeFromPool(rest, day: UTCDay.number(of: point.timestamp), into: &pieces) }
    }

    mutating func transfer(_ units: PreciseDecimal, closing: Bool, into pieces: inout [Lot]) {
        takeFromPool(units, into: &pieces)
    }

    /// A disposal's `units` from the pool on `day`: the pieces the day's disposals take through
    /// this one, less those they took before it (see above).
    private mutating func disposeFromPool(_ units: PreciseDecimal, day: Int64, into pieces: inout [Lot]) {
        var take = dayTake.flatMap { $0.day == day ? $0 : nil } ?? DayTake(day: day, start: pool)
        let through = take.taken + units
        guard through <= take.start.units else { return takeFromPool(units, into: &pieces) }
        var left = take.start
        var taken: [Lot] = []
        left.remove(through, into: &taken)
        for piece in taken {
            let before = take.pieces.first { ($0.cost == nil) == (piece.cost == nil) }
            var own = piece
            if let before {
                own.units = piece.units - before.units
                own.cost = piece.cost.flatMap { cost in before.cost.map { cost - $0 } }
            }
            if !own.units.isZero { pieces.append(own) }
        }
        pool = left
        (take.taken, take.pieces) = (through, taken)
        dayTake = take
    }

    /// Takes `units` from the pool at its average cost; what it lacks leaves at an unknown cost.
    private mutating func takeFromPool(_ units: PreciseDecimal, into pieces: inout [Lot]) {
        dayTake = nil
        let held = pool.units
        guard units > held else { return pool.remove(units, into: &pieces) }
        pool.removeAll(into: &pieces)
        let lacking = units - held
        owed += lacking
        pieces.append(Lot(units: lacking, cost: nil, acquired: latest))
    }

    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) { takeFromPool(units, into: &pieces) }
    mutating func removeAll(into pieces: inout [Lot]) {
        dayTake = nil
        pool.removeAll(into: &pieces)
    }
    func forEachLot(_ body: (Lot) -> Void) { pool.forEachLot(body) }
}
