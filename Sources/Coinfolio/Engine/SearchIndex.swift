/// The coin search of one snapshot (SPEC §10: a substring of the name, symbol or id, compared in
/// `SearchText.fold` form), built once per snapshot on its first search (SPEC §22: a search over
/// 100,000 coins under 1 ms).
///
/// Holds every coin's `name \0 symbol \0 id`, folded, in one contiguous buffer, and a trigram
/// index over it: for each sequence of three bytes without a `\0`, the positions of the coins
/// whose text holds it, ascending, all lists in one array. A needle of three bytes or more reads
/// the shortest list among its trigrams (a needle of exactly three is that list) and checks only
/// those coins; a shorter needle, or one holding `\0`, scans the buffer. Its memory at 100,000
/// coins is in BENCHMARKS.md ("Queries").
struct SearchIndex: Sendable {
    /// Every coin's folded text, one after the other.
    private let text: [UInt8]
    /// Where each coin's text starts in `text`; one more entry, the end.
    private let starts: [Int]
    /// Each trigram's list in `postings`: its start in the high 32 bits, its length in the low.
    private let lists: [UInt32: UInt64]
    /// Coin positions, list after list, each list ascending.
    private let postings: [Int32]

    /// `texts[position]` is the folded text of the coin at `position`.
    init(texts: [[UInt8]]) {
        var text: [UInt8] = []
        text.reserveCapacity(texts.reduce(0) { $0 + $1.count })
        var starts: [Int] = []
        starts.reserveCapacity(texts.count + 1)
        var building: [UInt32: [Int32]] = [:]
        for (position, haystack) in texts.enumerated() {
            starts.append(text.count)
            text.append(contentsOf: haystack)
            let coin = Int32(truncatingIfNeeded: position)
            Self.forEachTrigram(haystack) { key in
                building[key, default: []].appendUnlessLast(coin)
            }
        }
        starts.append(text.count)
        var lists: [UInt32: UInt64] = [:]
        lists.reserveCapacity(building.count)
        var postings: [Int32] = []
        postings.reserveCapacity(building.values.reduce(0) { $0 + $1.count })
        for (key, list) in building {
            lists[key] = UInt64(postings.count) << 32 | UInt64(list.count)
            postings.append(contentsOf: list)
        }
        self.text = text
        self.starts = starts
        self.lists = lists
        self.postings = postings
    }

    /// The positions of the coins whose text contains `needle` (not empty), in the order of
    /// `order` (a permutation of every position), given `rank` (its inverse: `rank[order[i]] == i`).
    func matches(_ needle: [UInt8], order: [Int], rank: [Int32]) -> [Int] {
        guard needle.count >= 3, !needle.contains(0) else {
            return order.filter { contains(coin: $0, needle) }
        }
        var shortest: ArraySlice<Int32>?
        var missing = false
        Self.forEachTrigram(needle) { key in
            guard !missing else { return }
            guard let list = lists[key] else {
                missing = true
                return
            }
            let start = Int(list >> 32)
            let found = postings[start..<start + Int(list & 0xFFFF_FFFF)]
            if shortest.map({ found.count < $0.count }) ?? true { shortest = found }
        }
        guard !missing, let shortest else { return [] }
        let found: [Int] =
            needle.count == 3
            ? shortest.map { Int($0) } : Array(shortest.lazy.map { Int($0) }.filter { contains(coin: $0, needle) })
        // Many matches: one pass over the order; few: sort them by their place in it.
        if found.count * 8 > order.count {
            var hit = [Bool](repeating: false, count: order.count)
            for position in found { hit[position] = true }
            return order.filter { hit[$0] }
        }
        return found.sorted { rank[$0] < rank[$1] }
    }

    /// Whether the text of the coin at `position` contains `needle` (not empty).
    private func contains(coin position: Int, _ needle: [UInt8]) -> Bool {
        let start = starts[position]
        let end = starts[position + 1]
        let count = needle.count
        guard count <= end - start else { return false }
        return text.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let first = n[0]
                var at = start
                let last = end - count
                while at <= last {
                    if h[at] == first {
                        var matched = 1
                        while matched < count, h[at + matched] == n[matched] { matched += 1 }
                        if matched == count { return true }
                    }
                    at += 1
                }
                return false
            }
        }
    }

    /// Calls `body` with each trigram of `bytes` that holds no `\0`, as a key.
    @inline(__always) private static func forEachTrigram(_ bytes: [UInt8], _ body: (UInt32) -> Void) {
        guard bytes.count >= 3 else { return }
        bytes.withUnsafeBufferPointer { b in
            for at in 0..<(b.count - 2) {
                let first = b[at]
                let second = b[at + 1]
                let third = b[at + 2]
                if first == 0 || second == 0 || third == 0 { continue }
                body(UInt32(first) << 16 | UInt32(second) << 8 | UInt32(third))
            }
        }
    }
}

extension Array where Element == Int32 {
    /// Appends `value` unless it is already the last element (a coin's repeated trigram).
    fileprivate mutating func appendUnlessLast(_ value: Int32) {
        if last != value { append(value) }
    }
}
