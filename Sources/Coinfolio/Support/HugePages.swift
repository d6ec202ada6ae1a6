#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Large blocks the library fills right after allocating them (a 100,000-coin load's merged rows,
/// a large answer): on Linux they are marked for transparent huge pages before their first write,
/// so the system maps them 2 MB at a time rather than in 4 KB page faults (which were about a
/// tenth of that load, issue 30). Memory stays the caller's; only whole 2 MB pages inside the
/// block are marked, so nothing outside it changes. Elsewhere, and for blocks under 8 MB, nothing.
enum HugePages {
    /// Marks the whole 2 MB pages inside `count` bytes from `base` (not yet written).
    static func advise(_ base: UnsafeMutableRawPointer?, _ count: Int) {
        #if os(Linux)
            let huge = 1 << 21
            guard count >= 4 * huge, let base else { return }
            let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: base) + count) & ~(huge - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        #endif
    }

    /// Makes room for `capacity` elements in `array` and, when that allocated a new block, marks it.
    static func reserve<Element>(_ array: inout [Element], _ capacity: Int) {
        guard capacity > array.capacity else { return }
        array.reserveCapacity(capacity)
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard bytes >= 4 << 21 else { return }
        // The block's first element, written or not (the count may be 0 here).
        array.withUnsafeMutableBufferPointer { buffer in
            advise(UnsafeMutableRawPointer(buffer.baseAddress), bytes)
        }
    }
}
