/// Lots in the order of their first acquisition: fifo takes from the front, lifo from the back.
/// A lot a move carries over goes where its acquisition time puts it, as if it had always been
/// there (SPEC §16); every other lot is the latest and goes at the back.
struct AcquisitionOrderedLots {
    private(set) var lots: [Lot] = []
    /// Lots before `head` are empty (fifo takes them without moving the rest).
    private(set) var head = 0

    mutating func insert(_ lot: Lot) {
        guard let last = lots.last, lots.count > head, precedes(lot.acquired, last.acquired) else {
            lots.append(lot)
            return
        }
        // After every lot acquired at or before it: ties stay in the order they arrived.
        var low = head
        var high = lots.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(lot.acquired, lots[middle].acquired) { high = middle } else { low = middle + 1 }
        }
        lots.insert(lot, at: low)
    }

    /// Takes up to `units` from the front.
    mutating func removeFromFront(_ units: PreciseDecimal, into pieces: inout [Lot]) {
        var wanted = units
        while !wanted.isZero, head < lots.count {
            let piece = lots[head].split(min(wanted, lots[head].units))
            wanted -= piece.units
            pieces.append(piece)
            if lots[head].units.isZero { head += 1 }
        }
        if head > 64, head * 2 > lots.count {
            lots.removeFirst(head)
            head = 0
        }
    }

    /// Takes up to `units` from the back.
    mutating func removeFromBack(_ units: PreciseDecimal, into pieces: inout [Lot]) {
        var wanted = units
        while !wanted.isZero, lots.count > head {
            let last = lots.count - 1
            let piece = lots[last].split(min(wanted, lots[last].units))
            wanted -= piece.units
            pieces.append(piece)
            if lots[last].units.isZero { lots.removeLast() }
        }
    }

    mutating func removeAll(into pieces: inout [Lot]) {
        pieces.append(contentsOf: lots[head...])
        lots.removeAll(keepingCapacity: true)
        head = 0
    }

    func forEachLot(_ body: (Lot) -> Void) {
        for lot in lots[head...] { body(lot) }
    }
}

/// First in, first out: the earliest acquired lots leave first.
struct FIFOLots: LotMethod {
    private var lots = AcquisitionOrderedLots()
    mutating func add(_ lot: Lot) { lots.insert(lot) }
    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) { lots.removeFromFront(units, into: &pieces) }
    mutating func removeAll(into pieces: inout [Lot]) { lots.removeAll(into: &pieces) }
    func forEachLot(_ body: (Lot) -> Void) { lots.forEachLot(body) }
}

/// Last in, first out: the latest acquired lots leave first.
struct LIFOLots: LotMethod {
    private var lots = AcquisitionOrderedLots()
    mutating func add(_ lot: Lot) { lots.insert(lot) }
    mutating func remove(_ units: PreciseDecimal, into pieces: inout [Lot]) { lots.removeFromBack(units, into: &pieces) }
    mutating func removeAll(into pieces: inout [Lot]) { lots.removeAll(into: &pieces) }
    func forEachLot(_ body: (Lot) -> Void) { lots.forEachLot(body) }
}
