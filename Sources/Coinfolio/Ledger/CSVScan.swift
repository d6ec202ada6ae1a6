/// `CSVReader.nextByteRecord`'s fast path: a record read from the chunk in one pass, eight bytes
/// at a time, when it is the plain kind nearly every export's row is — every byte ASCII, every
/// field unquoted or quoted without a doubled quote or a line break, no stray quote, the line end
/// (and the byte after a CR) within the chunk, the record within its bound. Anything else answers
/// nil and the reader reads the record again from its start byte by byte, so every other record,
/// and every error with its line and field, is the byte-by-byte reader's.
enum CSVScan {
    private static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let high: UInt64 = 0x8080_8080_8080_8080
    private static let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
    private static let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    private static let returns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
    private static let quotes: UInt64 = 0x2222_2222_2222_2222

    /// High bit clear in each byte of the result where `word`'s byte equals the pattern's (exact,
    /// no carry between bytes): `(x & 0x7F…) + 0x7F… | x` has the high bit clear only for a 0 byte.
    @inline(__always)
    private static func misses(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let x = word ^ pattern
        return ((x & low7) &+ low7) | x
    }

    /// The eight bytes at `offset`, the first in the lowest bits.
    @inline(__always)
    private static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The first comma, LF, CR or quote in `b` at or after `start`; `b.count` when none.
    @inline(__always)
    private static func unquotedEnd(_ b: UnsafeBufferPointer<UInt8>, _ base: UnsafeRawPointer, from start: Int) -> Int {
        var at = start
        while at + 8 <= b.count {
            let w = word(base, at)
            let hits = ~(misses(w, commas) & misses(w, lineFeeds) & misses(w, returns) & misses(w, quotes)) & high
            if hits != 0 { return at + hits.trailingZeroBitCount >> 3 }
            at += 8
        }
        while at < b.count {
            let byte = b[at]
            if byte == 0x2C || byte == 0x0A || byte == 0x0D || byte == 0x22 { return at }
            at += 1
        }
        return at
    }

    /// The first quote or LF in `b` at or after `start`; `b.count` when none.
    @inline(__always)
    private static func quotedEnd(_ b: UnsafeBufferPointer<UInt8>, _ base: UnsafeRawPointer, from start: Int) -> Int {
        var at = start
        while at + 8 <= b.count {
            let w = word(base, at)
            let hits = ~(misses(w, quotes) & misses(w, lineFeeds)) & high
            if hits != 0 { return at + hits.trailingZeroBitCount >> 3 }
            at += 8
        }
        while at < b.count {
            let byte = b[at]
            if byte == 0x22 || byte == 0x0A { return at }
            at += 1
        }
        return at
    }

    /// Whether every byte of `b[range]` is ASCII.
    @inline(__always)
    private static func isASCII(_ b: UnsafeBufferPointer<UInt8>, _ base: UnsafeRawPointer, _ range: Range<Int>) -> Bool {
        var at = range.lowerBound
        var seen: UInt64 = 0
        while at + 8 <= range.upperBound {
            seen |= word(base, at)
            at += 8
        }
        while at < range.upperBound {
            seen |= UInt64(b[at])
            at += 1
        }
        return seen & high == 0
    }

    /// The fields of the plain record starting at `start` in `b` (where each lies) and the
    /// position after its line end; nil for any other record. `bound`: the reader's
    /// `maximumRecordBytes`; `width`: the fields expected (the array's capacity).
    static func plainRecord(_ b: UnsafeBufferPointer<UInt8>, from start: Int, bound: Int, width: Int) -> (
        ranges: [Range<Int>], end: Int
    )? {
        guard let pointer = b.baseAddress, start < b.count else { return nil }
        let base = UnsafeRawPointer(pointer)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(width)
        var at = start
        while true {
            // `at` is the field's first byte; `after` the byte that ends it.
            let after: Int
            if at < b.count, b[at] == 0x22 {
                let close = quotedEnd(b, base, from: at + 1)
                // A line break inside, no closing quote in the chunk, or the byte after it not in the chunk.
                guard close + 1 < b.count, b[close] == 0x22 else { return nil }
                ranges.append(at + 1..<close)
                after = close + 1
            } else {
                let end = unquotedEnd(b, base, from: at)
                guard end < b.count, b[end] != 0x22 else { return nil }
                ranges.append(at..<end)
                after = end
            }
            guard after < b.count else { return nil }
            switch b[after] {
            case 0x2C:
                at = after + 1
                if at >= b.count { return nil }
            case 0x0A:
                return finish(b, base, start, after + 1, bound, ranges)
            case 0x0D:
                guard after + 1 < b.count else { return nil }
                return finish(b, base, start, b[after + 1] == 0x0A ? after + 2 : after + 1, bound, ranges)
            default:
                return nil  // text after a closing quote (or a doubled quote)
            }
        }
    }

    /// The record of `ranges` ending at `end`, if within `bound` and ASCII.
    @inline(__always)
    private static func finish(
        _ b: UnsafeBufferPointer<UInt8>, _ base: UnsafeRawPointer, _ start: Int, _ end: Int, _ bound: Int, _ ranges: [Range<Int>]
    ) -> (ranges: [Range<Int>], end: Int)? {
        // The reader's count: the fields' bytes and one separator between each two.
        var bytes = ranges.count - 1
        for range in ranges { bytes += range.count }
        guard bytes <= bound, isASCII(b, base, start..<end) else { return nil }
        return (ranges, end)
    }
}
