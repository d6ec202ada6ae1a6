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
    ///   - portfolio: a portfolio to create first (one the import names that does not exist).
    ///   - next: the next unit (the connection is there for what the caller reads or creates,
    ///     such as a portfolio a file names), or nil after the last.
    ///   - checked: called after the checks, before the commit (a progress report's end).
    ///   - namesColumns: whether errors name the coinfolio CSV's columns (`external_id`,
    ///     `amount`); false for an exchange's file, whose rows spread them over other cells.
    /// - Throws: `.invalidArgument` with `details.line` (`details.column` `external_id` or
    ///   `amount` when `namesColumns`): a repeated external id, the earliest shortfall in ledger
    ///   order `{coin_id, timestamp, short_by}`, a
    ///   coin's sum beyond ±8.5e19 (`reason` `out_of_range`); whatever `next` throws; `.store`;
    ///   `CancellationError` when the async call it serves is cancelled (checked every 1,000
    ///   units and once more before the commit). Nothing is written on error.
    func importUnits(
        keep: Bool = true, creating portfolio: (name: String, vsCurrency: String)? = nil, namesColumns: Bool = true,
        _ next: (_ connection: any Database) throws -> ImportUnit?, checked: () -> Void = {}
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
                let created = try portfolio.map { try createIfMissing($0, connection) } ?? false
                let counts = try connection.withLargeWriteCache { try writeUnits(next, namesColumns: namesColumns, connection) }
                checked()
                try WorkCancellation.check()  // the last moment a cancel undoes the import
                // An import that wrote nothing (a re-import, a file of ignored rows) is rolled back
                // like a dry run, so it does not count as a write of the ledger (`ledger_change`)
                // and other engines do not reload for it. Rows a file names a new portfolio for
                // are imported (a skipped row's portfolio exists), so no portfolio is lost.
                guard keep, counts.importedRows > 0 || created else { throw DryRunRollback(counts: counts) }
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

    /// The rows one import inserted into one portfolio: each coin's change, the earliest time,
    /// and — up to `keptRowLimit` rows of the import — the rows themselves (coin, time, id, kind,
    /// amount: 40 bytes a row), for the never-negative check in memory.
    private struct PortfolioImport {
        var keys: [HoldingsKey] = []
        var keyIndex: [HoldingsKey: Int32] = [:]
        var changes: [ExactDecimal] = []
        var earliest = Int64.max
        /// The latest time of the portfolio's rows before the import (nil: it had none).
        var latestBefore: Int64?
        var coin: [Int32] = []
        var timestamp: [Int64] = []
        var id: [Int64] = []
        var kind: [TransactionKind] = []
        var amount: [ExactDecimal] = []

        /// The index `index(_:)` answered last (a file's rows mostly repeat the coin before).
        var lastIndex: Int?

        /// The index of a coin, added on first use.
        mutating func index(_ key: HoldingsKey) -> Int {
            if let lastIndex, keys[lastIndex] == key { return lastIndex }
            let found: Int
            if let known = keyIndex[key] {
                found = Int(known)
            } else {
                keyIndex[key] = Int32(keys.count)
                keys.append(key)
                changes.append(.zero)
                found = keys.count - 1
            }
            lastIndex = found
            return found
        }

        mutating func dropRows() {
            coin = []
            timestamp = []
            id = []
            kind = []
            amount = []
        }
    }

    /// Rows of one import kept for the in-memory check; a larger import checks against the
    /// database instead (two ordered reads), as the CSV import of SPEC §12 always did.
    static let keptRowLimit = 1_000_000

    private func writeUnits(
        _ next: (_ connection: any Database) throws -> ImportUnit?, namesColumns: Bool, _ connection: any Database
    ) throws -> ImportCounts {
        // The ids this import inserted (increasing: one session's identity values only grow)
        // and each one's line, to name the row of a shortfall or a repeated external_id. Other
        // owners' rows may take ids in between, so nothing reads the whole table.
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
        // By the name's bytes (`HoldingsKey`): NFC and NFD spellings are two portfolios.
        var portfolios: [HoldingsKey: PortfolioImport] = [:]
        // The portfolio rows are going to, taken out of `portfolios` while rows keep going to it
        // (the usual case: one portfolio), so that its arrays grow in place.
        var currentName: String?
        var current = PortfolioImport()
        func switchTo(_ name: String) throws {
            if let currentName { portfolios[HoldingsKey(currentName)] = current }
            if let known = portfolios.removeValue(forKey: HoldingsKey(name)) {
                current = known
            } else {
                // What the portfolio held before this import, summed before its first row goes
                // in, and its latest time then.
                try loadPositions(portfolio: name, connection)
                current = PortfolioImport()
                current.latestBefore = try latestTime(portfolio: name, connection)
            }
            currentName = name
        }
        var keepsRows = true
        var counts = ImportCounts()
        var ordinal = -1
        var groupIDs = ImportGroupIDs()
        // Fetched once: the statement cache would hash the SQL for every row.
        let insertStatement = try Self.insertStatement(skippingKnownExternalID: true, connection)
        let sqliteInsert = insertStatement as? SQLiteStatement
        while var unit = try next(connection) {
            ordinal += 1
            // A cancelled async import stops here; the transaction rolls back whole.
            if ordinal % 1000 == 0 { try WorkCancellation.check() }
            if unit.rows.count > 1, unit.rows[0].groupID == nil {
                let group = groupIDs.next()
                for index in unit.rows.indices { unit.rows[index].groupID = group }
            }
            for (index, transaction) in unit.rows.enumerated() {
                if currentName.map({ HoldingsKey($0) != HoldingsKey(transaction.portfolio) }) ?? true {  // by the bytes
                    try switchTo(transaction.portfolio)
                }
                // A row whose external_id the portfolio already has is not inserted: its unit is
                // skipped when it was there before the import, an error when an earlier unit of
                // this import put it there (or when only a later row of a unit is known).
                insertStatement.reset()
                guard
                    let id = try insert(
                        transaction, with: insertStatement, sqlite: sqliteInsert, skippingKnownExternalID: true, connection)
                else {
                    let externalID = transaction.externalID ?? ""
                    let existing = try existingID(portfolio: transaction.portfolio, externalID: externalID, connection)
                    if index > 0 || existing.flatMap(importedLine) != nil {
                        throw LedgerCSVRows.error(
                            line: unit.line, column: namesColumns ? "external_id" : nil,
                            "external_id \"\(externalID)\" appears twice in the file")
                    }
                    counts.skippedRows += unit.rows.count
                    counts.skippedUnits += 1
                    counts.skippedOrdinals.append(ordinal)
                    break
                }
                importedIDs.append(id)
                importedLines.append(Int32(clamping: unit.line))
                if transaction.kind.hasPrice, transaction.price == nil { counts.pendingPrices += 1 }
                let coin = current.index(HoldingsKey(transaction.coinID))
                guard let sum = current.changes[coin].adding(transaction.kind.signed(transaction.amount)) else {
                    throw LedgerCSVRows.error(
                        line: unit.line, column: namesColumns ? "amount" : nil,
                        "the file's rows of \(transaction.coinID) add up to beyond the ledger's ±8.5e19", reason: .outOfRange)
                }
                current.changes[coin] = sum
                current.earliest = min(current.earliest, transaction.timestamp)
                if keepsRows, importedIDs.count > Self.keptRowLimit {
                    keepsRows = false
                    for name in Array(portfolios.keys) { portfolios[name]?.dropRows() }
                    current.dropRows()
                }
                if keepsRows {
                    current.coin.append(Int32(coin))
                    current.timestamp.append(transaction.timestamp)
                    current.id.append(id)
                    current.kind.append(transaction.kind)
                    current.amount.append(transaction.amount)
                }
                counts.importedRows += 1
                if index == unit.rows.count - 1 { counts.importedUnits += 1 }
            }
        }
        if let currentName { portfolios[HoldingsKey(currentName)] = current }
        // Each portfolio's earliest shortfall; the earliest of them all is the one named.
        var shortfalls: [(error: CoinfolioError, at: (time: Int64, id: Int64))] = []
        for key in portfolios.keys.sorted(by: { $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) }) {
            guard let imported = portfolios[key], !imported.keys.isEmpty else { continue }
            if let shortfall = try checkImported(
                imported, portfolio: key.text, keptRows: keepsRows, amountColumn: namesColumns ? "amount" : nil, connection,
                line: importedLine)
            {
                shortfalls.append(shortfall)
            }
        }
        if let first = shortfalls.min(by: { $0.at < $1.at }) { throw first.error }
        return counts
    }

    /// The never-negative rule over each coin one portfolio's import touched, with the imported
    /// rows in place, from the earliest imported time on (the points before it did not change),
    /// and the new positions. When no row that was there before lies after that time (an import
    /// into an empty portfolio, or of a later export: the usual case; a row at that very time
    /// comes before every imported one, its id being smaller) and the rows were kept, the
    /// imported rows alone, in ledger order, are checked in memory; otherwise two ordered reads
    /// of the entries from that time on, keeping a few numbers per coin. Returns the portfolio's
    /// earliest shortfall (its error and ledger position), or nil after setting the positions.
    private func checkImported(
        _ imported: PortfolioImport, portfolio: String, keptRows: Bool, amountColumn: String?, _ connection: any Database,
        line importedLine: (Int64) -> Int?
    ) throws -> (error: CoinfolioError, at: (time: Int64, id: Int64))? {
        let keys = imported.keys
        // What each coin held before the import (positions were summed before its first row).
        var before = [ExactDecimal](repeating: .zero, count: keys.count)
        changePositions(portfolio: portfolio) { held in
            for (index, key) in keys.enumerated() { before[index] = held[key] ?? .zero }
        }
        var shortfalls = [(entry: LedgerEntry, breach: RunningAmountBreach)?](repeating: nil, count: keys.count)
        // The last imported row of each coin up to its shortfall: the row to name when the
        // shortfall falls on a row that was there before (an import of earlier sells).
        var lastImported = [Int64?](repeating: nil, count: keys.count)
        if keptRows, (imported.latestBefore ?? .min) <= imported.earliest {
            var running = before
            func precedes(_ a: Int, _ b: Int) -> Bool {
                imported.timestamp[a] != imported.timestamp[b]
                    ? imported.timestamp[a] < imported.timestamp[b] : imported.id[a] < imported.id[b]
            }
            // A file written in time order (most are) is in ledger order already: checked in one
            // pass instead of sorted.
            let indices = imported.timestamp.indices
            let ordered = indices.dropFirst().allSatisfy { precedes($0 - 1, $0) }
            let order = ordered ? Array(indices) : indices.sorted(by: precedes)
            for row in order {
                let coin = Int(imported.coin[row])
                guard shortfalls[coin] == nil else { continue }
                // `firstBreach`'s own test on the sum; the entry (its units converted to a
                // `PreciseDecimal`) is made only for a breach, which `firstBreach` then names.
                let held = running[coin] + imported.kind[row].signed(imported.amount[row])
                guard held.isNegative || held.units > ExactDecimal.maximumUnits else {
                    running[coin] = held
                    continue
                }
                let entry = LedgerEntry(
                    id: imported.id[row], timestamp: imported.timestamp[row], kind: imported.kind[row], amount: imported.amount[row])
                shortfalls[coin] = firstBreach([entry], startingAt: running[coin])
            }
        } else {
            // What each coin held just before `from`: its total less its entries from then on.
            let from: LedgerPoint = (imported.earliest, .min)
            var running: [HoldingsKey: ExactDecimal] = [:]
            for (index, key) in keys.enumerated() { running[key] = before[index] + imported.changes[index] }
            try forEachEntry(portfolio: portfolio, after: from, connection) { key, entry in
                running[key]? -= entry.kind.signed(entry.amount)
            }
            try forEachEntry(portfolio: portfolio, after: from, connection) { key, entry in
                guard let coin = imported.keyIndex[key], shortfalls[Int(coin)] == nil, let held = running[key] else { return }
                if importedLine(entry.id) != nil { lastImported[Int(coin)] = entry.id }
                if let short = firstBreach([entry], startingAt: held) {
                    shortfalls[Int(coin)] = short
                } else {
                    running[key] = held + entry.kind.signed(entry.amount)
                }
            }
        }
        // The earliest shortfall in ledger order (time, then insertion): the first row to mend.
        let first = keys.indices.compactMap { index in shortfalls[index].map { (index, $0) } }.min { a, b in
            (a.1.entry.timestamp, a.1.entry.id) < (b.1.entry.timestamp, b.1.entry.id)
        }
        if let (index, short) = first {
            let error = Self.breachError(short, coinID: keys[index].text)
            let at = (short.entry.timestamp, short.entry.id)
            guard let line = importedLine(short.entry.id) ?? lastImported[index].flatMap(importedLine) else { return (error, at) }
            return (LedgerCSVRows.error(line: line, column: amountColumn, error.message, error.details), at)
        }
        changePositions(portfolio: portfolio) { held in
            for (index, key) in keys.enumerated() { held[key] = before[index] + imported.changes[index] }
        }
        return nil
    }
}

/// The group ids of one import: UUIDs (lower-case, as every group id is) that start from one
/// random UUID and count up in its last 64 bits. As unique as random ones, a thousand times
/// cheaper to make than a `UUID()` each (one `getrandom` call per import, not per group), and
/// in order, so that the groups' index grows at its end.
struct ImportGroupIDs {
    private let high: UInt64
    private var low: UInt64

    /// From 16 random bytes of one `arc4random_buf` (glibc: one `getrandom` call); two
    /// `SystemRandomNumberGenerator.next()` calls would be two.
    init() {
        var bits: (high: UInt64, low: UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bits) { if let base = $0.baseAddress { arc4random_buf(base, $0.count) } }
        self.init(high: bits.high, low: bits.low)
    }

    /// Ids counting up from the UUID of these bits (before its version and variant are set).
    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The next id.
    mutating func next() -> String {
        low &+= 1
        // Version 4, variant 10 (RFC 9562), as a random UUID has.
        let a = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let b = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        // 8-4-4-4-12 lower-case hex digits written into the text's own 36 bytes (no piece made apart).
        return String(unsafeUninitializedCapacity: 36) { text in
            var at = 0
            func hex(_ value: UInt64, _ digits: Int) {
                for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                    let digit = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
                    text[at] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                    at += 1
                }
            }
            func dash() {
                text[at] = UInt8(ascii: "-")
                at += 1
            }
            hex(a >> 32, 8)
            dash()
            hex((a >> 16) & 0xFFFF, 4)
            dash()
            hex(a & 0xFFFF, 4)
            dash()
            hex(b >> 48, 4)
            dash()
            hex(b & 0xFFFF_FFFF_FFFF, 12)
            return at
        }
    }
}
