import Foundation

/// Transactions: adding and deleting one under the never-negative rule, and reading them back.
extension LedgerStore {
    /// Stores a validated transaction after checking that no running amount goes below zero.
    /// - Returns: the transaction with its new id.
    /// - Throws: `.invalidArgument` (rules, a used external id, a shortfall with details
    ///   `{coin_id, timestamp, short_by}`), `.notFound` for an unknown portfolio, `.store`.
    func add(_ transaction: Transaction) throws -> Transaction {
        try transaction.validate()
        return try addGroup([transaction]).rows[0]
    }

    /// A page of transactions in ledger order, and how many match in all.
    func transactions(_ query: TransactionQuery) throws -> (transactions: [Transaction], total: Int) {
        try file.reading { connection in
            // Parameters numbered without gaps (PostgreSQL needs every $n it is given).
            var conditions = ["owner = ?1"]
            var values: [(Int32, Any)] = []
            /// Adds "`column` `comparison` ?n" with its value, when there is one.
            func condition(_ column: String, _ comparison: String, _ value: Any?) {
                guard let value else { return }
                conditions.append("\(column) \(comparison) ?\(conditions.count + 1)")
                values.append((Int32(conditions.count), value))
            }
            // "portfolio": null, or a group and no portfolio: the rows in every portfolio.
            let everyPortfolio = query.everyPortfolio || (query.portfolio == nil && query.groupID != nil)
            condition("portfolio", "=", everyPortfolio ? nil : query.portfolio ?? Transaction.defaultPortfolio)
            condition("group_id", "=", query.groupID)
            condition("coin_id", "=", query.coinID)
            condition("timestamp_ms", ">=", query.from)
            condition("timestamp_ms", "<=", query.to)
            let filter = conditions.joined(separator: " AND ")
            func bind(_ statement: any DatabaseStatement) {
                statement.bind(1, owner)
                for (index, value) in values {
                    if let text = value as? String { statement.bind(index, text) }
                    if let number = value as? Int64 { statement.bind(index, number) }
                }
            }
            let count = try connection.statement("SELECT count(*) FROM ledger_transaction WHERE \(filter)")
            bind(count)
            let total = try count.scalarInt() ?? 0
            // No LIMIT −1 on PostgreSQL: a page without a limit asks for every remaining row.
            let limit = Int64(query.limit ?? Int(Int32.max))
            let next = conditions.count
            let select = try connection.statement(
                """
                SELECT \(LedgerRow.transactionColumns) FROM ledger_transaction WHERE \(filter)
                ORDER BY timestamp_ms, id LIMIT ?\(next + 1) OFFSET ?\(next + 2)
                """)
            bind(select)
            select.bind(Int32(next + 1), limit)
            select.bind(Int32(next + 2), query.offset)
            var page: [Transaction] = []
            while try select.next() { page.append(try LedgerRow.transaction(select)) }
            return (page, total)
        }
    }

    /// Every transaction of a portfolio (of every portfolio for nil) in ledger order, handed to
    /// `body` one at a time. `anyPriceCurrency`, when given, is told before the first row
    /// whether any of them has a `price_currency` (read by the same statement: the same rows).
    func forEachTransaction(
        portfolio: String?, anyPriceCurrency: ((Bool) -> Void)? = nil, _ body: (Transaction) throws -> Void
    ) throws {
        try file.reading(streaming: true) { connection in
            let scope = "owner = ?1\(portfolio == nil ? "" : " AND portfolio = ?2")"
            let any = "EXISTS (SELECT 1 FROM ledger_transaction WHERE \(scope) AND price_currency IS NOT NULL)"
            let flag = anyPriceCurrency == nil ? "" : ", CASE WHEN \(any) THEN 1 ELSE 0 END"
            let select = try connection.statement(
                "SELECT \(LedgerRow.transactionColumns)\(flag) FROM ledger_transaction WHERE \(scope) ORDER BY timestamp_ms, id")
            select.bind(1, owner)
            if let portfolio { select.bind(2, portfolio) }
            defer { select.reset() }
            var first = true
            while try select.next() {
                if first, let anyPriceCurrency { anyPriceCurrency(select.int64(LedgerRow.transactionColumnCount) == 1) }
                first = false
                try body(try LedgerRow.transaction(select))
            }
        }
    }

    /// The id of the portfolio's row with `externalID`, if any.
    func existingID(portfolio: String, externalID: String, _ connection: any Database) throws -> Int64? {
        let statement = try connection.statement(
            "SELECT id FROM ledger_transaction WHERE portfolio = ?1 AND external_id = ?2 AND owner = ?3")
        statement.bind(1, portfolio)
        statement.bind(2, externalID)
        statement.bind(3, owner)
        defer { statement.reset() }
        return try statement.next() ? statement.int64(0) : nil
    }

    /// The row with `id` as a transaction, if the owner has one.
    func transaction(id: Int64, _ connection: any Database) throws -> Transaction? {
        let select = try connection.statement(
            "SELECT \(LedgerRow.transactionColumns) FROM ledger_transaction WHERE id = ?1 AND owner = ?2")
        select.bind(1, id)
        select.bind(2, owner)
        defer { select.reset() }
        return try select.next() ? LedgerRow.transaction(select) : nil
    }

    /// Inserts `t` (its `groupID` included); its new id, or nil when `skippingKnownExternalID` and
    /// the portfolio already has its external_id (nothing inserted).
    func insert(_ t: Transaction, _ connection: any Database, skippingKnownExternalID: Bool) throws -> Int64? {
        let statement = try Self.insertStatement(skippingKnownExternalID: skippingKnownExternalID, connection)
        return try insert(t, with: statement, skippingKnownExternalID: skippingKnownExternalID, connection)
    }

    /// `insert(_:_:skippingKnownExternalID:)` through a statement of `insertStatement(skippingKnownExternalID:)`
    /// already at hand (an import fetches it once, not once a row).
    func insert(
        _ t: Transaction, with statement: any DatabaseStatement, skippingKnownExternalID: Bool, _ connection: any Database
    ) throws -> Int64? {
        try insert(
            t, with: statement, sqlite: statement as? SQLiteStatement, skippingKnownExternalID: skippingKnownExternalID, connection)
    }

    /// `insert(_:with:skippingKnownExternalID:_:)` with `statement as? SQLiteStatement` already
    /// at hand (an import casts once, not once a row: the cast took ~250 instructions).
    func insert(
        _ t: Transaction, with statement: any DatabaseStatement, sqlite: SQLiteStatement?, skippingKnownExternalID: Bool,
        _ connection: any Database
    ) throws -> Int64? {
        // SQLite's statement bound through its own type: no dispatch through the protocol for each
        // of the row's 18 binds.
        if let sqlite { bindInsert(t, sqlite) } else { bindInsert(t, statement) }
        defer { statement.reset() }
        // No id when a known external id was skipped.
        guard let id = try connection.insertedID(statement) else {
            if skippingKnownExternalID { return nil }
            throw CoinfolioError(.store, "cannot save the transaction: the database returned no id")
        }
        return id
    }

    /// Binds `t`'s columns (`insertAllColumns`' order) to an insert statement.
    private func bindInsert<S: DatabaseStatement>(_ t: Transaction, _ statement: S) {
        statement.bind(1, t.portfolio)
        statement.bind(2, t.coinID)
        statement.bind(3, t.kind.rawValue)
        statement.bind(4, t.amount)
        statement.bind(5, t.price)
        statement.bind(6, t.fee)
        statement.bind(7, t.timestamp)
        statement.bind(8, t.note)
        statement.bind(9, t.externalID)
        statement.bind(10, owner)
        statement.bind(11, t.groupID)
        statement.bind(12, t.incomeType?.rawValue)
        statement.bind(13, t.feeCoinID)
        statement.bind(14, t.feePrice)
        statement.bind(15, t.priceSource?.rawValue)
        if let priceAt = t.priceAt { statement.bind(16, priceAt) } else { statement.bind(16, nil as String?) }
        statement.bind(17, t.originalPrice?.description)
        statement.bind(18, t.priceCurrency)
    }

    /// The insert of one plain row (a set_holding transfer): ?1 portfolio, ?2 coin_id, ?3 kind,
    /// ?4 amount, ?5 price, ?6 fee, ?7 timestamp_ms, ?8 note, ?9 external_id, ?10 owner.
    static let insertColumns = """
        INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, owner)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        """
    /// The insert of any row: `insertColumns`' ten, then ?11 group_id, ?12 income_type,
    /// ?13 fee_coin_id, ?14 fee_price, ?15 price_source, ?16 price_at, ?17 original_price,
    /// ?18 price_currency.
    private static let insertAllColumns = """
        INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, owner,
            group_id, income_type, fee_coin_id, fee_price, price_source, price_at, original_price, price_currency)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
        """
    /// The insert statement `insert(_:with:skippingKnownExternalID:_:)` takes, its new id read by
    /// `Database.insertedID` (RETURNING on PostgreSQL only).
    static func insertStatement(skippingKnownExternalID: Bool, _ connection: any Database) throws -> any DatabaseStatement {
        try connection.statement((skippingKnownExternalID ? insertSkippingKnown : insertAllColumns) + connection.returningInsertedID)
    }
    private static let insertSkippingKnown =
        insertAllColumns + " ON CONFLICT (owner, portfolio, external_id) WHERE external_id IS NOT NULL DO NOTHING"

    /// `t` as the ledger entry it becomes, under `id`.
    static func entry(_ t: Transaction, id: Int64) -> LedgerEntry {
        LedgerEntry(id: id, timestamp: t.timestamp, kind: t.kind, amount: t.amount)
    }
}
