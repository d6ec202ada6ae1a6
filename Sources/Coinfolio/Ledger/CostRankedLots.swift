/// Lots ranked by unit cost in a binary heap: hifo takes the highest unit cost first, lofo the
/// lowest. A lot of unknown cost ranks as cost 0 (hifo takes it last, lofo first); lots of equal
/// unit cost go in ledger order of their acquisition (SPEC §16).
struct CostRankedLots {
    private struct Ranked {
        var lot: Lot
        /// cost ÷ units when the lot was added (0 for unknown cost): a partly taken lot keeps its rank.
        var unitCost: PreciseDecimal
    }

    private var heap: [Ranked] = []
    private let highestFirst: Bool

    init(highestFirst: Bool) { self.highestFirst = highestFirst }

    /// Whether a leaves before b.
    private func before(_ a: Ranked, _ b: Ranked) -> Bool {
        let order = PreciseDecimal.compare(a.unitCost, b.unitCost)
        if order != 0 { return highestFirst ? order > 0 : order < 0 }
        return precedes(a.lot.acquired, b.lot.acquired)
    }

    mutating func insert(_ lot: Lot) {
        let unitCost = lot.cost.flatMap { $0.divided(by: lot.units) } ?? .zero
        heap.append(Ranked(lot: lot, unitCost: unitCost))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, before(heap[left], heap[first]) { first = left }
            if right < heap.count, before(heap[right], heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) {
        var wanted = units
        while !wanted.isZero, !heap.isEmpty {
            let piece = heap[0].lot.split(min(wanted, heap[0].lot.units))
            wanted -= piece.units
            pieces.append(piece)
            if heap[0].lot.units.isZero { popFirst() }
        }
    }

    mutating func removeAll(into pieces: inout [Lot]) {
        while !heap.isEmpty {
            pieces.append(heap[0].lot)
            popFirst()
        }
    }

    func forEachLot(_ body: (Lot) -> Void) {
        for ranked in heap { body(ranked.lot) }
    }
}

/// Highest in, first out: the lots of the highest unit cost leave first.
struct HIFOLots: LotMethod {
    private var lots = CostRankedLots(highestFirst: true)
    mutating func add(_ lot: Lot) { lots.insert(lot) }
    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) { lots.remove(units, into: &pieces) }
    mutating func removeAll(into pieces: inout [Lot]) { lots.removeAll(into: &pieces) }
    func forEachLot(_ body: (Lot) -> Void) { lots.forEachLot(body) }
}

/// Lowest in, first out: the lots of the lowest unit cost leave first.
struct LOFOLots: LotMethod {
    private var lots = CostRankedLots(highestFirst: false)
    mutating func add(_ lot: Lot) { lots.insert(lot) }
    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) { lots.remove(units, into: &pieces) }
    mutating func removeAll(into pieces: inout [Lot]) { lots.removeAll(into: &pieces) }
    func forEachLot(_ body: (Lot) -> Void) { lots.forEachLot(body) }
}
