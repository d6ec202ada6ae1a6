/// The external ids of imported rows (SPEC §18 "idempotent"): `"<format>:<the exchange's row
/// id>"` where the file has one (Coinbase's ID, Kraken's refid), else `"<format>:"` + the first
/// 32 hex digits of SHA-256 over the row's cells. Importing the same file again, or a later
/// export that overlaps it, then finds every old row's id and imports only the new ones.
///
/// The hashed bytes: each cell's UTF-8 as the file writes it (after CSV unquoting, before any
/// trimming), cells separated by U+001F and rows (for an entry made of several rows, in file
/// order) by U+001E. Rows that are the same cell for cell (two fills of one order in the same
/// second at the same price) are told apart by their count: for the n-th such row (n ≥ 2) of a
/// file, SHA-256 over the first digest's 64 hex digits, U+001D and n (decimal) — so re-importing
/// the file, or an export that holds the same rows, finds the same ids.
struct ImportExternalID: Sendable {
    /// The format, the ids' prefix.
    let format: ImportFormat
    /// How many times each digest (its first 128 bits) was met in this file.
    private var seen: [Digest: Int] = [:]

    /// The first 128 bits of a digest: what tells rows apart.
    private struct Digest: Hashable {
        let high: UInt64
        let low: UInt64

        /// The first 16 bytes, big-endian: the first four words.
        init(_ words: SHA256.Words) {
            high = UInt64(words.0) << 32 | UInt64(words.1)
            low = UInt64(words.2) << 32 | UInt64(words.3)
        }
    }

    init(format: ImportFormat) { self.format = format }

    /// `"<format>:<id>"` for the exchange's own id of a row.
    func own(_ id: String) -> String { String(joining: format.rawValue, id, by: UInt8(ascii: ":")) }

    /// `own(row.text(field))`, written straight from the cell's bytes when they are ASCII (no
    /// `String` made for the cell: one string a row, not two).
    func own(_ row: ImportRow, _ field: ImportHeader.Field) -> String {
        var prefix = format.rawValue
        let written = prefix.withUTF8 { prefix in
            row.withASCII(field) { cell in
                String(unsafeUninitializedCapacity: prefix.count + 1 + cell.count) { text in
                    let raw = UnsafeMutableRawBufferPointer(text)
                    raw.copyMemory(from: UnsafeRawBufferPointer(prefix))
                    raw[prefix.count] = UInt8(ascii: ":")
                    UnsafeMutableRawBufferPointer(rebasing: raw[(prefix.count + 1)...]).copyMemory(from: UnsafeRawBufferPointer(cell))
                    return prefix.count + 1 + cell.count
                }
            }
        }
        return written ?? own(row.text(field))
    }

    /// `"<format>:"` + 32 hex digits of SHA-256 over `rows`' cells (the count appended from a
    /// repeated rows' second occurrence on).
    mutating func hashed(_ rows: [[String]]) -> String {
        var hasher = SHA256()
        for (index, row) in rows.enumerated() {
            if index > 0 { hasher.update(CollectionOfOne(UInt8(0x1E))) }
            for (position, cell) in row.enumerated() {
                if position > 0 { hasher.update(CollectionOfOne(UInt8(0x1F))) }
                hasher.update(cell.utf8)
            }
        }
        return identify(hasher.finishWords())
    }

    /// `hashed` over rows read as bytes (`CSVRecord`): the same bytes hashed — the cells and
    /// separators written into one buffer and fed at once (a dozen small feeds a row cost more
    /// than the hash's own blocks), without a `String` a cell.
    mutating func hashed(_ rows: [CSVRecord]) -> String {
        let total = rows.reduce(max(rows.count - 1, 0)) { $0 + $1.joinedCount }
        // The message and, after it, SHA-256's padding: hashed where it lies (no array).
        let digest = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256.paddedCount(total)) { message in
            var at = 0
            for (index, row) in rows.enumerated() {
                if index > 0 {
                    message[at] = 0x1E
                    at += 1
                }
                at += row.writeJoined(separator: 0x1F, into: UnsafeMutableBufferPointer(rebasing: message[at...]))
            }
            return SHA256.words(paddingInPlace: message, count: at)
        }
        return identify(digest)
    }

    /// The id of a row's first digest: counted, told apart from the rows met before.
    private mutating func identify(_ first: SHA256.Words) -> String {
        var digest = first
        // One lookup: the count raised in place.
        let count = Self.raise(&seen[Digest(first), default: 0])
        if count > 1 {
            var again = SHA256()
            again.update(SHA256.hex(digest: SHA256.bytes(digest)).utf8)  // the first digest stands for the cells
            again.update(CollectionOfOne(UInt8(0x1D)))
            again.update(String(count).utf8)
            digest = again.finishWords()
        }
        // `"<format>:"` and the first 16 bytes' hex, written once into the id.
        var prefix = format.rawValue
        return prefix.withUTF8 { prefix in
            String(unsafeUninitializedCapacity: prefix.count + 33) { text in
                var at = 0
                for byte in prefix {
                    text[at] = byte
                    at += 1
                }
                text[at] = UInt8(ascii: ":")
                at += 1
                func hex(_ word: UInt32) {
                    for shift in stride(from: 28, through: 0, by: -4) {
                        text[at] = SHA256.hexDigit(UInt8(truncatingIfNeeded: word >> UInt32(shift)) & 0x0F)
                        at += 1
                    }
                }
                hex(digest.0)
                hex(digest.1)
                hex(digest.2)
                hex(digest.3)
                return at
            }
        }
    }

    /// `count` + 1, kept and answered.
    private static func raise(_ count: inout Int) -> Int {
        count += 1
        return count
    }
}
