import Foundation

/// The transfers `setHolding` and `setHoldings` record: for each coin, the difference between
/// what the portfolio holds and the target, as one transfer_in or transfer_out written now.
extension LedgerStore {
    /// Records, now, for each coin a transfer_in or transfer_out of the difference between what
    /// the portfolio holds and the target, and the coin's new position; nothing for a coin
    /// already at its target. Every field was checked by the caller (an id may be an older
    /// version's, being emptied); ids appear once. Reads the coins' positions from memory, and
    /// the entries later than now (normally none) only when some holding decreases.
    /// - Throws: `.invalidArgument` (never negative, with `{coin_id, timestamp, short_by}` and,
    ///   with several targets, `index`) when a later sell would exceed what is held; `.store`.
    func recordDifferences(
        portfolio: String, _ targets: [(coinID: String, target: ExactDecimal)], _ connection: any Database
    ) throws {
        let now = LedgerTimestamp.now()
        try loadPositions(portfolio: portfolio, connection)
        // The changes, and the positions set to their targets at once (a failed write drops them).
        var changes: [(coinID: String, adds: Bool, amount: ExactDecimal, held: ExactDecimal, index: Int)] = []
        changes.reserveCapacity(targets.count)
        var decreases = false
        changePositions(portfolio: portfolio) { held in
            for (index, (coinID, target)) in targets.enumerated() {
                let key = HoldingsKey(coinID)
                let current = held[key] ?? .zero
                guard current != target else { continue }
                let adds = target > current
                if !adds { decreases = true }
                changes.append((coinID, adds, adds ? target - current : current - target, current, index))
                held[key] = target
            }
        }
        if decreases {
            // Entries later than now (normally none) must not be left short.
            let later = try entries(portfolio: portfolio, after: (now, .max), connection)
            for change in changes where !change.adds {
                let after = later[HoldingsKey(change.coinID)] ?? []
                let entry = LedgerEntry(id: .max, timestamp: now, kind: .transferOut, amount: change.amount)
                do {
                    try Self.checkNeverNegative(from: change.held - Self.signedSum(after), [entry] + after, coinID: change.coinID)
                } catch var error as CoinfolioError where targets.count > 1 {
                    error.details[.index] = .number(Double(change.index))
                    throw error
                }
            }
        }
        if changes.count == 1 {
            // One change (every set_holding): one plain statement.
            let change = changes[0]
            let insert = try connection.statement(Self.insertColumns)
            insert.bind(1, portfolio)
            insert.bind(2, change.coinID)
            insert.bind(3, change.adds ? "transfer_in" : "transfer_out")
            insert.bind(4, change.amount.description)
            insert.bind(5, nil as String?)
            insert.bind(6, "0")
            insert.bind(7, now)
            insert.bind(8, "set_holding")
            insert.bind(9, nil as String?)
            insert.bind(10, owner)
            try insert.run("cannot save the transfer")
            return
        }
        guard !changes.isEmpty else { return }
        // Several: one JSON array [[coin_id, kind, amount]…] written by one statement instead of
        // one per coin: a statement run costs more than the row it writes.
        var rows = JSONWriter(reserving: changes.count * 48 + 2)
        rows.beginArray()
        for change in changes {
            rows.beginArray()
            rows.string(change.coinID)
            rows.raw(change.adds ? #""transfer_in""# : #""transfer_out""#)
            rows.rawBytes { bytes in
                bytes.append(UInt8(ascii: "\""))
                change.amount.appendText(to: &bytes)
                bytes.append(UInt8(ascii: "\""))
            }
            rows.endArray()
        }
        rows.endArray()
        let json = String(decoding: rows.bytes, as: UTF8.self)
        let insert = try connection.statement(
            """
            INSERT INTO ledger_transaction (owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id)
            SELECT ?1, ?2, value ->> 0, value ->> 1, value ->> 2, NULL, '0', CAST(?3 AS BIGINT), 'set_holding', NULL
            FROM \(connection.jsonArrayElements(parameter: 4))
            """)
        insert.bind(1, owner)
        insert.bind(2, portfolio)
        insert.bind(3, now)
        insert.bind(4, json)
        try insert.run("cannot save the transfers")
    }
}
