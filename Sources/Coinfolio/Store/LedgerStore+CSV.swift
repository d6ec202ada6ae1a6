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
    ///   - prices: where a fee row without a price finds one (SPEC §16), read through the
    ///     import's own write (the database given).
    ///   - defaultPortfolio: the portfolio of rows whose `portfolio` cell is empty (or of every
    ///     row when the header has no such column); nil: "main".
    ///   - keep: false for a dry run (everything checked, then rolled back).
    ///   - units: called with each file row's rows (a row and its fee row), in order, before
    ///     they are written (the ordinals of `ImportCounts.skippedOrdinals`).
    ///   - progress: called with the rows read so far every 1,000 rows, and once more at the end
    ///     with `finished` true (after the checks, before the commit).
    /// - Returns: file rows imported and file rows skipped (their external_id already in the
    ///   portfolio), and the counts of transactions (fee rows included).
    /// - Throws: `.invalidArgument` with `details.line` and `details.column`; `.store`;
    ///   `CancellationError` when the async call it serves is cancelled (nothing is written).
    func importCSV(
        _ reader: inout CSVReader, newPortfolioCurrency: String, prices pricesWithin: (any Database) -> StoredPrices = { _ in .none },
        defaultPortfolio: String? = nil,
        keep: Bool = true, units: (([Transaction]) -> Void)? = nil, progress: ((_ rows: Int, _ finished: Bool) -> Void)? = nil
    ) throws -> (imported: Int, skipped: Int, counts: ImportCounts) {
        guard var rows = try LedgerCSVRows.header(&reader, defaultPortfolio: defaultPortfolio) else { return (0, 0, ImportCounts()) }
        // Each portfolio's currency (for fee rows' stored prices), once.
        var currencies: [String: String] = [:]
        // The file's group labels and the fresh group id each one stands for.
        var groups: [String: String] = [:]
        var ownExports = 0
        var heldPrices: StoredPrices?
        var counts = try importUnits(keep: keep) { connection in
            let prices = heldPrices ?? pricesWithin(connection)
            heldPrices = prices
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
                    ownExports += 1
                    continue
                }
                var transaction = row
                if let label = row.groupID {
                    transaction.groupID = groups[label] ?? UUID().uuidString.lowercased()
                    groups[label] = transaction.groupID
                }
                // With a fee in a coin, the row's fee row follows it, in its group.
                let vs = currencies[row.portfolio] ?? newPortfolioCurrency
                let written = Self.withPriceCurrency(LedgerGroup.rows([transaction], prices: prices, vsCurrency: vs), vs, prices)
                units?(written)
                return ImportUnit(rows: written, line: line)
            }
            return nil
        } checked: {
            progress?(rows.rowsRead, true)
        }
        counts.skippedUnits += ownExports
        counts.skippedRows += ownExports
        return (counts.importedUnits, counts.skippedUnits, counts)
    }

    /// A file row's rows (it and its fee row) with a price in another currency (SPEC §17), as
    /// export wrote them: with a price, the row was stored converted (price, fee and fee price in
    /// the portfolio's currency, `original_price` as given) and is kept so, its fee row priced in
    /// the portfolio's currency (where that price came from is not in the file); without one it
    /// is converted as a new transaction would be, from stored prices, else pending. A
    /// `price_currency` that is the portfolio's own is cleared, with `original_price`.
    static func withPriceCurrency(_ rows: [Transaction], _ vs: String, _ prices: StoredPrices) -> [Transaction] {
        guard let given = rows.first?.priceCurrency else { return rows }
        let converted = rows.first?.price != nil
        if given == vs || converted {
            return rows.enumerated().map { index, row in
                guard given == vs || index > 0 else { return row }
                var row = row
                (row.priceCurrency, row.originalPrice) = (nil, nil)
                return row
            }
        }
        return rows.map { PriceConversion.prepared($0, portfolioCurrency: vs, prices: prices) }
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
            && stored.priceCurrency == transaction.priceCurrency && stored.originalPrice == transaction.originalPrice
    }

    /// Writes the portfolio's transactions (every portfolio's for nil) as CSV (the long header
    /// first, then `price_currency,original_price` when a row has a price in another currency),
    /// in ledger order, to `sink` in pieces of about 64 KiB. A fee row recreated from its parent's `fee_coin_id` is
    /// not written: its price goes in the parent's `fee_price`.
    func exportCSV(portfolio: String?, to sink: ([UInt8]) throws -> Void) throws {
        var writer = CSVWriter(reserving: CSVReader.chunkSize + 4096)
        if let portfolio, try portfolioCurrency(portfolio) == nil, portfolio != Transaction.defaultPortfolio {
            throw Self.noPortfolio(portfolio)
        }
        var currencies: Bool?
        func record(_ t: Transaction, feePrice: ExactDecimal?) {
            writer.record(LedgerCSV.record(t, feePrice: feePrice, currencies: currencies == true))
        }
        // A row with a fee in a coin waits for the next row: its fee row, when that follows.
        var parent: Transaction?
        try forEachTransaction(portfolio: portfolio) { any in
            currencies = any
            writer.record(any ? LedgerCSV.columns + LedgerCSV.currencyColumns : LedgerCSV.columns)
        } _: { transaction in
            if let waiting = parent {
                parent = nil
                if transaction.kind == .fee, transaction.groupID != nil, transaction.groupID == waiting.groupID,
                    transaction.coinID == waiting.feeCoinID, transaction.amount == waiting.fee
                {
                    record(waiting, feePrice: transaction.price)
                    return
                }
                record(waiting, feePrice: nil)
            }
            if transaction.feeCoinID != nil, !transaction.fee.isZero {
                parent = transaction
            } else {
                record(transaction, feePrice: nil)
            }
            if writer.bytes.count >= CSVReader.chunkSize { try sink(writer.take()) }
        }
        if currencies == nil { writer.record(LedgerCSV.columns) }
        if let waiting = parent { record(waiting, feePrice: nil) }
        try sink(writer.take())
    }
}
