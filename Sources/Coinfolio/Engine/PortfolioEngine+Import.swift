import Foundation

/// Importing what exchanges and other trackers export (SPEC §18): the file's format detected or
/// named, its rows read into the shared row model (`Import/`), its symbols resolved, its entries
/// planned as ledger rows (§16) and written all or nothing in one database transaction.
extension PortfolioEngine {
    /// Imports a file's text.
    /// - Parameters:
    ///   - bytes: the file (UTF-8 CSV).
    ///   - options: format (nil: detected), portfolio, dry run, symbols.
    /// - Returns: what was (or, in a dry run, would be) written, skipped, ignored and warned about.
    /// - Throws: `.invalidArgument`: `details.reason` `unknown_format` (`header`, `formats`) for
    ///   a header no format knows; `unknown_symbols` (`symbols: [{symbol, candidates}]`) for
    ///   symbols nothing resolves (not in a dry run); `details.line` and `details.column` for a
    ///   broken cell, a row the ledger refuses, a repeated external id or a shortfall (`coin_id`,
    ///   `timestamp`, `short_by`); a bad option (`details.field`). `.store`. Nothing is written
    ///   on error. Never sends a request.
    public func importFile(_ bytes: UnsafeRawBufferPointer, options: ImportOptions = ImportOptions()) throws -> ImportReport {
        try importFile(options: options) { CSVReader(bytes: bytes) }
    }

    /// Imports a file, read from disk (the coinfolio format streams 64 KiB at a time; an exchange
    /// file's entries are kept until they are written). Same rules as `importFile(_:options:)`.
    /// - Throws: also `.invalidArgument` when the file is missing, is a folder or cannot be read,
    ///   or is a pipe or device that gives more than 512 MB (`CSVReader.streamLimit`).
    public func importFile(contentsOf url: URL, options: ImportOptions = ImportOptions()) throws -> ImportReport {
        var handles: [FileHandle] = []
        defer { for handle in handles { try? handle.close() } }
        return try importFile(options: options) {
            let handle = try Self.openForImport(url)
            handles.append(handle)
            // A pipe or device may never end: read at most `CSVReader.streamLimit` of it.
            return CSVReader(fileHandle: handle, path: url.path, limit: FileKind(path: url.path) == .regular ? nil : CSVReader.streamLimit)
        }
    }

    /// `importFile(_:options:)` with the options as JSON (SPEC §18: `{"format","portfolio",
    /// "dry_run","symbols"}`, nil for every default).
    /// - Throws: as `importFile`, and `.invalidArgument` for malformed options.
    public func importFile(_ bytes: UnsafeRawBufferPointer, optionsJSON: String?) throws -> ImportReport {
        try importFile(bytes, options: ImportOptions(json: optionsJSON))
    }

    /// A file opened for reading. - Throws: `.invalidArgument` saying why it cannot be read.
    static func openForImport(_ url: URL) throws -> FileHandle {
        switch FileKind(path: url.path) {
        case .missing: throw CoinfolioError(.invalidArgument, "cannot read \(url.path): no such file")
        case .folder: throw CoinfolioError(.invalidArgument, "cannot read \(url.path): it is a folder, not a file")
        case .regular, .special: break
        }
        do { return try FileHandle(forReadingFrom: url) } catch {
            throw CoinfolioError(.invalidArgument, "cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// The import, over readers of the file from its start (one for detection and an exchange
    /// file's rows, a second for the coinfolio format, which reads its header again).
    private func importFile(options: ImportOptions, reader makeReader: () throws -> CSVReader) throws -> ImportReport {
        try options.validate()
        progress.report(.import, done: 0, total: nil)
        var reader = try makeReader()
        switch try ImportDetection.detect(&reader, format: options.format) {
        case .coinfolio:
            var again = try makeReader()
            return try importLedgerCSV(&again, options: options)
        case .exchange(let header):
            let file = try ImportReader.read(&reader, header: header) { rows in
                try WorkCancellation.check()  // a cancelled async import stops reading
                self.progress.report(.import, done: rows, total: nil)
            }
            return try importEntries(file, headerLine: header.line, options: options)
        }
    }

    /// What an exchange file's shortfall (SPEC §12's never-negative rule) says besides the coin,
    /// time and amount: most often the file spends coins that came in before it starts (a Binance
    /// trade history bought with USDT deposited earlier), so it says what to import first.
    static let earlierHistoryHint =
        " (the ledger holds less than the file spends: import what brought the coins in first — deposits, "
        + "earlier trades, the exchange's full statement — or record them with a transfer_in)"

    /// `body`, a shortfall it throws told with `earlierHistoryHint`; details and status unchanged.
    private static func hintingAtEarlierHistory<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as CoinfolioError where error.details[.shortBy] != nil {
            error.message += earlierHistoryHint
            throw error
        }
    }

    /// The coinfolio format through the ledger CSV import (SPEC §12, §16), its rows without a
    /// portfolio going to `options.portfolio`.
    private func importLedgerCSV(_ reader: inout CSVReader, options: ImportOptions) throws -> ImportReport {
        var planned: [[Transaction]] = []
        let result = try store.importCSV(
            &reader, newPortfolioCurrency: configuration.vsCurrency.code, prices: storedPrices(within:),
            defaultPortfolio: options.portfolio,
            keep: !options.dryRun, units: options.dryRun ? { planned.append($0) } : nil,
            progress: { rows, finished in self.progress.report(.import, done: rows, total: finished ? rows : nil) })
        let counts = result.counts
        if counts.importedRows > 0, !options.dryRun { ledgerChanged(nil) }  // a file may name several portfolios
        return ImportReport(
            format: .coinfolio, variant: "default", imported: counts.importedRows, skipped: counts.skippedRows, ignored: [],
            warnings: [], pendingPrices: counts.pendingPrices, unknownSymbols: [],
            transactions: options.dryRun ? Self.unskipped(planned, counts.skippedOrdinals) : nil)
    }

    /// An exchange file's entries: symbols resolved, each entry planned and written.
    private func importEntries(_ file: ImportedFile, headerLine: Int, options: ImportOptions) throws -> ImportReport {
        let stored = try store.portfolioCurrency(options.portfolio)
        let engineCurrency = configuration.vsCurrency.code
        let currency = (stored ?? nil) ?? engineCurrency
        // Symbols: the option, money, the table, then the one snapshot coin that has it.
        var symbols: [String] = []
        var seen: Set<String> = []
        // The last two symbols met are compared first (`==`, as the set compares): a file's rows
        // name the same few symbols, and hashing each of them into the set was ~1.6 % of an import.
        var recent: (String?, String?) = (nil, nil)
        // Each entry read where it lies (a `for entry in` copied every entry, retains and
        // releases of its strings and fee array: ~400 instructions an entry).
        file.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                entries[index].forEachSymbol { symbol in
                    if symbol == recent.0 || symbol == recent.1 { return }
                    recent = (symbol, recent.0)
                    if seen.insert(symbol).inserted { symbols.append(symbol) }
                }
            }
        }
        let snapshotIDs = snapshotCoinIDs(bySymbol: Set(symbols.map { $0.lowercased() }))
        let resolver = SymbolResolver(chosen: options.symbols, currencies: [engineCurrency, currency]) { snapshotIDs[$0] ?? [] }
        let (resolved, unknown) = resolver.resolveAll(symbols)
        if !unknown.isEmpty, !options.dryRun { throw Self.unknownSymbols(unknown) }

        var plan = ImportPlan(
            portfolio: options.portfolio, currency: currency, resolutions: resolved, prices: .none, allResolved: unknown.isEmpty)
        var ignored = file.ignored
        var warnings = file.warnings
        var planned: [[Transaction]] = []
        var next = 0
        let total = file.rowsRead
        let missing = stored == nil ? (name: options.portfolio, vsCurrency: engineCurrency) : nil
        let counts = try Self.hintingAtEarlierHistory {
            try store.importUnits(keep: !options.dryRun, creating: missing, namesColumns: false) { connection in
                // Stored prices read through the import's write (a lookup of its own would wait for it).
                if next == 0 { plan.prices = storedPricesKeptByDay(within: connection) }
                while next < file.entries.count {
                    let entry = file.entries[next]
                    next += 1
                    if next % 1000 == 0 { progress.report(.import, done: min(entry.line - headerLine, total), total: total) }
                    switch try plan.outcome(entry) {
                    case .rows(var rows, let warning):
                        if let warning { warnings.append(ImportNotice(line: entry.line, reason: warning)) }
                        // Prices in another currency: converted by the rule every transaction follows (§17).
                        for index in rows.indices where rows[index].priceCurrency != nil {
                            rows[index] = withPriceCurrency(rows[index], portfolioCurrency: currency, prices: plan.prices)
                        }
                        if options.dryRun { planned.append(rows) }
                        return LedgerStore.ImportUnit(rows: rows, line: entry.line)
                    case .ignored(let reason): ignored.append(ImportNotice(line: entry.line, reason: reason))
                    case .unresolved: continue
                    }
                }
                return nil
            } checked: {
                progress.report(.import, done: total, total: total)
            }
        }
        if counts.importedRows > 0, !options.dryRun { ledgerChanged(options.portfolio) }
        return ImportReport(
            format: file.format, variant: file.variant, imported: counts.importedRows, skipped: counts.skippedRows,
            ignored: ignored.sorted { $0.line < $1.line }, warnings: warnings.sorted { $0.line < $1.line },
            pendingPrices: counts.pendingPrices, unknownSymbols: unknown,
            transactions: options.dryRun ? Self.unskipped(planned, counts.skippedOrdinals) : nil)
    }

    /// The ids of the snapshot's coins for each of `symbols` (lower-case) that some coin has.
    private func snapshotCoinIDs(bySymbol symbols: Set<String>) -> [String: [String]] {
        guard let snapshot = currentSnapshot() else { return [:] }
        var ids: [String: [String]] = [:]
        for position in snapshot.coins.indices {
            let (symbol, id) = snapshot.coins.read(position) { ($0.symbol.lowercased(), $0.id) }
            if symbols.contains(symbol) { ids[symbol, default: []].append(id) }
        }
        return ids
    }

    /// The planned units' rows but those skipped, in order.
    private static func unskipped(_ units: [[Transaction]], _ skipped: [Int]) -> [Transaction] {
        let skipped = Set(skipped)
        return units.enumerated().flatMap { skipped.contains($0.offset) ? [] : $0.element }
    }

    /// `.invalidArgument`, reason `unknown_symbols`, every unresolved symbol with its candidates.
    static func unknownSymbols(_ unknown: [UnknownSymbol]) -> CoinfolioError {
        let listed = unknown.map { item in
            item.candidates.isEmpty ? "\(item.symbol) (no coin)" : "\(item.symbol) (\(item.candidates.joined(separator: " or ")))"
        }
        return CoinfolioError(
            .invalidArgument,
            "\(unknown.count == 1 ? "a symbol names" : "\(unknown.count) symbols name") no one coin: \(listed.joined(separator: ", ")); say which with the symbols option ({\"\(unknown[0].symbol)\":\"coin-id\"}); nothing was imported",
            reason: .unknownSymbols, details: [.symbols: .array(unknown.map(\.detail))])
    }
}
