import Foundation

/// One data row of an exchange file, read cell by cell: every refusal names the row's physical
/// line and the column's title as the header writes it (`details.line`, `details.column`, SPEC
/// §12 and §18).
struct ImportRow: Sendable {
    /// The cells' bytes, in header order (a `String` is made only for a cell kept or told).
    let record: CSVRecord
    /// The physical line where the record starts (1-based, preamble lines included).
    let line: Int

    init(record: CSVRecord, line: Int) {
        self.record = record
        self.line = line
    }

    /// A row of these cells (tests).
    init(cells: [String], line: Int) { self.init(record: CSVRecord(cells), line: line) }

    /// The cells as text, in header order.
    var cells: [String] { record.strings }

    /// `body` over the bytes of `field`'s cell, spaces trimmed, when every byte is ASCII (its
    /// characters are then its bytes, and trimming bytes is trimming characters); nil otherwise.
    @inline(__always)
    func withASCII<Result>(_ field: ImportHeader.Field, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        try record.withField(field.index) { cell -> Result? in
            guard !cell.contains(where: { $0 >= 0x80 }) else { return nil }
            var start = 0
            var end = cell.count
            while start < end, cell[start] == 0x20 { start += 1 }
            while end > start, cell[end - 1] == 0x20 { end -= 1 }
            return try body(UnsafeBufferPointer(rebasing: cell[start..<end]))
        }
    }

    /// The cell of `field`, spaces trimmed.
    func text(_ field: ImportHeader.Field) -> String {
        if let ascii = withASCII(field, { String(decoding: $0, as: UTF8.self) }) { return ascii }
        let cell = record.string(field.index)
        guard cell.utf8.first == 0x20 || cell.utf8.last == 0x20 else { return cell }
        return String(cell.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    /// Whether `text(field) == other`, compared by bytes when both are ASCII (no `String`).
    func text(_ field: ImportHeader.Field, equals other: String) -> Bool {
        var other = other
        let bytes = other.withUTF8 { other in
            withASCII(field) { cell in !other.contains(where: { $0 >= 0x80 }) ? Self.sameBytes(cell, other) : nil } ?? nil
        }
        return bytes ?? (text(field) == other)
    }

    /// Whether `a` and `b` hold the same bytes: lengths, then one `memcmp` (the generic
    /// `elementsEqual` took ~550 instructions for a 19-byte time).
    private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }  // both empty
        return memcmp(x, y, a.count) == 0
    }

    /// The number in `field` in `form`; nil when the cell is empty.
    /// - Throws: `.invalidArgument` at this line and column.
    func number(_ field: ImportHeader.Field, _ form: NumberForm, suffixes: [String] = []) throws -> ImportNumber.Read? {
        // Most cells: a plain decimal or `$` money, read from the bytes (no `String`).
        switch withASCII(field, { ImportNumber.plain($0, form) }) ?? .other {
        case .empty: return nil
        case .value(let value): return ImportNumber.Read(value: value, suffix: nil)
        case .other: break
        }
        do { return try ImportNumber.read(text(field), form, suffixes: suffixes) } catch {
            throw self.error(field, error.message, reason: error.reason)
        }
    }

    /// The number in `field` in `form`, which must be there.
    /// - Throws: `.invalidArgument` at this line and column, also for an empty cell.
    func requiredNumber(_ field: ImportHeader.Field, _ form: NumberForm, suffixes: [String] = []) throws -> ImportNumber.Read {
        guard let read = try number(field, form, suffixes: suffixes) else { throw error(field, "\(field.title) is empty") }
        return read
    }

    /// The decimal in `field` in `form`, which must be there.
    func decimal(_ field: ImportHeader.Field, _ form: NumberForm) throws -> ExactDecimal {
        try requiredNumber(field, form).value
    }

    /// The time in `field` in `form`, in the header's offset when the cell states no zone.
    /// - Throws: `.invalidArgument` at this line and column.
    func time(_ field: ImportHeader.Field, _ form: ImportTime.Form, offset: Int64 = 0) throws -> Int64 {
        // Most cells: `2024-01-05 10:00:00` (or with ` UTC`), read from the bytes — first as
        // they are (a cell of that exact shape has no space to trim and no byte above ASCII),
        // then trimmed.
        if form == .iso,
            let time = record.withField(field.index, { ImportTime.plainISO($0, offset: offset) })
                ?? withASCII(field, { ImportTime.plainISO($0, offset: offset) }) ?? nil,
            time >= Transaction.earliestTimestamp, time <= Transaction.latestTimestamp
        {
            return time
        }
        let cell = text(field)
        guard let time = ImportTime.parse(cell, form, offset: offset),
            time >= Transaction.earliestTimestamp, time <= Transaction.latestTimestamp
        else {
            let example = form == .iso ? "2024-01-05 10:00:00" : "05.01.2024 10:00:00"
            throw error(field, "\"\(cell)\" is not a time like \(example)")
        }
        return time
    }

    /// The symbol in `field` (upper-cased), which must be there.
    /// - Throws: `.invalidArgument` at this line and column for an empty cell.
    func symbol(_ field: ImportHeader.Field) throws -> String {
        let cell = text(field)
        guard !cell.isEmpty else { throw error(field, "\(field.title) is empty") }
        return ImportedEntry.Asset.upperCased(cell)
    }

    /// A refusal of this row, at `field`'s column (or the row as a whole).
    func error(_ field: ImportHeader.Field?, _ message: String, reason: CoinfolioError.Reason? = nil) -> CoinfolioError {
        LedgerCSVRows.error(line: line, column: field?.title, message, reason: reason)
    }

    /// Whether every cell is empty (a separator line some exports write between sections).
    var isEmpty: Bool { record.isBlank }
}
