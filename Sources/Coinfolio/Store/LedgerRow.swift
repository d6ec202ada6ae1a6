/// The one reader of a `ledger_transaction` row: every statement that reads ledger rows selects
/// `entryColumns` (a `LedgerEntry`, what sums, checks and cost basis need) or
/// `transactionColumns` (a whole `Transaction`) and reads them here. The kind is read through
/// `TransactionKind`, amounts, prices and fees as exact decimals; a value no Coinfolio writes
/// (the database was changed outside it) is refused, never guessed.
enum LedgerRow {
    /// The columns `entry(_:at:)` reads, in its order.
    static let entryColumns = "id, kind, amount, price, fee, timestamp_ms"
    /// The columns `transaction(_:)` reads, in its order: `entryColumns` first.
    static let transactionColumns = entryColumns + ", portfolio, coin_id, note, external_id"

    /// The entry whose `entryColumns` start at column `first`.
    /// - Throws: `.store` (`corrupt`) for a kind, amount, price or fee Coinfolio never writes.
    static func entry(_ s: any DatabaseStatement, at first: Int32) throws -> LedgerEntry {
        guard let kind = s.withText(first + 1, { TransactionKind(utf8: $0) }) else { throw corrupt("kind") }
        guard let amount = s.withText(first + 2, exact) else { throw corrupt("amount") }
        var price: ExactDecimal?
        if !s.isNull(first + 3) {
            guard let value = s.withText(first + 3, exact) else { throw corrupt("price") }
            price = value
        }
        guard let fee = s.withText(first + 4, exact) else { throw corrupt("fee") }
        return LedgerEntry(id: s.int64(first), kind: kind, amount: amount, price: price, fee: fee, timestamp: s.int64(first + 5))
    }

    /// The transaction whose `transactionColumns` start at column 0.
    /// - Throws: as `entry(_:at:)`.
    static func transaction(_ s: any DatabaseStatement) throws -> Transaction {
        let entry = try entry(s, at: 0)
        return Transaction(
            id: entry.id, portfolio: s.text(6) ?? "", coinID: s.text(7) ?? "", kind: entry.kind, amount: entry.amount,
            price: entry.price, fee: entry.fee, timestamp: entry.timestamp, note: s.text(8), externalID: s.text(9))
    }

    /// A column's exact decimal as stored (text, never rounded).
    private static func exact(_ bytes: UnsafeBufferPointer<UInt8>) -> ExactDecimal? {
        ExactDecimal.parse(bytes, rounding: false)
    }

    /// The error for a row Coinfolio did not write.
    static func corrupt(_ what: String) -> CoinfolioError {
        CoinfolioError(.store, "the ledger holds a bad \(what); the database was changed outside Coinfolio")
    }
}
