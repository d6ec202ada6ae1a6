import Foundation

/// Imports (SPEC §12, §16, §18): the store's side of every file import, the ledger CSV's and
/// an exchange file's. Units of rows — each the rows one file row or exchange transaction writes,
/// already checked and grouped — are written in one database transaction and checked against
/// the ledger at the end (never negative, within ±8.5e19, external ids new): all of them or,
/// on any error, none.
extension LedgerStore {
    /// The rows one file row (or one exchange transaction) writes, in ledger order, and the
    /// physical line it starts on (for errors).
    struct ImportUnit {
        /// The rows. Their group id: the one they carry, else a fresh one shared by all when
        /// there are several.
        var rows: [Transaction]
        /// The physical line (1-based).
        var line: Int
    }

    /// What an import wrote: transactions and units, written and skipped.
    struct ImportCounts: Sendable {
        /// Transactions written (fee rows and trade legs each count).
        var importedRows = 0
        /// Transactions not written because their unit's first external id was already there.
        var skippedRows = 0
        /// Units written.
        var importedUnits = 0
        /// Units skipped.
        var skippedUnits = 0
        /// Written rows of a kind with a price (buy, sell, fee, income) whose price is pending.
        var pendingPrices = 0
        /// The ordinals (0-based, in the order `next` gave them) of the skipped units.
        var skippedOrdinals: [Int] = []
    }

    /// Writes the units `next` hands out, in one database transaction.
    ///
    /// A unit whose first row's external id the portfolio already has is skipped whole (it was
    /// imported before); a unit whose external id an earlier unit of this import wrote is an
    /// error ("appears twice"). After the last unit, every touched coin's running amount is
    /// checked from the earliest imported time on; a shortfall names the line of the row where
    /// it happens.
    /// - Parameters:
    ///   - keep: false for a dry run: everything is checked as for a real import, then rolled back.
    ///   - next: the next unit (the connection is there for what the caller reads or creates,
    ///     such as a portfolio a file names), or nil after the last.
    ///   - checked: called after the checks, before the commit (a progress report's end).
    /// - Throws: `.invalidArgument` with `details.line` (`details.column` `external_id` or
    ///   `amount`): a repeated external id, a shortfall `{coin_id, timestamp, short_by}`, a
    ///   coin's sum beyond ±8.5e19 (`reason` `out_of_range`); whatever `next` throws; `.store`.
    ///   Nothing is written on error.
    func importUnits(
        keep: Bool = true, _ next: (_ connection: any Database) throws -> ImportUnit?, checked: () -> Void = {}
    ) throws -> ImportCounts {
        // The units are read once, so the body must never run twice. `write` holds the owner's
        // ledger lock and is not retried (no serialization failures): this guard only keeps a
        // future change from replaying a half-read stream.
        var attempts = 0
        do {
            return try write(reportingProgress: true) { connection in
                attempts += 1
                guard attempts == 1 else {
                    throw CoinfolioError(.store, "the import met a concurrent write and was undone whole; import the file again")
                }
                let counts = try writeUnits(next, connection)
                checked()
                guard keep else { throw DryRunRollback(counts: counts) }
                return counts
            }
        } catch let dryRun as DryRunRollback {
            return dryRun.counts
        }
    }

    /// Thrown at the end of a dry run so that `write` rolls the transaction back.
    private struct DryRunRollback: Error {
        let counts: ImportCounts
    }

    private func writeUnits(_ next: (_ connection: any Database) throws -> ImportUnit?, _ connection: any Database) throws -> ImportCounts {
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
        var counts = ImportCounts()
        var ordinal = -1
        while var unit = try next(connection) {
            ordinal += 1
            if unit.rows.count > 1, unit.rows[0].groupID == nil {
                let group = UUID().uuidString.lowercased()
                for index in unit.rows.indices { unit.rows[index].groupID = group }
            }
            for (index, transaction) in unit.rows.enumerated() {
                // A row whose external_id the portfolio already has is not inserted: its unit is
                // skipped when it was there before the import, an error when an earlier unit of
                // this import put it there (or when only a later row of a unit is known).
                guard let id = try insert(transaction, connection, skippingKnownExternalID: true) else {
                    let externalID = transaction.externalID ?? ""
                    let existing = try existingID(portfolio: transaction.portfolio, externalID: externalID, connection)
                    if index > 0 || existing.flatMap(importedLine) != nil {
                        throw LedgerCSVRows.error(
                            line: unit.line, column: "external_id", "external_id \"\(externalID)\" appears twice in the file")
                    }
                    counts.skippedRows += unit.rows.count
                    counts.skippedUnits += 1
                    counts.skippedOrdinals.append(ordinal)
                    break
                }
                importedIDs.append(id)
                importedLines.append(Int32(clamping: unit.line))
                if transaction.kind.hasPrice, transaction.price == nil { counts.pendingPrices += 1 }
                // Taken out and put back: the coins' dictionary is changed in place, never copied.
                var changes = touched.removeValue(forKey: transaction.portfolio) ?? (transaction.timestamp, [:])
                changes.earliest = min(changes.earliest, transaction.timestamp)
                let key = HoldingsKey(transaction.coinID)
                guard let sum = (changes.coins[key] ?? .zero).adding(transaction.kind.signed(transaction.amount)) else {
                    throw LedgerCSVRows.error(
                        line: unit.line, column: "amount", "the file's rows of \(transaction.coinID) add up to beyond the ledger's ±8.5e19",
                        ["reason": .string("out_of_range")])
                }
                changes.coins[key] = sum
                touched[transaction.portfolio] = changes
                counts.importedRows += 1
                if index == unit.rows.count - 1 { counts.importedUnits += 1 }
            }
        }
        try checkImported(touched, connection, line: importedLine)
        return counts
    }

    /// The never-negative rule over each touched coin, with the imported rows in place, from the
    /// earliest imported time on (the points before it did not change), and the new positions.
    /// Two reads of those entries, keeping a few numbers per coin, not the rows.
    private func checkImported(
        _ touched: [String: (earliest: Int64, coins: [HoldingsKey: ExactDecimal])], _ connection: any Database,
        line importedLine: (Int64) -> Int?
    ) throws {
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
    }
}
