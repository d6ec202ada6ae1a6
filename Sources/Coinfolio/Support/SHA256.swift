/// SHA-256 (FIPS 180-4), for the external ids of imported rows that carry no id of their own
/// (SPEC §18: `"<format>:"` + the first 32 hex digits of SHA-256 over the row's cells).
///
/// Written out here (64 rounds over 64-byte blocks, big-endian words) rather than taken from a C
/// library: SPEC §21's build with both traits off links SQLite and nothing else (what an iOS or
/// macOS app links), and imports are in that build; Foundation on Linux has no CryptoKit, and no
/// Swift package can be fetched. `SHA256Tests` checks it against the examples of FIPS 180-4 and
/// NIST's test vectors.
struct SHA256 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
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
    consuming func finish() -> [UInt8] {
        let bits = length &* 8
        pending.append(0x80)
        if pending.count > 56 {
            while pending.count < 64 { pending.append(0) }
            compress(pending)
            pending.removeAll(keepingCapacity: true)
        }
        while pending.count < 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { pending.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        compress(pending)
        let words = state
        return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
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
    private static func hexDigit(_ value: UInt8) -> UInt8 {
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
            Self.k.withUnsafeBufferPointer { compress(block, w, $0) }
        }
    }

    private mutating func compress(
        _ block: UnsafeBufferPointer<UInt8>, _ w: UnsafeMutableBufferPointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>
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
        for i in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choose = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choose &+ k[i] &+ w[i]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
