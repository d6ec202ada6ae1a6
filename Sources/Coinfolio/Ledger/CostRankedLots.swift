/// Lots ranked by unit cost in a binary heap: hifo takes the highest unit cost first, lofo the
/// lowest. A lot of unknown cost ranks as cost 0 (hifo takes it last, lofo first); lots of equal
/// unit cost go in ledger order of their acquisition (SPEC §16).
struct CostRankedLots {
    /// Every lot added (a lot taken whole stays here, empty, out of the heap).
    private var lots: [Lot] = []
    /// Each lot's cost ÷ units when it was added (0 for unknown cost): a partly taken lot keeps
    /// its rank; and that unit cost as a double, which orders two lots whenever the doubles differ
    /// (rounding to a double never reverses an order), the exact values deciding only a tie.
    private var unitCosts: [PreciseDecimal] = []
    private var keys: [Double] = []
    /// A binary heap of indices into `lots`, the lot taken next first.
    private var heap: [Int] = []
    private let highestFirst: Bool

    init(highestFirst: Bool) { self.highestFirst = highestFirst }

    /// Whether lot a leaves before lot b.
    private func before(_ a: Int, _ b: Int) -> Bool {
        if keys[a] != keys[b] { return highestFirst ? keys[a] > keys[b] : keys[a] < keys[b] }
        let order = PreciseDecimal.compare(unitCosts[a], unitCosts[b])
        if order != 0 { return highestFirst ? order > 0 : order < 0 }
        return precedes(lots[a].acquired, lots[b].acquired)
    }

    mutating func insert(_ lot: Lot) {
        let unitCost = lot.cost.flatMap { $0.divided(by: lot.units) } ?? .zero
        lots.append(lot)
        unitCosts.append(unitCost)
        keys.append(unitCost.double)
        heap.append(lots.count - 1)
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
        while !wanted.isZero, let top = heap.first {
            let piece = lots[top].split(min(wanted, lots[top].units))
            wanted -= piece.units
            pieces.append(piece)
            if lots[top].units.isZero { popFirst() }
        }
    }

    mutating func removeAll(into pieces: inout [Lot]) {
        while let top = heap.first {
            pieces.append(lots[top])
            lots[top].units = .zero
            popFirst()
        }
    }

    func forEachLot(_ body: (Lot) -> Void) {
        for index in heap { body(lots[index]) }
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
