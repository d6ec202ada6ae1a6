/// One data row of an exchange file, read cell by cell: every refusal names the row's physical
/// line and the column's title as the header writes it (`details.line`, `details.column`, SPEC
/// §12 and §18).
struct ImportRow: Sendable {
    /// The cells, in header order.
    let cells: [String]
    /// The physical line where the record starts (1-based, preamble lines included).
    let line: Int

    /// The cell of `field`, spaces trimmed.
    func text(_ field: ImportHeader.Field) -> String {
        let cell = cells[field.index]
        // The first and last byte from the bytes in memory (UTF8View's `last` walks back generically).
        let edges = cell.utf8.withContiguousStorageIfAvailable { ($0.first, $0.last) } ?? (cell.utf8.first, cell.utf8.last)
        guard edges.0 == 0x20 || edges.1 == 0x20 else { return cell }
        return String(cell.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    /// The number in `field` in `form`; nil when the cell is empty.
    /// - Throws: `.invalidArgument` at this line and column.
    func number(_ field: ImportHeader.Field, _ form: NumberForm, suffixes: [String] = []) throws -> ImportNumber.Read? {
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
    var isEmpty: Bool { cells.allSatisfy { $0.utf8.allSatisfy { $0 == 0x20 } } }
}
