/// The one reader of a `ledger_transaction` row: every statement that reads ledger rows selects
/// `entryColumns` (a `LedgerEntry`, what sums, checks and cost basis need) or
/// `transactionColumns` (a whole `Transaction`) and reads them here. The kind is read through
/// `TransactionKind`, amounts, prices and fees as exact decimals, income types and price sources
/// through their enums; a value no Coinfolio writes (the database was changed outside it) is
/// refused, never guessed.
enum LedgerRow {
    /// The columns `entry(_:at:)` reads, in its order.
    static let entryColumns = "id, kind, amount, price, fee, timestamp_ms, group_id, fee_coin_id, price_currency"
    /// The columns `transaction(_:)` reads, in its order: `entryColumns` first.
    static let transactionColumns =
        entryColumns + ", portfolio, coin_id, note, external_id, income_type, fee_price, price_source, price_at, original_price"
    /// How many `transactionColumns` there are (a column selected after them is at this index).
    static let transactionColumnCount = Int32(transactionColumns.split(separator: ",").count)

    /// The exact values of `entryColumns` starting at column `first`.
    private static func values(_ s: any DatabaseStatement, at first: Int32) throws -> (
        kind: TransactionKind, amount: ExactDecimal, price: ExactDecimal?, fee: ExactDecimal
    ) {
        guard let kind = s.withText(first + 1, { TransactionKind(utf8: $0) }) else { throw corrupt("kind") }
        guard let amount = s.withText(first + 2, exact) else { throw corrupt("amount") }
        let price = try optionalExact(s, first + 3, "price")
        guard let fee = s.withText(first + 4, exact) else { throw corrupt("fee") }
        return (kind, amount, price, fee)
    }

    /// The entry whose `entryColumns` start at column `first` (its group, when `groups` is
    /// given, numbered there; else none). A row whose fee was paid in a coin (`fee_coin_id`) has
    /// the fee row's value as its fee: unknown (nil) here, filled in by
    /// `LedgerStore.ledger(portfolio:)` when it reads the fee row that follows. A row whose price
    /// given in another currency waits for its conversion (`price_currency` with no price yet)
    /// has its fee in that currency: unknown too (SPEC §17), never counted in the portfolio's.
    /// - Throws: `.store` (`corrupt`) for a kind, amount, price or fee Coinfolio never writes.
    static func entry(_ s: any DatabaseStatement, at first: Int32, groups: UnsafeMutablePointer<LedgerGroupNumbers>? = nil) throws
        -> LedgerEntry
    {
        let (kind, amount, price, fee) = try values(s, at: first)
        var group: Int32 = 0
        if let groups, !s.isNull(first + 6) { group = groups.pointee.number(s.text(first + 6) ?? "") }
        let convertingFee = price == nil && !s.isNull(first + 8) && !fee.isZero
        return LedgerEntry(
            id: s.int64(first), timestamp: s.int64(first + 5), kind: kind, amount: amount, price: price.map(PreciseDecimal.init),
            fee: (s.isNull(first + 7) || fee.isZero) && !convertingFee ? PreciseDecimal(fee) : nil, group: group,
            feeInCoin: !s.isNull(first + 7))
    }

    /// The coin a fee was paid in (`fee_coin_id`) of the row whose `entryColumns` start at
    /// `first`, as its bytes; nil when the fee is in the portfolio's currency.
    static func feeCoin(_ s: any DatabaseStatement, at first: Int32) -> [UInt8]? {
        s.isNull(first + 7) ? nil : s.withText(first + 7) { Array($0) }
    }

    /// The transaction whose `transactionColumns` start at column 0.
    /// - Throws: as `entry(_:at:)`, and for an income type or price source Coinfolio never writes.
    static func transaction(_ s: any DatabaseStatement) throws -> Transaction {
        let (kind, amount, price, fee) = try values(s, at: 0)
        var incomeType: IncomeType?
        if let text = s.text(13) {
            guard let type = IncomeType(rawValue: text) else { throw corrupt("income_type") }
            incomeType = type
        }
        var priceSource: PriceSource?
        if let text = s.text(15) {
            guard let source = PriceSource(rawValue: text) else { throw corrupt("price_source") }
            priceSource = source
        }
        return Transaction(
            id: s.int64(0), portfolio: s.text(9) ?? "", coinID: s.text(10) ?? "", kind: kind, amount: amount, price: price, fee: fee,
            timestamp: s.int64(5), note: s.text(11), externalID: s.text(12), feeCoinID: s.text(7),
            feePrice: try optionalExact(s, 14, "fee_price"), incomeType: incomeType, groupID: s.text(6),
            priceSource: priceSource, priceAt: s.isNull(16) ? nil : s.int64(16), priceCurrency: s.text(8),
            originalPrice: try optionalExact(s, 17, "original_price"))
    }

    /// A column's exact decimal as stored (text, never rounded).
    private static func exact(_ bytes: UnsafeBufferPointer<UInt8>) -> ExactDecimal? {
        ExactDecimal.parse(bytes, rounding: false)
    }

    /// A nullable decimal column: nil for NULL. - Throws: `corrupt(name)` for bad text.
    private static func optionalExact(_ s: any DatabaseStatement, _ column: Int32, _ name: String) throws -> ExactDecimal? {
        guard !s.isNull(column) else { return nil }
        guard let value = s.withText(column, exact) else { throw corrupt(name) }
        return value
    }

    /// The error for a row Coinfolio did not write.
    static func corrupt(_ what: String) -> CoinfolioError {
        CoinfolioError(.store, "the ledger holds a bad \(what); the database was changed outside Coinfolio")
    }
}
