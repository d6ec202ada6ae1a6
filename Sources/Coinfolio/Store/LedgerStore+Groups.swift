import Foundation
import Synchronization

/// Groups (SPEC §16): rows one call writes together — a trade's legs, a fee row, a move's two
/// sides — added and deleted all or nothing, the never-negative rule checked for the whole change
/// in one database transaction.
extension LedgerStore {
    /// Stores rows as one group (a fresh `group_id` shared by all; none for a single row) after
    /// checking the rules that need the ledger: external ids new in their portfolios, and no
    /// running amount of any coin the rows touch going below zero or past 8.5e19 with all of them
    /// in place. Each row goes after every existing row of its time. The rows' own rules
    /// (`Transaction.validate`) were checked by the caller: `add`, and the engine's trades, moves
    /// and fee rows (`Trade.validate`, `Move.validate`, `LedgerGroup.rows` of a checked parent).
    /// - Returns: the group id and the rows with their new ids, in the order given.
    /// - Throws: `.invalidArgument` (a rule with `details.field`; a shortfall `{coin_id,
    ///   timestamp, short_by}`; `out_of_range`), `.notFound` for a portfolio other than "main"
    ///   that does not exist, `.store`. Nothing is written on error.
    func addGroup(_ rows: [Transaction]) throws -> (groupID: String?, rows: [Transaction]) {
        try addGroup(in: nil) { _, _ in rows }
    }

    /// `addGroup` of the rows `makeRows` gives inside the write, from what the database keeps of
    /// `portfolio` (`currency(of:)`: nil when there is no such portfolio, then "main" is created
    /// and any other refused by `makeRows` or here): the portfolio is read once, in the write,
    /// not once before it and again inside (a trade's prices need its currency).
    /// - Throws: what `makeRows` throws, then as `addGroup`. Nothing is written on error.
    func addGroup(
        in portfolio: String?, _ makeRows: (_ stored: String??, _ connection: any Database) throws -> [Transaction]
    ) throws -> (groupID: String?, rows: [Transaction]) {
        try write { connection in
            var portfolios: [String] = []
            let rows: [Transaction]
            if let portfolio {
                let stored = try currency(of: portfolio, connection)
                rows = try makeRows(stored, connection)
                if stored == nil {
                    guard portfolio == Transaction.defaultPortfolio else { throw Self.noPortfolio(portfolio) }
                    try insertPortfolio(portfolio, nil, connection)
                }
                portfolios.append(portfolio)
            } else {
                rows = try makeRows(nil, connection)
            }
            let groupID = rows.count > 1 ? WriteGroupIDs.next() : nil
            for row in rows where !portfolios.contains(row.portfolio) {
                try requirePortfolio(row.portfolio, connection)
                portfolios.append(row.portfolio)
            }
            for (index, row) in rows.enumerated() {
                guard let externalID = row.externalID else { continue }
                let repeated = rows[..<index].contains { $0.externalID == externalID && $0.portfolio == row.portfolio }
                let stored = try existingID(portfolio: row.portfolio, externalID: externalID, connection)
                if repeated || stored != nil {
                    throw CoinfolioError(
                        .invalidArgument, "external_id \"\(externalID)\" is already used in portfolio \"\(row.portfolio)\"",
                        details: [.field: .string("external_id")])
                }
            }
            // Each touched coin of each portfolio: its new entries (ids past every stored one, in
            // the order given) merged into the entries from the earliest new time on.
            var touched: [(portfolio: String, coinID: String, entries: [LedgerEntry])] = []
            for (index, row) in rows.enumerated() {
                let entry = Self.entry(row, id: Int64.max - Int64(rows.count - index))
                if let slot = touched.firstIndex(where: { Self.same($0.portfolio, row.portfolio) && Self.same($0.coinID, row.coinID) }) {
                    touched[slot].entries.append(entry)
                } else {
                    touched.append((row.portfolio, row.coinID, [entry]))
                }
            }
            var positions: [ExactDecimal] = []
            // Each portfolio's latest time as known before the rows (no read of later entries when
            // the rows come at or after it), raised past them once they are in.
            var latest: [(portfolio: String, time: Int64)] = []
            for (portfolio, coinID, added) in touched {
                let held = try position(portfolio: portfolio, coinID: coinID, connection)
                let removes = added.contains(where: { !$0.kind.adds })
                let known = removes ? try latestTime(of: portfolio, connection) : keptLatestTime(portfolio)
                if let known, !latest.contains(where: { Self.same($0.portfolio, portfolio) }) { latest.append((portfolio, known)) }
                guard removes else {
                    // Only additions: nothing later can go short; the holding must stay within range.
                    try Self.checkNeverNegative(from: held, [Self.sum(added, at: added[0])], coinID: coinID)
                    positions.append(held + Self.signedSum(added))
                    continue
                }
                // Every stored entry after the earliest new time (those at that time come before the
                // new ones), merged with the new ones in ledger order.
                let earliest = added.map(\.timestamp).min() ?? 0
                let later =
                    (known ?? .max) <= earliest
                    ? [] : try entries(portfolio: portfolio, coinID: coinID, after: (earliest, .max), connection)
                let merged = (later + added).sorted { precedes($0.point, $1.point) }
                try Self.checkNeverNegative(from: held - Self.signedSum(later), merged, coinID: coinID)
                positions.append(held + Self.signedSum(added))
            }
            var stored = rows
            let insertRow = try Self.insertStatement(skippingKnownExternalID: false, connection)
            for index in stored.indices {
                stored[index].groupID = groupID
                stored[index].id = try insert(stored[index], with: insertRow, skippingKnownExternalID: false, connection)
            }
            for (slot, coin) in touched.enumerated() {
                storePosition(portfolio: coin.portfolio, coinID: coin.coinID, positions[slot])
            }
            for (portfolio, known) in latest {
                let time = stored.lazy.filter { Self.same($0.portfolio, portfolio) }.map(\.timestamp).max() ?? known
                keepLatestTime(portfolio: portfolio, known: known, written: time)
            }
            return (groupID, stored)
        }
    }

    /// Deletes the transaction with `id` and, when it belongs to a group, every row of the group,
    /// unless that would leave a later disposal of any coin short (checked for the whole change).
    /// - Throws: `.notFound` for an unknown id; `.invalidArgument` for a shortfall; `.store`.
    func delete(id: Int64) throws {
        try write { connection in
            guard let row = try transaction(id: id, connection) else {
                throw CoinfolioError(.notFound, "no transaction with id \(id)", details: [.id: .string(String(id))])
            }
            var removed = [row]
            if let groupID = row.groupID { removed = try group(groupID, connection) }
            let positions = try positions(without: removed, connection)
            let delete = try connection.statement(
                row.groupID == nil
                    ? "DELETE FROM ledger_transaction WHERE id = ?1 AND owner = ?2"
                    : "DELETE FROM ledger_transaction WHERE group_id = ?1 AND owner = ?2")
            if let groupID = row.groupID { delete.bind(1, groupID) } else { delete.bind(1, id) }
            delete.bind(2, owner)
            try delete.run("cannot delete transaction")
            for coin in positions { storePosition(portfolio: coin.portfolio, coinID: coin.coinID, coin.position) }
        }
    }

    /// The holding of each (portfolio, coin) that `removed` touch once those rows are gone, after
    /// checking that no later disposal of it would then be short (the whole change at once).
    /// - Throws: `.invalidArgument` with `{coin_id, timestamp, short_by}` for a shortfall; `.store`.
    func positions(without removed: [Transaction], _ connection: any Database) throws -> [(
        portfolio: String, coinID: String, position: ExactDecimal
    )] {
        let removedIDs = Set(removed.compactMap(\.id))
        // Each touched coin: its entries from the earliest removed point on, without the removed ones.
        var touched: [(portfolio: String, coinID: String, from: LedgerPoint, change: ExactDecimal)] = []
        for row in removed {
            let point = (row.timestamp, (row.id ?? 0) - 1)
            let change = row.kind.signed(row.amount)
            if let slot = touched.firstIndex(where: { Self.same($0.portfolio, row.portfolio) && Self.same($0.coinID, row.coinID) }) {
                if precedes(point, touched[slot].from) { touched[slot].from = point }
                touched[slot].change += change
            } else {
                touched.append((row.portfolio, row.coinID, point, change))
            }
        }
        var positions: [(portfolio: String, coinID: String, position: ExactDecimal)] = []
        for (portfolio, coinID, from, change) in touched {
            let held = try position(portfolio: portfolio, coinID: coinID, connection)
            let later = try entries(portfolio: portfolio, coinID: coinID, after: from, connection)
            let kept = later.filter { !removedIDs.contains($0.id) }
            try Self.checkNeverNegative(from: held - Self.signedSum(later), kept, coinID: coinID)
            positions.append((portfolio, coinID, held - change))
        }
        return positions
    }

    /// One entry standing for `entries` together (their signed sum, an addition when not negative)
    /// at `entry`'s point: what the range check of additions needs.
    static func sum(_ entries: [LedgerEntry], at entry: LedgerEntry) -> LedgerEntry {
        let total = signedSum(entries)
        return LedgerEntry(
            id: entry.id, timestamp: entry.timestamp, kind: total.isNegative ? .transferOut : .transferIn,
            amount: total.isNegative ? -total : total)
    }

    /// Every row of the owner's group `groupID`, in ledger order.
    func group(_ groupID: String, _ connection: any Database) throws -> [Transaction] {
        try rows(where: "group_id = ?1 AND owner = ?2", groupID, connection)
    }

    /// The owner's rows that `condition` picks (`?1` is `value`, `?2` the owner), in ledger order.
    func rows(where condition: String, _ value: String, _ connection: any Database) throws -> [Transaction] {
        let select = try connection.statement(
            "SELECT \(LedgerRow.transactionColumns) FROM ledger_transaction WHERE \(condition) ORDER BY timestamp_ms, id")
        select.bind(1, value)
        select.bind(2, owner)
        defer { select.reset() }
        var rows: [Transaction] = []
        while try select.next() { rows.append(try LedgerRow.transaction(select)) }
        return rows
    }
}

extension LedgerStore {
    /// Whether two portfolio names or coin ids are the same to the database: the same UTF-8
    /// bytes (Swift's `==` calls NFC and NFD spellings equal; they are two portfolios or coins).
    static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
}

/// The group ids of single writes (a trade, a move, a row and its fee row): one `ImportGroupIDs`
/// for the whole process, seeded from `getrandom` once and counting up. Ascending ids go in at
/// the end of the `ledger_group` index, where a random id per group searched the whole index
/// (the INSERTs' extra cost in `add_trade`, issue 24), and no system call is made per group. As
/// unique as random ids; a child process made by `fork` seeds its own (it would otherwise count
/// the parent's ids again).
enum WriteGroupIDs {
    private static let source = Mutex<(pid: pid_t, ids: ImportGroupIDs)?>(nil)

    /// The next group id.
    static func next() -> String {
        let pid = getpid()
        return source.withLock { source in
            var ids = (source?.pid == pid ? source?.ids : nil) ?? ImportGroupIDs()
            let id = ids.next()
            source = (pid, ids)
            return id
        }
    }
}
