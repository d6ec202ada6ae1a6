/// The store's in-memory copy of its `holding` table, updated by its own writes in O(1): a list
/// with a position per id, sorted again (bytewise, as SQLite's BINARY collation) only when a
/// reader asks after an insert or a delete. The seed re-read every row after each save, and the
/// first release copied the whole sorted array on every write.
struct HoldingsCache {
    /// A coin id compared and hashed by its UTF-8 bytes, as SQLite compares: Swift's `==` on
    /// `String` would call NFC and NFD spellings of one id equal, and they are two rows.
    struct Key: Hashable {
        let text: String
        init(_ text: String) { self.text = text }
        static func == (a: Key, b: Key) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    private var list: [Holding]
    private var positions: [Key: Int]
    private var isSorted: Bool

    /// A cache of `holdings`, already sorted by coin id.
    init(sorted holdings: [Holding]) {
        list = holdings
        positions = Dictionary(minimumCapacity: holdings.count)
        for (index, holding) in holdings.enumerated() { positions[Key(holding.coinID)] = index }
        isSorted = true
    }

    /// Applies a committed write: amount > 0 sets the holding, ≤ 0 removes it.
    mutating func set(coinID: String, amount: Double) {
        let key = Key(coinID)
        if let index = positions[key] {
            if amount > 0 {
                list[index].amount = amount
                return
            }
            positions[key] = nil
            let last = list.count - 1
            if index != last {
                list[index] = list[last]
                positions[Key(list[index].coinID)] = index
                isSorted = false
            }
            list.removeLast()
        } else if amount > 0 {
            if isSorted, let last = list.last, !last.coinID.utf8.lexicographicallyPrecedes(coinID.utf8) { isSorted = false }
            positions[key] = list.count
            list.append(Holding(coinID: coinID, amount: amount))
        }
    }

    /// Every holding sorted by coin id, bytewise.
    mutating func sorted() -> [Holding] {
        if !isSorted {
            list.sort { $0.coinID.utf8.lexicographicallyPrecedes($1.coinID.utf8) }
            for (index, holding) in list.enumerated() { positions[Key(holding.coinID)] = index }
            isSorted = true
        }
        return list
    }
}
