/// Reads the data rows of an exchange file, once its header is found (`ImportDetection`), through
/// the variant's importer into the shared row model. Nothing here touches a database.
enum ImportReader {
    /// Every row after `header`, read by its variant's importer.
    /// - Parameter progress: called with the data rows read so far every 1,000 rows; what it
    ///   throws ends the read (an async import's cancellation).
    /// - Returns: the entries, ignored rows and warnings (one per column the header has that the
    ///   variant does not read, on the header's line, first).
    /// - Throws: `.invalidArgument` with `details.line` (and `details.column` for a cell): a row
    ///   of another width than the header, a broken cell, a CSV syntax error; what `progress` throws.
    static func read(_ reader: inout CSVReader, header: ImportHeader, progress: ((Int) throws -> Void)? = nil) throws -> ImportedFile {
        var file = ImportedFile(format: header.variant.format, variant: header.variant.name)
        for column in header.unreadColumns {
            file.warn(
                header.line,
                "column \"\(column)\" is not one the \(header.variant.format.rawValue) \(header.variant.name) format has; it is not read")
        }
        var importer = try header.variant.importer(header)
        let width = header.cells.count
        while let read = try LedgerCSVRows.byteRecord(&reader, names: header.cells) {
            let row = ImportRow(record: read.record, line: read.line)
            if row.isEmpty { continue }
            file.rowsRead += 1
            if file.rowsRead % 1000 == 0 { try progress?(file.rowsRead) }
            guard read.record.count == width else {
                throw row.error(nil, "the row has \(read.record.count) fields and the header \(width)")
            }
            try importer.read(row, into: &file)
        }
        try importer.finish(into: &file)
        return file
    }
}
