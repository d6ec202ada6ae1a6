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

    init() {}

    mutating func prepare(_ entries: [LedgerEntry]) {
        plan = UKShareMatching(entries)
        nextMatched = 0
        nextReserved = 0
    }

    mutating func add(_ lot: Lot) {
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
        var rest = lot
        guard reserved < lot.units else { return }
        _ = rest.split(reserved)
        add(rest)
    }

    mutating func dispose(_ units: PreciseDecimal, closing: Bool, at point: LedgerPoint, into pieces: inout [Lot]) {
        var rest = units
        for piece in UKShareMatching.take(plan.matched, at: point, cursor: &nextMatched) ?? [] {
            pieces.append(piece)
            rest -= piece.units
        }
        if rest > .zero { takeFromPool(rest, into: &pieces) }
    }

    mutating func transfer(_ units: PreciseDecimal, closing: Bool, into pieces: inout [Lot]) {
        takeFromPool(units, into: &pieces)
    }

    /// Takes `units` from the pool at its average cost; what it lacks leaves at an unknown cost.
    private mutating func takeFromPool(_ units: PreciseDecimal, into pieces: inout [Lot]) {
        var held = PreciseDecimal.zero
        pool.forEachLot { held += $0.units }
        guard units > held else { return pool.remove(units, into: &pieces) }
        pool.removeAll(into: &pieces)
        let lacking = units - held
        owed += lacking
        pieces.append(Lot(units: lacking, cost: nil, acquired: latest))
    }

    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) { takeFromPool(units, into: &pieces) }
    mutating func removeAll(into pieces: inout [Lot]) { pool.removeAll(into: &pieces) }
    func forEachLot(_ body: (Lot) -> Void) { pool.forEachLot(body) }
}
