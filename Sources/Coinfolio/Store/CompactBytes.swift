/// The compact stored forms (`SnapshotCodec`, `MarketDataCodec`, `CoinDetailCodec`): records
/// read back without a JSON parse. Little-endian: a record starts with a u64 presence mask, then
/// its fields in a fixed order, an optional one written only when its mask bit is set; strings as
/// u32 length + UTF-8, numbers as IEEE-754 doubles (every bit kept), integers as i64.
struct CompactWriter {
    var bytes: [UInt8] = []
    private var maskOffset = 0
    private var mask: UInt64 = 0
    private var bit = 0

    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func beginRecord() {
        maskOffset = bytes.count
        mask = 0
        bit = 0
        u64(0)
    }

    mutating func endRecord() {
        withUnsafeBytes(of: mask.littleEndian) { raw in
            for index in 0..<8 { bytes[maskOffset + index] = raw[index] }
        }
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            u32(UInt32(truncatingIfNeeded: utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func flag(_ set: Bool) {
        if set { mask |= 1 << UInt64(bit) }
        bit += 1
    }

    mutating func optional(_ text: String?) {
        flag(text != nil)
        if let text { string(text) }
    }

    mutating func optional(_ value: Double?) {
        flag(value != nil)
        if let value { u64(value.bitPattern) }
    }

    mutating func optional(_ value: Int64?) {
        flag(value != nil)
        if let value { u64(UInt64(bitPattern: value)) }
    }

    /// A map of numbers: u32 count, then each key (bytewise order) and its value.
    mutating func optional(_ map: [String: Double]?) {
        flag(map != nil)
        guard let map else { return }
        u32(UInt32(truncatingIfNeeded: map.count))
        for (key, value) in map.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            string(key)
            u64(value.bitPattern)
        }
    }

    /// A list of strings: u32 count, then each.
    mutating func strings(_ list: [String]) {
        u32(UInt32(truncatingIfNeeded: list.count))
        for text in list { string(text) }
    }
}

/// Reads what `CompactWriter` wrote, bounds-checked: a truncated or foreign blob throws
/// `corrupt`, never traps.
struct CompactReader {
    let bytes: UnsafeRawBufferPointer
    /// The error a damaged blob throws.
    let corrupt: CoinfolioError
    var offset = 0
    private var mask: UInt64 = 0
    private var bit = 0

    init(bytes: UnsafeRawBufferPointer, corrupt: CoinfolioError) {
        self.bytes = bytes
        self.corrupt = corrupt
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func u32() throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw corrupt }
        defer { offset += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func u64() throws -> UInt64 {
        guard bytes.count - offset >= 8 else { throw corrupt }
        defer { offset += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func beginRecord() throws {
        mask = try u64()
        bit = 0
    }

    mutating func string() throws -> String {
        let count = Int(try u32())
        guard bytes.count - offset >= count else { throw corrupt }
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
    }

    mutating func skipString() throws {
        let count = Int(try u32())
        guard bytes.count - offset >= count else { throw corrupt }
        offset += count
    }

    mutating func skipOptionalString() throws { if flag() { try skipString() } }

    mutating func flag() -> Bool {
        defer { bit += 1 }
        return mask & (1 << UInt64(bit)) != 0
    }

    mutating func optionalString() throws -> String? { flag() ? try string() : nil }
    mutating func optionalDouble() throws -> Double? { flag() ? Double(bitPattern: try u64()) : nil }
    mutating func optionalInt() throws -> Int64? { flag() ? Int64(bitPattern: try u64()) : nil }

    /// A map `CompactWriter.optional(_: [String: Double]?)` wrote, or nil.
    mutating func optionalMap() throws -> [String: Double]? {
        guard flag() else { return nil }
        let count = Int(try u32())
        // Each entry takes at least 12 bytes: a bad count cannot reserve absurd memory.
        guard count <= (bytes.count - offset) / 12 else { throw corrupt }
        var map = [String: Double](minimumCapacity: count)
        for _ in 0..<count { map[try string()] = Double(bitPattern: try u64()) }
        return map
    }

    /// A list `CompactWriter.strings` wrote.
    mutating func strings() throws -> [String] {
        let count = Int(try u32())
        guard count <= (bytes.count - offset) / 4 else { throw corrupt }
        var list: [String] = []
        list.reserveCapacity(count)
        for _ in 0..<count { list.append(try string()) }
        return list
    }
}
