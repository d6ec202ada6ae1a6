import Foundation

/// CSV import and export of the ledger (SPEC §12): the store's side, in one database transaction.
extension LedgerStore {
    /// Imports CSV rows in one database transaction: all of them or, on any error, none.
    /// - Parameters:
    ///   - reader: the CSV stream.
    ///   - newPortfolioCurrency: the currency of portfolios the file names that do not exist.
    ///   - progress: called with the rows read so far every 1,000 rows, and once more at the end
    ///     with `finished` true (after the checks, before the commit).
    /// - Returns: rows imported and rows skipped (their external_id already in the portfolio).
    /// - Throws: `.invalidArgument` with `details.line` and `details.column`; `.store`.
    func importCSV(
        _ reader: inout CSVReader, newPortfolioCurrency: String, progress: ((_ rows: Int, _ finished: Bool) -> Void)? = nil
    ) throws -> (imported: Int, skipped: Int) {
        // The stream is read once, so the body must never run twice. `write` holds the owner's
        // ledger lock and is not retried (no serialization failures): this guard only keeps a
        // future change from replaying a half-read stream.
        var attempts = 0
        return try write(reportingProgress: true) { connection in
            attempts += 1
            guard attempts == 1 else {
                throw CoinfolioError(.store, "the import met a concurrent write and was undone whole; import the file again")
            }
            func fail(_ line: Int, _ column: String?, _ message: String, _ extra: [String: CoinfolioError.Detail] = [:])
                -> CoinfolioError
            {
                var details = extra
                details["line"] = .number(Double(line))
                if let column { details["column"] = .string(column) }
                let place = column.map { "line \(line), column \($0)" } ?? "line \(line)"
                return CoinfolioError(.invalidArgument, "\(place): \(message)", details: details)
            }
            func next() throws -> (fields: [String], line: Int)? {
                do { return try reader.nextRecord() } catch let error as CSVReader.SyntaxError {
                    throw fail(error.line, nil, error.message, ["field_index": .number(Double(error.field))])
                }
            }
            guard let header = try next() else { return (0, 0) }
            let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            if names.count == 1, names[0].contains(";") {
                throw fail(header.line, nil, "the separator must be a comma, not \";\"")
            }
            var index: [String: Int] = [:]
            for (position, name) in names.enumerated() {
                guard LedgerCSV.columns.contains(name) else {
                    throw fail(
                        header.line, name,
                        "unknown column \"\(name)\": the header is \(LedgerCSV.columns.joined(separator: ","))")
                }
                guard index[name] == nil else { throw fail(header.line, name, "column \"\(name)\" appears twice") }
                index[name] = position
            }
            for name in LedgerCSV.columns where LedgerCSV.required.contains(name) && index[name] == nil {
                throw fail(header.line, name, "the header has no \"\(name)\" column")
            }
            // Each column's position, looked up once.
            let timestampColumn = index["timestamp"], portfolioColumn = index["portfolio"], coinColumn = index["coin_id"]
            let kindColumn = index["kind"], amountColumn = index["amount"], priceColumn = index["price"]
            let feeColumn = index["fee"], noteColumn = index["note"], externalColumn = index["external_id"]
            var knownPortfolios: Set<String> = []
            // The ids this import inserted (increasing: one session's identity values only grow)
            // and each one's line, to name the row of a shortfall or a repeated external_id. Other
            // owners' rows may take ids in between, so nothing reads the whole table. 12 bytes a
            // row: nothing else grows with the file.
            var importedIDs: [Int64] = []
            var importedLines: [Int32] = []
            func importedLine(_ id: Int64) -> Int? {
                var low = 0
                var high = importedIDs.count
                while low < high {
                    let middle = (low + high) / 2
                    if importedIDs[middle] < id { low = middle + 1 } else { high = middle }
                }
                return low < importedIDs.count && importedIDs[low] == id ? Int(importedLines[low]) : nil
            }
            // Per portfolio: each imported coin's change of position, and the earliest imported time.
            var touched: [String: (earliest: Int64, coins: [HoldingsKey: ExactDecimal])] = [:]
            var imported = 0
            var skipped = 0
            var rows = 0
            while let record = try next() {
                rows += 1
                if rows % 1000 == 0 { progress?(rows, false) }
                let line = record.line
                guard record.fields.count == names.count else {
                    throw fail(
                        line, nil,
                        "the row has \(record.fields.count) fields and the header \(names.count) (the separator is a comma and the decimal mark a point)"
                    )
                }
                func field(_ column: Int?) -> String? {
                    column.map { SpreadsheetFormula.unprotected(record.fields[$0]) }
                }
                func decimal(_ name: String, _ column: Int?) throws -> ExactDecimal? {
                    guard let text = field(column), !text.isEmpty else { return nil }
                    if let value = ExactDecimal(text) { return value }
                    if let comma = DecimalComma.refusal(text) {
                        throw fail(line, name, comma.message, ["reason": .string(comma.reason.rawValue)])
                    }
                    throw fail(line, name, "\"\(text)\" is not a decimal number (at most 18 fraction digits)")
                }
                let timestampText = field(timestampColumn) ?? ""
                guard let timestamp = LedgerTimestamp.parse(timestampText) else {
                    throw fail(line, "timestamp", "\"\(timestampText)\" is not an RFC 3339 time (2024-03-01T12:30:00Z)")
                }
                let kindText = field(kindColumn) ?? ""
                guard let kind = TransactionKind(rawValue: kindText) else {
                    throw fail(line, "kind", "\"\(kindText)\" is not buy, sell, transfer_in or transfer_out")
                }
                guard let amount = try decimal("amount", amountColumn) else { throw fail(line, "amount", "amount is empty") }
                let portfolioText = field(portfolioColumn) ?? ""
                let externalText = field(externalColumn) ?? ""
                let transaction = Transaction(
                    portfolio: portfolioText.isEmpty ? Transaction.defaultPortfolio : portfolioText,
                    coinID: field(coinColumn) ?? "", kind: kind, amount: amount, price: try decimal("price", priceColumn),
                    fee: try decimal("fee", feeColumn) ?? .zero, timestamp: timestamp,
                    note: field(noteColumn).flatMap { $0.isEmpty ? nil : $0 }, externalID: externalText.isEmpty ? nil : externalText)
                do { try transaction.validate() } catch let error as CoinfolioError {
                    var column: String?
                    if case .string(let name)? = error.details["field"] { column = name }
                    throw fail(line, column, error.message)
                }
                if !knownPortfolios.contains(transaction.portfolio) {
                    if try currency(of: transaction.portfolio, connection) == nil {
                        try insertPortfolio(transaction.portfolio, newPortfolioCurrency, connection)
                    }
                    knownPortfolios.insert(transaction.portfolio)
                }
                if transaction.externalID != nil, try isOwnExport(transaction, connection) {
                    skipped += 1
                    continue
                }
                // A row whose external_id the portfolio already has is not inserted: skipped when
                // it was there before the import, an error when an earlier row of this file put it there.
                guard let id = try insert(transaction, connection, skippingKnownExternalID: true) else {
                    if let externalID = transaction.externalID,
                        let existing = try existingID(portfolio: transaction.portfolio, externalID: externalID, connection),
                        importedLine(existing) != nil
                    {
                        throw fail(line, "external_id", "external_id \"\(externalID)\" appears twice in the file")
                    }
                    skipped += 1
                    continue
                }
                importedIDs.append(id)
                importedLines.append(Int32(clamping: line))
                let change = transaction.kind.adds ? transaction.amount : -transaction.amount
                // Taken out and put back: the coins' dictionary is changed in place, never copied.
                var changes = touched.removeValue(forKey: transaction.portfolio) ?? (transaction.timestamp, [:])
                changes.earliest = min(changes.earliest, transaction.timestamp)
                changes.coins[HoldingsKey(transaction.coinID), default: .zero] += change
                touched[transaction.portfolio] = changes
                imported += 1
            }
            // The never-negative rule over each touched coin, with the imported rows in place, from
            // the earliest imported time on (the points before it did not change), and the new
            // positions. Two reads of those entries, keeping a few numbers per coin, not the rows.
            for portfolio in touched.keys.sorted() {
                guard let (earliest, coins) = touched[portfolio] else { continue }
                let from: LedgerPoint = (earliest, .min)
                // Positions summed now (none were kept) already count the imported rows.
                let kept = positionCache.withLock { $0.portfolios[portfolio] != nil }
                try loadPositions(portfolio: portfolio, connection)
                var totals: [HoldingsKey: ExactDecimal] = [:]
                changePositions(portfolio: portfolio) { held in
                    for (key, change) in coins { totals[key] = (held[key] ?? .zero) + (kept ? change : .zero) }
                }
                // What each coin held just before `from`: its total less its entries from then on.
                var running = totals
                try forEachEntry(portfolio: portfolio, after: from, connection) { key, entry in
                    running[key]? -= entry.kind.adds ? entry.amount : -entry.amount
                }
                var shortfalls: [HoldingsKey: (entry: LedgerEntry, shortBy: ExactDecimal)] = [:]
                try forEachEntry(portfolio: portfolio, after: from, connection) { key, entry in
                    guard shortfalls[key] == nil, let before = running[key] else { return }
                    if let short = firstShortfall([entry], startingAt: before) {
                        shortfalls[key] = short
                    } else {
                        running[key] = before + (entry.kind.adds ? entry.amount : -entry.amount)
                    }
                }
                for key in coins.keys.sorted(by: { $0.text < $1.text }) {
                    if let short = shortfalls[key] {
                        var error = Self.shortfallError(short, coinID: key.text)
                        if let line = importedLine(short.entry.id) {
                            error.details["line"] = .number(Double(line))
                            error.details["column"] = .string("amount")
                            error.message = "line \(line), column amount: " + error.message
                        }
                        throw error
                    }
                }
                changePositions(portfolio: portfolio) { held in
                    for (key, total) in totals { held[key] = total }
                }
            }
            progress?(rows, true)
            return (imported, skipped)
        }
    }

    /// Whether `transaction` is this database's own exported row `coinfolio:<id>`: the row with
    /// that id, in the same portfolio, without an external id, and the same in every field.
    private func isOwnExport(_ transaction: Transaction, _ connection: any Database) throws -> Bool {
        guard let externalID = transaction.externalID, externalID.hasPrefix(LedgerCSV.ownPrefix),
            let id = Int64(externalID.dropFirst(LedgerCSV.ownPrefix.count))
        else { return false }
        let select = try connection.statement("SELECT \(Self.columns) FROM ledger_transaction WHERE id = ?1 AND owner = ?2")
        select.bind(1, id)
        select.bind(2, owner)
        defer { select.reset() }
        guard try select.next() else { return false }
        var stored = try Self.readTransaction(select)
        guard stored.externalID == nil else { return false }
        stored.id = nil
        var candidate = transaction
        candidate.externalID = nil
        return stored == candidate
    }

    /// Writes the portfolio's transactions as CSV (header first), in ledger order, to `sink` in
    /// pieces of about 64 KiB.
    func exportCSV(portfolio: String, to sink: ([UInt8]) throws -> Void) throws {
        var writer = CSVWriter(reserving: CSVReader.chunkSize + 4096)
        writer.record(LedgerCSV.columns)
        guard try portfolioCurrency(portfolio) != nil || portfolio == Transaction.defaultPortfolio else {
            throw Self.noPortfolio(portfolio)
        }
        try forEachTransaction(portfolio: portfolio) { transaction in
            writer.record(LedgerCSV.record(transaction))
            if writer.bytes.count >= CSVReader.chunkSize { try sink(writer.take()) }
        }
        try sink(writer.take())
    }
}
