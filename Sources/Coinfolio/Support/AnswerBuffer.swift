#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A large answer (`realized`'s tens of megabytes) written into malloc'd memory that the C caller
/// receives as it is, released by `cf_string_free`: no array of the answer's size beside it and no
/// copy into the caller's string. A writer appends to a small array and moves it here every
/// `chunk` bytes or so (`move(_:)`), so what it writes per value stays in the
/// cache and each byte of the answer is stored once.
@_spi(ABI) public final class AnswerBuffer {
    /// How many bytes a writer gathers before moving them here.
    static let chunk = 1 << 16

    private var base: UnsafeMutablePointer<UInt8>?
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0
    /// Growing the memory failed: `take` answers nil.
    private var failed = false

    /// An empty answer with room for about `expected` bytes (memory the answer never reaches is
    /// never touched: the system maps large blocks page by page as they are written).
    @_spi(ABI) public init(expected: Int) {
        capacity = max(expected, Self.chunk) + 1
        base = malloc(capacity)?.assumingMemoryBound(to: UInt8.self)
        failed = base == nil
        // 2 MB pages over a large answer (a hint): the tens of megabytes of `realized` are
        // otherwise faulted in 4 KB at a time, about a fifth of the call.
        HugePages.advise(UnsafeMutableRawPointer(base), capacity)
    }

    deinit { free(base) }

    /// Makes room for `extra` more bytes (growing the memory by doubling when they do not fit);
    /// false when memory ran out.
    private func makeRoom(_ extra: Int) -> Bool {
        guard !failed else { return false }
        // One byte is kept for the terminating NUL.
        if count + extra + 1 > capacity {
            let wanted = max(capacity * 2, count + extra + 1)
            guard let grown = realloc(base, wanted) else {
                failed = true
                return false
            }
            base = grown.assumingMemoryBound(to: UInt8.self)
            capacity = wanted
            HugePages.advise(UnsafeMutableRawPointer(base), capacity)
        }
        return true
    }

    /// A cursor at the end of the answer with room for `room` bytes (nil when memory ran out):
    /// what is written there counts once `advance(past:)` is given it (a row of `realized` goes
    /// straight into the answer: no array in between, no copy of the row).
    func cursor(room: Int) -> ByteCursor? {
        guard makeRoom(room), let base else { return nil }
        return ByteCursor(base + count)
    }

    /// Counts what was written at `cursor` (from `cursor(room:)`, nothing else written since).
    func advance(past cursor: ByteCursor) { count += cursor.count }

    /// Appends `bytes` (growing the memory by doubling when they do not fit).
    func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, makeRoom(bytes.count), let base else { return }
        bytes.withUnsafeBufferPointer { source in
            if let from = source.baseAddress { (base + count).update(from: from, count: source.count) }
        }
        count += bytes.count
    }

    /// Appends `bytes` and empties them, keeping their capacity for the next chunk.
    func move(_ bytes: inout [UInt8]) {
        append(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The answer, NUL-terminated, now the caller's to `free`; nil when memory ran out (once taken,
    /// the buffer is empty).
    @_spi(ABI) public func take() -> UnsafeMutablePointer<CChar>? {
        guard !failed, let base else { return nil }
        base[count] = 0
        self.base = nil
        capacity = 0
        count = 0
        return UnsafeMutableRawPointer(base).assumingMemoryBound(to: CChar.self)
    }
}
