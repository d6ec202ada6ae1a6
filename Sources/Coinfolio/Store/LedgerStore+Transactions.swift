import Foundation

/// Transactions: adding and deleting one under the never-negative rule, and reading them back.
extension LedgerStore {
    /// Stores a validated transaction after checking that no running amount goes below zero.
    /// - Returns: the transaction with its new id.
    /// - Throws: `.invalidArgument` (rules, a used external id, a shortfall with details
    ///   `{coin_id, timestamp, short_by}`), `.notFound` for an unknown portfolio, `.store`.
    func add(_ transaction: Transaction) throws -> Transaction {
        try transaction.validate()
        return try write { connection in
            try requirePortfolio(transaction.portfolio, connection)
            if let externalID = transaction.externalID,
                try existingID(portfolio: transaction.portfolio, externalID: externalID, connection) != nil
            {
                throw CoinfolioError(
                    .invalidArgument, "external_id \"\(externalID)\" is already used in portfolio \"\(transaction.portfolio)\"",
                    details: ["field": .string("external_id")])
            }
            let held = try position(portfolio: transaction.portfolio, coinID: transaction.coinID, connection)
            if !transaction.kind.adds {
                // Later than every entry of the same time: insertion order breaks ties.
                let later = try entries(
                    portfolio: transaction.portfolio, coinID: transaction.coinID, after: (transaction.timestamp, .max), connection)
                try Self.checkNeverNegative(
                    from: held - Self.signedSum(later), [Self.entry(transaction, id: .max)] + later, coinID: transaction.coinID)
            }
            var stored = transaction
            stored.id = try insert(transaction, connection, skippingKnownExternalID: false)
            storePosition(
                portfolio: transaction.portfolio, coinID: transaction.coinID, held + transaction.kind.signed(transaction.amount))
            return stored
        }
    }

    /// Deletes a transaction unless that would leave a later sell or transfer out short.
    /// - Throws: `.notFound` for an unknown id; `.invalidArgument` for a shortfall.
    func delete(id: Int64) throws {
        try write { connection in
            let select = try connection.statement(
                "SELECT \(LedgerRow.transactionColumns) FROM ledger_transaction WHERE id = ?1 AND owner = ?2")
            select.bind(1, id)
            select.bind(2, owner)
            guard try select.next() else {
                select.reset()
                throw CoinfolioError(.notFound, "no transaction with id \(id)", details: ["id": .string(String(id))])
            }
            let transaction = try LedgerRow.transaction(select)
            select.reset()
            let held = try position(portfolio: transaction.portfolio, coinID: transaction.coinID, connection)
            let change = transaction.kind.signed(transaction.amount)
            if transaction.kind.adds {
                // Without it, every later point holds its amount less.
                let later = try entries(
                    portfolio: transaction.portfolio, coinID: transaction.coinID, after: (transaction.timestamp, id), connection)
                try Self.checkNeverNegative(from: held - change - Self.signedSum(later), later, coinID: transaction.coinID)
            }
            let delete = try connection.statement("DELETE FROM ledger_transaction WHERE id = ?1 AND owner = ?2")
            delete.bind(1, id)
            delete.bind(2, owner)
            try delete.run("cannot delete transaction")
            storePosition(portfolio: transaction.portfolio, coinID: transaction.coinID, held - change)
        }
    }

    /// A page of transactions in ledger order, and how many match in all.
    func transactions(_ query: TransactionQuery) throws -> (transactions: [Transaction], total: Int) {
        try file.locked { connection in
            // Parameters numbered without gaps (PostgreSQL needs every $n it is given).
            var conditions = ["owner = ?1", "portfolio = ?2"]
            var values: [(Int32, Any)] = []
            if let coinID = query.coinID {
                conditions.append("coin_id = ?\(conditions.count + 1)")
                values.append((Int32(conditions.count), coinID))
            }
            if let from = query.from {
                conditions.append("timestamp_ms >= ?\(conditions.count + 1)")
                values.append((Int32(conditions.count), from))
            }
            if let to = query.to {
                conditions.append("timestamp_ms <= ?\(conditions.count + 1)")
                values.append((Int32(conditions.count), to))
            }
            let filter = conditions.joined(separator: " AND ")
            func bind(_ statement: any DatabaseStatement) {
                statement.bind(1, owner)
                statement.bind(2, query.portfolio)
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

    /// Every transaction of a portfolio in ledger order, handed to `body` one at a time.
    func forEachTransaction(portfolio: String, _ body: (Transaction) throws -> Void) throws {
        try file.locked { connection in
            let select = try connection.statement(
                """
                SELECT \(LedgerRow.transactionColumns) FROM ledger_transaction WHERE portfolio = ?1 AND owner = ?2
                ORDER BY timestamp_ms, id
                """)
            select.bind(1, portfolio)
            select.bind(2, owner)
            defer { select.reset() }
            while try select.next() { try body(try LedgerRow.transaction(select)) }
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

    /// Inserts `t`; its new id, or nil when `skippingKnownExternalID` and the portfolio already has
    /// its external_id (nothing inserted).
    func insert(_ t: Transaction, _ connection: any Database, skippingKnownExternalID: Bool) throws -> Int64? {
        let statement = try connection.statement(skippingKnownExternalID ? Self.insertSkippingKnown : Self.insertSQL)
        statement.bind(1, t.portfolio)
        statement.bind(2, t.coinID)
        statement.bind(3, t.kind.rawValue)
        statement.bind(4, t.amount.description)
        statement.bind(5, t.price?.description)
        statement.bind(6, t.fee.description)
        statement.bind(7, t.timestamp)
        statement.bind(8, t.note)
        statement.bind(9, t.externalID)
        statement.bind(10, owner)
        defer { statement.reset() }
        // RETURNING gives the new id (no row when a known external id was skipped).
        guard try statement.next() else {
            if skippingKnownExternalID { return nil }
            throw CoinfolioError(.store, "cannot save the transaction: the database returned no id")
        }
        return statement.int64(0)
    }

    /// The insert of one row: ?1 portfolio, ?2 coin_id, ?3 kind, ?4 amount, ?5 price, ?6 fee,
    /// ?7 timestamp_ms, ?8 note, ?9 external_id, ?10 owner.
    static let insertColumns = """
        INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, owner)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        """
    private static let insertSQL = insertColumns + " RETURNING id"
    private static let insertSkippingKnown =
        insertColumns + " ON CONFLICT (owner, portfolio, external_id) WHERE external_id IS NOT NULL DO NOTHING RETURNING id"

    /// `t` as the ledger entry it becomes, under `id`.
    static func entry(_ t: Transaction, id: Int64) -> LedgerEntry {
        LedgerEntry(id: id, kind: t.kind, amount: t.amount, price: t.price, fee: t.fee, timestamp: t.timestamp)
    }
}
