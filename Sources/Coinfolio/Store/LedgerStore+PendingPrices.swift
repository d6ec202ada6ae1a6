import Foundation

/// Pending prices (SPEC §17): the rows waiting for a price, and the prices `fill_prices` found
/// for them, written in one owner transaction.
extension LedgerStore {
    /// The owner's rows whose price is pending (`price_source` "pending"), in one portfolio or in
    /// all (nil), by id (insertion order). Read through the `ledger_pending` index.
    /// - Throws: `.store`.
    func pendingPrices(portfolio: String?) throws -> [Transaction] {
        try file.reading { connection in
            let select = try connection.statement(
                portfolio == nil
                    ? "SELECT \(LedgerRow.transactionColumns) FROM ledger_transaction WHERE owner = ?1 AND price_source = 'pending' ORDER BY id"
                    : """
                    SELECT \(LedgerRow.transactionColumns) FROM ledger_transaction
                    WHERE owner = ?1 AND portfolio = ?2 AND price_source = 'pending' ORDER BY id
                    """)
            select.bind(1, owner)
            if let portfolio { select.bind(2, portfolio) }
            defer { select.reset() }
            var rows: [Transaction] = []
            while try select.next() { rows.append(try LedgerRow.transaction(select)) }
            return rows
        }
    }

    /// Writes the prices found for pending rows: each row's price, source, `price_at`, fee and fee
    /// price, in one owner transaction; a row no longer pending (another process filled it, or it
    /// was deleted) is left as it is. Amounts never change, so no holding does.
    /// - Returns: how many rows were written.
    /// - Throws: `.store` (nothing written).
    @discardableResult
    func fillPrices(_ rows: [Transaction]) throws -> Int {
        guard !rows.isEmpty else { return 0 }
        return try write { connection in
            let update = try connection.statement(
                """
                UPDATE ledger_transaction SET price = ?1, price_source = ?2, price_at = ?3, fee = ?4, fee_price = ?5
                WHERE id = ?6 AND owner = ?7 AND price_source = 'pending'
                """)
            var written = 0
            for row in rows {
                guard let id = row.id else { continue }
                update.bind(1, row.price?.description)
                update.bind(2, row.priceSource?.rawValue)
                if let at = row.priceAt { update.bind(3, at) } else { update.bind(3, nil as String?) }
                update.bind(4, row.fee.description)
                update.bind(5, row.feePrice?.description)
                update.bind(6, id)
                update.bind(7, owner)
                written += try update.run("cannot write the filled prices")
            }
            return written
        }
    }
}
