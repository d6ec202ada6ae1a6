import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The memory of the last large answer the caller gave back (`cf_string_free`), kept for the next
/// large answer: a `realized` answer of tens of megabytes otherwise lands on fresh memory at every
/// call, which the system zeroes page by page as it is first written (a tenth of the call). One
/// block at most is kept, and it is marked free to the system (`MADV_FREE` on Linux): under memory
/// pressure the system takes its pages back (the next answer then faults them in again, as
/// before); otherwise the next answer writes over them without a fault. Blocks under 8 MB are
/// freed at once (their pages are few).
@_spi(ABI) public enum SpareAnswer {
    /// The smallest block kept.
    static let smallest = 8 << 20
    /// The largest block kept.
    static let largest = 512 << 20

    private struct State {
        /// The large blocks handed to the caller and not yet given back: address → capacity.
        var lent: [Int: Int] = [:]
        /// The block kept: address and capacity.
        var spare: (address: Int, capacity: Int)?
    }
    private static let state = Mutex(State())

    /// The kept block and its capacity when it holds at least `capacity` bytes (it is then no
    /// longer kept); nil otherwise.
    static func take(atLeast capacity: Int) -> (base: UnsafeMutablePointer<UInt8>, capacity: Int)? {
        guard capacity >= smallest else { return nil }
        let taken: (address: Int, capacity: Int)? = state.withLock { state in
            guard let spare = state.spare, spare.capacity >= capacity else { return nil }
            state.spare = nil
            return spare
        }
        guard let taken, let base = UnsafeMutablePointer<UInt8>(bitPattern: taken.address) else { return nil }
        return (base, taken.capacity)
    }

    /// Notes that the malloc'd block at `base` of `capacity` bytes is now the caller's (a large
    /// one may come back through `giveBack`).
    static func lend(_ base: UnsafeMutableRawPointer, capacity: Int) {
        guard capacity >= smallest, capacity <= largest else { return }
        state.withLock { $0.lent[Int(bitPattern: base)] = capacity }
    }

    /// Frees `string` (from the library), or keeps it when it is a large answer's block (freeing
    /// the block kept before).
    @_spi(ABI) public static func giveBack(_ string: UnsafeMutableRawPointer?) {
        guard let string else { return }
        let address = Int(bitPattern: string)
        guard let capacity = state.withLock({ $0.lent.removeValue(forKey: address) }) else {
            free(string)
            return
        }
        // Marked before it is kept: once kept, another thread's answer may be writing it.
        markFree(string, capacity)
        let before = state.withLock { state in
            defer { state.spare = (address, capacity) }
            return state.spare?.address
        }
        if let before { free(UnsafeMutableRawPointer(bitPattern: before)) }
    }

    /// Lets the system take the whole pages inside the block back when it needs them.
    private static func markFree(_ base: UnsafeMutableRawPointer, _ count: Int) {
        #if os(Linux)
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            guard page > 0 else { return }
            let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
            let end = (Int(bitPattern: base) + count) & ~(page - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, end - start, MADV_FREE)
        #endif
    }
}
