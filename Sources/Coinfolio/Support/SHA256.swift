/// SHA-256 (FIPS 180-4), for the external ids of imported rows that carry no id of their own
/// (SPEC §18: `"<format>:"` + the first 32 hex digits of SHA-256 over the row's cells).
///
/// Written out here (64 rounds over 64-byte blocks, big-endian words) rather than taken from a C
/// library: SPEC §21's build with both traits off links SQLite and nothing else (what an iOS or
/// macOS app links), and imports are in that build; Foundation on Linux has no CryptoKit, and no
/// Swift package can be fetched. `SHA256Tests` checks it against the examples of FIPS 180-4 and
/// NIST's test vectors.
struct SHA256 {
    /// A digest (or the running state) as its eight 32-bit words; the digest's bytes are each
    /// word big-endian, in order.
    typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    private static let initial: Words = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var state: Words = Self.initial
    /// Bytes not yet hashed (fewer than 64).
    private var pending: [UInt8] = []
    /// Bytes fed so far.
    private var length: UInt64 = 0

    init() { pending.reserveCapacity(64) }

    /// Feeds bytes.
    mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        // Bytes in one piece of memory (an array, a native string's UTF-8): whole blocks are
        // compressed where they lie, only the ends go through `pending`.
        if bytes.withContiguousStorageIfAvailable({ update(contiguous: $0) }) != nil { return }
        length &+= UInt64(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let take = bytes.index(index, offsetBy: 64 - pending.count, limitedBy: bytes.endIndex) ?? bytes.endIndex
            pending.append(contentsOf: bytes[index..<take])
            index = take
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// `update` over bytes in memory: the same blocks in the same order as byte by byte.
    private mutating func update(contiguous bytes: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<take]))
            start = take
            guard pending.count == 64 else { return }
            compress(pending)
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - start >= 64 {
            compress(UnsafeBufferPointer(rebasing: bytes[start..<start + 64]))
            start += 64
        }
        if start < bytes.count { pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
    }

    /// The 32-byte digest of everything fed (the hasher is used up).
    consuming func finish() -> [UInt8] { Self.bytes(finishWords()) }

    /// `finish`'s digest as its words.
    consuming func finishWords() -> Words {
        let bits = length &* 8
        pending.append(0x80)
        if pending.count > 56 {
            pending.append(contentsOf: repeatElement(0, count: 64 - pending.count))
            compress(pending)
            pending.removeAll(keepingCapacity: true)
        }
        pending.append(contentsOf: repeatElement(0, count: 56 - pending.count))
        for shift in stride(from: 56, through: 0, by: -8) { pending.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        compress(pending)
        return state
    }

    /// The bytes a hash of `count` bytes pads to: the bytes, 0x80, zeros, the 8-byte bit length,
    /// in whole 64-byte blocks.
    static func paddedCount(_ count: Int) -> Int { (count + 8) / 64 * 64 + 64 }

    /// The digest of the first `count` bytes of `buffer`, padded in place: the padding is written
    /// after them (`buffer` must hold `paddedCount(count)` bytes; a shorter one is hashed through
    /// `update`) and every block compressed where it lies — no array made, as `update` and
    /// `finish` make for their pending bytes and their answer.
    static func words(paddingInPlace buffer: UnsafeMutableBufferPointer<UInt8>, count: Int) -> Words {
        let padded = paddedCount(count)
        guard count >= 0, buffer.count >= padded, let base = buffer.baseAddress else {
            var hasher = SHA256()
            hasher.update(UnsafeBufferPointer(rebasing: buffer[..<min(max(count, 0), buffer.count)]))
            return hasher.finishWords()
        }
        base[count] = 0x80
        (base + count + 1).initialize(repeating: 0, count: padded - 8 - count - 1)
        let bits = UInt64(count) &* 8
        for index in 0..<8 { base[padded - 8 + index] = UInt8(truncatingIfNeeded: bits >> UInt64(56 - 8 * index)) }
        var state = Self.initial
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.k.withUnsafeBufferPointer { k in
                for start in stride(from: 0, to: padded, by: 64) {
                    compress(&state, UnsafeBufferPointer(start: base + start, count: 64), w, k)
                }
            }
        }
        return state
    }

    /// A digest's 32 bytes.
    static func bytes(_ words: Words) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
            func put(_ word: UInt32, _ at: Int) {
                digest[at] = UInt8(truncatingIfNeeded: word >> 24)
                digest[at + 1] = UInt8(truncatingIfNeeded: word >> 16)
                digest[at + 2] = UInt8(truncatingIfNeeded: word >> 8)
                digest[at + 3] = UInt8(truncatingIfNeeded: word)
            }
            put(words.0, 0)
            put(words.1, 4)
            put(words.2, 8)
            put(words.3, 12)
            put(words.4, 16)
            put(words.5, 20)
            put(words.6, 24)
            put(words.7, 28)
            count = 32
        }
    }

    /// The digest of `bytes` as lower-case hex.
    static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hex(digest: hasher.finish())
    }

    /// Bytes as lower-case hex.
    static func hex<C: Collection>(digest: C) -> String where C.Element == UInt8 {
        String(unsafeUninitializedCapacity: digest.count * 2) { text in
            var at = 0
            for byte in digest {
                text[at] = hexDigit(byte >> 4)
                text[at + 1] = hexDigit(byte & 0x0F)
                at += 2
            }
            return at
        }
    }

    /// The lower-case hex digit of `value` (0…15).
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private mutating func compress(_ block: [UInt8]) {
        block.withUnsafeBufferPointer { compress($0) }
    }

    private mutating func compress(_ block: UnsafeBufferPointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.k.withUnsafeBufferPointer { Self.compress(&state, block, w, $0) }
        }
    }

    private static func compress(
        _ state: inout Words, _ block: UnsafeBufferPointer<UInt8>, _ w: UnsafeMutableBufferPointer<UInt32>,
        _ k: UnsafeBufferPointer<UInt32>
    ) {
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
            let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        // Eight rounds a turn, the letters' roles passed along instead of the eight values moved
        // each round (`round` writes the new e into `d` and the new a into `h`).
        var i = 0
        while i < 64 {
            round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
            round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
            i += 8
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }

    /// One round: T1 = h + Σ1(e) + Ch(e, f, g) + K[i] + W[i], T2 = Σ0(a) + Maj(a, b, c); then
    /// d + T1 is the next e and T1 + T2 the next a.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ kw: UInt32
    ) {
        let t1 = h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) | (c & (a | b)))
        d &+= t1
        h = t1 &+ t2
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
