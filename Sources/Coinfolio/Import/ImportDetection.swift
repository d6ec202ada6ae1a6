import Foundation

/// Finds a file's format and variant from its header (SPEC §18 "detection"): the first record,
/// or — for variants known to write a preamble (Coinbase's) — one of the first
/// `preambleLimit` records. Of the variants whose columns a header holds, the one with the most
/// columns wins (Kraken's `ledgers_wallet` over `ledgers`).
enum ImportDetection {
    /// Every exchange variant, each importer's own list in turn.
    static let variants: [ImportVariant] =
        CoinbaseImporter.variants + BinanceTradeHistoryImporter.variants + BinanceStatementImporter.variants
        + KrakenImporter.variants + CoinTrackingImporter.variants + KoinlyImporter.variants

    /// How many records a preamble may hold before the header.
    static let preambleLimit = 20

    /// What the header is.
    enum Found {
        /// Coinfolio's own ledger CSV (read from the start again by `LedgerCSVRows`).
        case coinfolio
        /// An exchange variant; the reader stands after the header.
        case exchange(ImportHeader)
    }

    /// Reads records until a header of `format` (any format for nil) is found.
    /// - Throws: `.invalidArgument` with details `{reason: "unknown_format", header: [the first
    ///   record's cells], formats: [every format's name]}` when none is; a CSV syntax error with
    ///   its line.
    static func detect(_ reader: inout CSVReader, format: ImportFormat?) throws -> Found {
        var first: [String]?
        // The first record is one cell that ';' splits into 3 or more, and no known header.
        var semicolons = false
        for attempt in 0..<preambleLimit {
            guard let record = try LedgerCSVRows.record(&reader) else { break }
            let cells = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            if attempt == 0 {
                first = cells
                if format == nil || format == .coinfolio, isCoinfolio(cells) { return .coinfolio }
                // A header written with ';' (a spreadsheet's European setting): the coinfolio
                // format says so itself; an exchange's is refused saying so.
                if cells.count == 1, cells[0].contains(";") {
                    let split = cells[0].split(separator: ";", omittingEmptySubsequences: false).map {
                        $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
                    }
                    if format == nil || format == .coinfolio, isCoinfolio(split) { return .coinfolio }
                    if variants.contains(where: {
                        (format == nil || $0.format == format) && ImportHeader(cells: split, line: record.line, variant: $0) != nil
                    }) {
                        var error = unknownFormat(header: cells, asked: format)
                        error.message = "line \(record.line): the separator must be a comma, not \";\" (export the file again with commas)"
                        error.details[.line] = .number(Double(record.line))
                        throw error
                    }
                    semicolons = split.count >= 3  // a header's cells, not a title line's "Report; …"
                }
            }
            let matches = variants.filter { (format == nil || $0.format == format) && (attempt == 0 || $0.hasPreamble) }
                .compactMap { ImportHeader(cells: cells, line: record.line, variant: $0) }
            if let best = matches.max(by: { $0.variant.columns.count < $1.variant.columns.count }) { return .exchange(best) }
        }
        var error = unknownFormat(header: first ?? [], asked: format)
        if semicolons { error.message += "; its cells are separated by \";\" where a comma belongs" }
        throw error
    }

    /// Whether a header is Coinfolio's ledger CSV: only its columns, each at most once, the
    /// required ones there.
    static func isCoinfolio(_ cells: [String]) -> Bool {
        Set(cells).count == cells.count && cells.allSatisfy { LedgerCSV.columns.contains($0) || LedgerCSV.currencyColumns.contains($0) }
            && LedgerCSV.required.allSatisfy { cells.contains($0) }
    }

    /// The refusal of a header no format (or not `asked`) knows.
    static func unknownFormat(header: [String], asked: ImportFormat?) -> CoinfolioError {
        let known = ImportFormat.allCases.map(\.rawValue)
        let shown = header.prefix(12).joined(separator: ",")
        let message =
            header.isEmpty
            ? "the file has no header"
            : asked.map { "the header \"\(shown)\" is not one of \($0.rawValue)'s" }
                ?? "the header \"\(shown)\" is no format Coinfolio reads (\(known.joined(separator: ", ")))"
        return CoinfolioError(
            .invalidArgument, message, reason: .unknownFormat,
            details: [
                .header: .array(header.map { .string($0) }),
                .formats: .array(known.map { .string($0) }),
            ])
    }

}
