/// The Coinbase importer's readings of its usual cells over their bytes: the type, a Convert's
/// Notes, and the cells a row most often shares with the row before (its asset, its currency).
/// Each gives what the reading of the cell's text gives; anything else goes to that reading.
extension CoinbaseImporter {
    /// The Transaction Type cell lower-cased, as the importer's `switch` compares it: for the
    /// types it reads, written in ASCII in any case, the name itself (no `String` made, nothing
    /// lower-cased); else the cell's text lower-cased.
    static func kind(_ row: ImportRow, _ field: ImportHeader.Field) -> String {
        if let known = row.withASCII(field, { knownKind($0) }), let kind = known { return kind }
        return row.text(field).lowercased()
    }

    /// The type `cell` names, lower-case, when it is one the importer reads; nil otherwise.
    private static func knownKind(_ cell: UnsafeBufferPointer<UInt8>) -> String? {
        // `cell` equals `name` (lower-case letters and spaces) but for the case of its letters.
        func named(_ name: StaticString) -> Bool {
            guard name.utf8CodeUnitCount == cell.count else { return false }
            let letters = name.utf8Start
            for index in 0..<cell.count {
                let byte = cell[index]
                let letter = letters[index]
                guard byte == letter || (letter >= 0x61 && letter <= 0x7A && byte == letter - 0x20) else { return false }
            }
            return true
        }
        switch cell.count {
        case 3: return named("buy") ? "buy" : nil
        case 4: return named("sell") ? "sell" : named("send") ? "send" : nil
        case 7: return named("convert") ? "convert" : named("receive") ? "receive" : named("deposit") ? "deposit" : nil
        case 10: return named("withdrawal") ? "withdrawal" : nil
        case 13: return named("coinbase earn") ? "coinbase earn" : nil
        case 14: return named("staking income") ? "staking income" : named("rewards income") ? "rewards income" : nil
        case 15: return named("learning reward") ? "learning reward" : named("interest payout") ? "interest payout" : nil
        case 16: return named("inflation reward") ? "inflation reward" : nil
        case 18: return named("advanced trade buy") ? "advanced trade buy" : nil
        case 19: return named("advanced trade sell") ? "advanced trade sell" : nil
        default: return nil
        }
    }

    /// What a Convert received when its Notes are ASCII "Converted <amount> <coin> to <amount>
    /// <coin>" (words between spaces) and the amount received is a plain non-zero decimal with
    /// thousands separators: what `converted` reads from the words, without them. Nil for any
    /// other note, which `converted` reads (or refuses).
    static func convertedPlain(_ note: String) -> ImportedEntry.Asset? {
        var note = note
        return note.withUTF8 { bytes -> ImportedEntry.Asset? in
            // The six words' ranges; a seventh word, or a byte ≥ 0x80, and the note is not plain.
            var starts = (0, 0, 0, 0, 0, 0)
            var ends = (0, 0, 0, 0, 0, 0)
            var words = 0
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: " ") {
                    index += 1
                    continue
                }
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: " ") {
                    guard bytes[index] < 0x80 else { return nil }
                    index += 1
                }
                switch words {
                case 0: (starts.0, ends.0) = (start, index)
                case 3: (starts.3, ends.3) = (start, index)
                case 4: (starts.4, ends.4) = (start, index)
                case 5: (starts.5, ends.5) = (start, index)
                case 1, 2: break
                default: return nil
                }
                words += 1
            }
            func word(_ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[start..<end]) }
            func equals(_ cell: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
                cell.count == text.utf8CodeUnitCount && cell.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: cell.count))
            }
            guard words == 6, equals(word(starts.0, ends.0), "Converted"), equals(word(starts.3, ends.3), "to"),
                case .value(let amount) = ImportNumber.plain(word(starts.4, ends.4), .thousands), !amount.isZero
            else { return nil }
            return ImportedEntry.Asset(String(decoding: word(starts.5, ends.5), as: UTF8.self), amount)
        }
    }
}

/// The last cell of a column read and its reading: a row whose cell has the same bytes (spaces
/// trimmed, ASCII, at most 16 bytes) is answered with it, not read again. For readings that
/// depend on those bytes alone.
struct KeptCell<Value> {
    private var key: (UInt64, UInt64) = (0, 0)
    private var count = -1
    private var kept: Value?

    /// `read(row)`, or the kept reading when `field`'s cell is the kept one; a reading that
    /// throws is not kept.
    mutating func value(of field: ImportHeader.Field, in row: ImportRow, _ read: (ImportRow) throws -> Value) rethrows -> Value {
        let packed = row.withASCII(field) { cell -> (key: (UInt64, UInt64), count: Int)? in
            guard cell.count <= 16 else { return nil }
            var low: UInt64 = 0
            var high: UInt64 = 0
            for index in 0..<cell.count {
                if index < 8 {
                    low |= UInt64(cell[index]) << UInt64(8 * index)
                } else {
                    high |= UInt64(cell[index]) << UInt64(8 * (index - 8))
                }
            }
            return (key: (low, high), count: cell.count)
        }
        if let packed = packed ?? nil, packed.count == count, packed.key == key, let kept { return kept }
        let value = try read(row)
        if let packed = packed ?? nil { (key, count, kept) = (packed.key, packed.count, value) }
        return value
    }
}
