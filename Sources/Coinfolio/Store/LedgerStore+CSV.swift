import Foundation

/// CSV import and export of the ledger (SPEC §12, §16): the store's side. The rows are read and
/// checked by `LedgerCSVRows`; here they are written, all in one database transaction, and checked
/// against the ledger (never negative, known external ids). Rows sharing a `group_id` label
/// become one group with a fresh id; a row with a fee in a coin brings its fee row (recreated
/// here, never read from the file), in its group.
extension LedgerStore {
    /// Imports CSV rows in one database transaction: all of them or, on any error, none.
    /// - Parameters:
    ///   - reader: the CSV stream.
    ///   - newPortfolioCurrency: the currency of portfolios the file names that do not exist (and
    ///     of those created without one).
    ///   - prices: where a fee row without a price finds one (SPEC §16).
    ///   - progress: called with the rows read so far every 1,000 rows, and once more at the end
    ///     with `finished` true (after the checks, before the commit).
    /// - Returns: rows imported and rows skipped (their external_id already in the portfolio).
    /// - Throws: `.invalidArgument` with `details.line` and `details.column`; `.store`;
    ///   `CancellationError` when the async call it serves is cancelled (nothing is written).
    func importCSV(
        _ reader: inout CSVReader, newPortfolioCurrency: String, prices: StoredPrices = .none,
        progress: ((_ rows: Int, _ finished: Bool) -> Void)? = nil
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
            guard var rows = try LedgerCSVRows.header(&reader) else { return (0, 0) }
            // Each portfolio's currency (for fee rows' stored prices), once.
            var currencies: [String: String] = [:]
            // The file's group labels and the fresh group id each one stands for.
            var groups: [String: String] = [:]
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
            while let (row, line) = try rows.next(&reader) {
                if rows.rowsRead % 1000 == 0 {
                    // A cancelled async import stops here; the transaction rolls back whole.
                    try WorkCancellation.check()
                    progress?(rows.rowsRead, false)
                }
                if currencies[row.portfolio] == nil {
                    switch try currency(of: row.portfolio, connection) {
                    case nil:
                        try insertPortfolio(row.portfolio, newPortfolioCurrency, connection)
                        currencies[row.portfolio] = newPortfolioCurrency
                    case let code?: currencies[row.portfolio] = code ?? newPortfolioCurrency
                    }
                }
                if row.externalID != nil, try isOwnExport(row, connection) {
                    skipped += 1
                    continue
                }
                var transaction = row
                if let label = row.groupID {
                    transaction.groupID = groups[label] ?? UUID().uuidString.lowercased()
                    groups[label] = transaction.groupID
                }
                // With a fee in a coin, the row's fee row follows it, in its group.
                var written = LedgerGroup.rows([transaction], prices: prices, vsCurrency: currencies[row.portfolio] ?? newPortfolioCurrency)
                if written.count > 1, transaction.groupID == nil {
                    let group = UUID().uuidString.lowercased()
                    for index in written.indices { written[index].groupID = group }
                }
                for (index, transaction) in written.enumerated() {
                    // A row whose external_id the portfolio already has is not inserted: skipped when
                    // it was there before the import, an error when an earlier row of this file put
                    // it there. A skipped row's fee row is skipped with it.
                    guard let id = try insert(transaction, connection, skippingKnownExternalID: true) else {
                        if let externalID = transaction.externalID,
                            let existing = try existingID(portfolio: transaction.portfolio, externalID: externalID, connection),
                            importedLine(existing) != nil
                        {
                            throw LedgerCSVRows.error(
                                line: line, column: "external_id", "external_id \"\(externalID)\" appears twice in the file")
                        }
                        if index == 0 { skipped += 1 }
                        break
                    }
                    importedIDs.append(id)
                    importedLines.append(Int32(clamping: line))
                    // Taken out and put back: the coins' dictionary is changed in place, never copied.
                    var changes = touched.removeValue(forKey: transaction.portfolio) ?? (transaction.timestamp, [:])
                    changes.earliest = min(changes.earliest, transaction.timestamp)
                    let key = HoldingsKey(transaction.coinID)
                    guard let sum = (changes.coins[key] ?? .zero).adding(transaction.kind.signed(transaction.amount)) else {
                        throw LedgerCSVRows.error(
                            line: line, column: "amount", "the file's rows of \(transaction.coinID) add up to beyond the ledger's ±8.5e19",
                            reason: .outOfRange)
                    }
                    changes.coins[key] = sum
                    touched[transaction.portfolio] = changes
                    if index == 0 { imported += 1 }
                }
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
                    running[key]? -= entry.kind.signed(entry.amount)
                }
                var shortfalls: [HoldingsKey: (entry: LedgerEntry, breach: RunningAmountBreach)] = [:]
                try forEachEntry(portfolio: portfolio, after: from, connection) { key, entry in
                    guard shortfalls[key] == nil, let before = running[key] else { return }
                    if let short = firstBreach([entry], startingAt: before) {
                        shortfalls[key] = short
                    } else {
                        running[key] = before + entry.kind.signed(entry.amount)
                    }
                }
                for key in coins.keys.sorted(by: { $0.text < $1.text }) {
                    if let short = shortfalls[key] {
                        let error = Self.breachError(short, coinID: key.text)
                        guard let line = importedLine(short.entry.id) else { throw error }
                        throw LedgerCSVRows.error(line: line, column: "amount", error.message, error.details)
                    }
                }
                changePositions(portfolio: portfolio) { held in
                    for (key, total) in totals { held[key] = total }
                }
            }
            try WorkCancellation.check()  // the last moment a cancel undoes the import
            progress?(rows.rowsRead, true)
            return (imported, skipped)
        }
    }

    /// Whether `transaction` is this database's own exported row `coinfolio:<id>`: the row with
    /// that id, in the same portfolio, without an external id, and the same in every field an
    /// export writes (a group id is a label local to the file; the fee price written is the one
    /// its fee row took).
    private func isOwnExport(_ transaction: Transaction, _ connection: any Database) throws -> Bool {
        guard let externalID = transaction.externalID, externalID.hasPrefix(LedgerCSV.ownPrefix),
            let id = Int64(externalID.dropFirst(LedgerCSV.ownPrefix.count))
        else { return false }
        guard let stored = try self.transaction(id: id, connection), stored.externalID == nil else { return false }
        return stored.portfolio == transaction.portfolio && stored.coinID == transaction.coinID && stored.kind == transaction.kind
            && stored.amount == transaction.amount && stored.price == transaction.price && stored.fee == transaction.fee
            && stored.timestamp == transaction.timestamp && stored.note == transaction.note
            && stored.feeCoinID == transaction.feeCoinID && stored.incomeType == transaction.incomeType
    }

    /// Writes the portfolio's transactions (every portfolio's for nil) as CSV (the long header
    /// first), in ledger order, to `sink` in pieces of about 64 KiB. A fee row recreated from its parent's `fee_coin_id` is
    /// not written: its price goes in the parent's `fee_price`.
    func exportCSV(portfolio: String?, to sink: ([UInt8]) throws -> Void) throws {
        var writer = CSVWriter(reserving: CSVReader.chunkSize + 4096)
        writer.record(LedgerCSV.columns)
        if let portfolio, try portfolioCurrency(portfolio) == nil, portfolio != Transaction.defaultPortfolio {
            throw Self.noPortfolio(portfolio)
        }
        // A row with a fee in a coin waits for the next row: its fee row, when that follows.
        var parent: Transaction?
        try forEachTransaction(portfolio: portfolio) { transaction in
            if let waiting = parent {
                parent = nil
                if transaction.kind == .fee, transaction.groupID != nil, transaction.groupID == waiting.groupID,
                    transaction.coinID == waiting.feeCoinID, transaction.amount == waiting.fee
                {
                    writer.record(LedgerCSV.record(waiting, feePrice: transaction.price))
                    return
                }
                writer.record(LedgerCSV.record(waiting, feePrice: nil))
            }
            if transaction.feeCoinID != nil, !transaction.fee.isZero {
                parent = transaction
            } else {
                writer.record(LedgerCSV.record(transaction, feePrice: nil))
            }
            if writer.bytes.count >= CSVReader.chunkSize { try sink(writer.take()) }
        }
        if let waiting = parent { writer.record(LedgerCSV.record(waiting, feePrice: nil)) }
        try sink(writer.take())
    }
}
