import Foundation
import Synchronization

/// The ledger in the store's SQLite file: named portfolios and their transactions (SPEC §12).
///
/// Holdings are derived: a portfolio holds the sum of its transactions. Every write runs in one
/// `BEGIN IMMEDIATE` transaction that first checks the "never negative" rule against the rows
/// as committed by every process, so two processes selling at once cannot both pass the check.
/// Amounts, prices and fees are stored as exact decimal text. Reads of a whole portfolio are
/// cached until another connection commits (`PRAGMA data_version`) or this one writes.
final class LedgerStore: Sendable {
    /// One coin's entries in ledger order.
    typealias CoinLedger = (coinID: String, entries: [LedgerEntry])

    private let file: StoreConnection
    /// portfolio → coins in id order, each with its entries in ledger order; and SQLite's
    /// `data_version` when they were read. Used only while holding the connection's lock.
    private let cache = Mutex<(dataVersion: Int, portfolios: [String: [CoinLedger]])>((-1, [:]))

    init(connection: StoreConnection) {
        file = connection
    }

    /// Columns of a full transaction row, in `readTransaction`'s order.
    static let columns = "id, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id"

    // MARK: - Schema

    /// Schema step 2: portfolios and transactions ("main" exists from the start).
    static let schemaSQL = """
        CREATE TABLE portfolio (
            name TEXT PRIMARY KEY NOT NULL,
            vs_currency TEXT
        ) WITHOUT ROWID;
        CREATE TABLE ledger_transaction (
            id INTEGER PRIMARY KEY,
            portfolio TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('buy', 'sell', 'transfer_in', 'transfer_out')),
            amount TEXT NOT NULL,
            price TEXT,
            fee TEXT NOT NULL,
            timestamp_ms INTEGER NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            external_id TEXT
        );
        CREATE UNIQUE INDEX ledger_external_id ON ledger_transaction (portfolio, external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX ledger_order ON ledger_transaction (portfolio, coin_id, timestamp_ms, id);
        INSERT INTO portfolio (name, vs_currency) VALUES ('main', NULL);
        """

    /// Schema step 2's data move: each schema-1 holding becomes a transfer_in of unknown cost at
    /// 1970-01-01T00:00:00Z with the note "schema 1 holding", then the holding table goes. Runs
    /// inside the migration's transaction.
    @Sendable static func moveSchemaOneHoldings(_ connection: SQLiteConnection) throws {
        let holdings = try connection.statement("SELECT coin_id, amount FROM holding ORDER BY coin_id")
        var rows: [(String, Double)] = []
        while try holdings.next() { rows.append((holdings.text(0) ?? "", holdings.double(1))) }
        holdings.reset()
        for (coinID, amount) in rows {
            // The shortest text of the stored double is the amount as it was typed (0.1 stays 0.1).
            let exact = ExactDecimal(amount) ?? .zero
            let units = exact.isZero ? ExactDecimal(units: 1) : exact
            let insert = try connection.statement(
                """
                INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note)
                VALUES ('main', ?1, 'transfer_in', ?2, NULL, '0', 0, 'schema 1 holding')
                """)
            insert.bind(1, coinID)
            insert.bind(2, units.description)
            try insert.run("cannot migrate holding \(coinID)")
        }
        try connection.execute("DROP TABLE holding")
    }

    // MARK: - Portfolios

    /// Every portfolio by name (bytewise); a nil currency means "the engine's vs_currency".
    func portfolios() throws -> [(name: String, vsCurrency: String?)] {
        try file.locked { connection in
            let statement = try connection.statement("SELECT name, vs_currency FROM portfolio ORDER BY name")
            var result: [(String, String?)] = []
            while try statement.next() { result.append((statement.text(0) ?? "", statement.text(1))) }
            return result
        }
    }

    /// The portfolio's stored currency: `.some(nil)` for "the engine's", nil when it does not exist.
    func portfolioCurrency(_ name: String) throws -> String?? {
        try file.locked { connection in try currency(of: name, connection) }
    }

    func currency(of name: String, _ connection: SQLiteConnection) throws -> String?? {
        let statement = try connection.statement("SELECT vs_currency FROM portfolio WHERE name = ?1")
        statement.bind(1, name)
        defer { statement.reset() }
        guard try statement.next() else { return nil }
        return .some(statement.text(0))
    }

    /// Creates a portfolio. - Throws: `.invalidArgument` when the name is taken or bad.
    func createPortfolio(name: String, vsCurrency: String?) throws {
        try Transaction.validatePortfolioName(name)
        try write { connection in
            guard try currency(of: name, connection) == nil else {
                throw CoinfolioError(
                    .invalidArgument, "a portfolio named \"\(name)\" already exists", details: ["portfolio": .string(name)])
            }
            try insertPortfolio(name, vsCurrency, connection)
        }
    }

    func insertPortfolio(_ name: String, _ vsCurrency: String?, _ connection: SQLiteConnection) throws {
        let statement = try connection.statement("INSERT INTO portfolio (name, vs_currency) VALUES (?1, ?2)")
        statement.bind(1, name)
        statement.bind(2, vsCurrency)
        try statement.run("cannot create portfolio")
    }

    /// Renames a portfolio and moves its transactions.
    /// - Throws: `.notFound` without one named `name`; `.invalidArgument` when `newName` is taken or bad.
    func renamePortfolio(_ name: String, to newName: String) throws {
        try Transaction.validatePortfolioName(newName)
        try write { connection in
            guard let vs = try currency(of: name, connection) else { throw Self.noPortfolio(name) }
            guard name != newName else { return }
            guard try currency(of: newName, connection) == nil else {
                throw CoinfolioError(
                    .invalidArgument, "a portfolio named \"\(newName)\" already exists", details: ["portfolio": .string(newName)])
            }
            try insertPortfolio(newName, vs, connection)
            let move = try connection.statement("UPDATE ledger_transaction SET portfolio = ?2 WHERE portfolio = ?1")
            move.bind(1, name)
            move.bind(2, newName)
            try move.run("cannot rename portfolio")
            let delete = try connection.statement("DELETE FROM portfolio WHERE name = ?1")
            delete.bind(1, name)
            try delete.run("cannot rename portfolio")
        }
    }

    /// Deletes a portfolio; with transactions only when `force` (they go with it).
    /// - Throws: `.notFound`; `.invalidArgument` when it has transactions and `force` is false
    ///   (`details.transactions` = how many).
    func deletePortfolio(_ name: String, force: Bool) throws {
        try write { connection in
            guard try currency(of: name, connection) != nil else { throw Self.noPortfolio(name) }
            let count = try connection.statement("SELECT count(*) FROM ledger_transaction WHERE portfolio = ?1")
            count.bind(1, name)
            let transactions = try count.scalarInt() ?? 0
            if transactions > 0, !force {
                throw CoinfolioError(
                    .invalidArgument, "portfolio \"\(name)\" has \(transactions) transactions: pass force to delete them with it",
                    details: ["portfolio": .string(name), "transactions": .number(Double(transactions))])
            }
            for sql in ["DELETE FROM ledger_transaction WHERE portfolio = ?1", "DELETE FROM portfolio WHERE name = ?1"] {
                let statement = try connection.statement(sql)
                statement.bind(1, name)
                try statement.run("cannot delete portfolio")
            }
        }
    }

    static func noPortfolio(_ name: String) -> CoinfolioError {
        CoinfolioError(.notFound, "no portfolio named \"\(name)\"", details: ["portfolio": .string(name)])
    }

    /// Creates "main" on first use (it may have been renamed or deleted); other names must exist.
    private func requirePortfolio(_ name: String, _ connection: SQLiteConnection) throws {
        guard try currency(of: name, connection) == nil else { return }
        guard name == Transaction.defaultPortfolio else { throw Self.noPortfolio(name) }
        try insertPortfolio(name, nil, connection)
    }

    // MARK: - Transactions

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
            if !transaction.kind.adds {
                var entries = try coinEntries(portfolio: transaction.portfolio, coinID: transaction.coinID, connection)
                // Later than every entry of the same time: insertion order breaks ties.
                let position = entries.firstIndex { $0.timestamp > transaction.timestamp } ?? entries.count
                entries.insert(Self.entry(transaction, id: Int64.max), at: position)
                try Self.checkNeverNegative(entries, coinID: transaction.coinID)
            }
            var stored = transaction
            stored.id = try insert(transaction, connection, skippingKnownExternalID: false)
            return stored
        }
    }

    /// Deletes a transaction unless that would leave a later sell or transfer out short.
    /// - Throws: `.notFound` for an unknown id; `.invalidArgument` for a shortfall.
    func delete(id: Int64) throws {
        try write { connection in
            let select = try connection.statement("SELECT \(Self.columns) FROM ledger_transaction WHERE id = ?1")
            select.bind(1, id)
            guard try select.next() else {
                select.reset()
                throw CoinfolioError(.notFound, "no transaction with id \(id)", details: ["id": .string(String(id))])
            }
            let transaction = try Self.readTransaction(select)
            select.reset()
            if transaction.kind.adds {
                let entries = try coinEntries(portfolio: transaction.portfolio, coinID: transaction.coinID, connection).filter {
                    $0.id != id
                }
                try Self.checkNeverNegative(entries, coinID: transaction.coinID)
            }
            let delete = try connection.statement("DELETE FROM ledger_transaction WHERE id = ?1")
            delete.bind(1, id)
            try delete.run("cannot delete transaction")
        }
    }

    /// Makes the portfolio hold `amount` of the coin by recording a transfer_in or transfer_out
    /// of the difference, now. ≤ 0 empties the holding.
    func setHolding(portfolio: String, coinID: String, amount: Double) throws {
        try Transaction.validatePortfolioName(portfolio)
        try CoinID.validateHeldAsListable(coinID)
        do {
            try CoinID.validateHolding(coinID)
        } catch let error as CoinfolioError where error.details["suggestion"] != nil && amount <= 0 {
            // A holding an older version stored under such an id can still be emptied.
            guard try holdings(portfolio: portfolio).contains(where: { $0.coinID.utf8.elementsEqual(coinID.utf8) }) else {
                throw error
            }
        }
        guard amount.isFinite else { throw CoinfolioError.invalid("amount must be a finite number, not \(amount)") }
        let target: ExactDecimal
        if amount > 0 {
            guard let exact = ExactDecimal(amount), !exact.isZero else {
                throw CoinfolioError(
                    .invalidArgument, "amount \(amount) is outside what the ledger keeps (1e-18 to 8.5e19 units)",
                    details: ["field": .string("amount")])
            }
            target = exact
        } else {
            target = .zero
        }
        try write { connection in
            try requirePortfolio(portfolio, connection)
            let entries = try coinEntries(portfolio: portfolio, coinID: coinID, connection)
            var held = ExactDecimal.zero
            for entry in entries { held += entry.kind.adds ? entry.amount : -entry.amount }
            guard held != target else { return }
            let transaction = Transaction(
                portfolio: portfolio, coinID: coinID, kind: target > held ? .transferIn : .transferOut,
                amount: target > held ? target - held : held - target, timestamp: LedgerTimestamp.now(), note: "set_holding")
            // Every field was checked above (the id may be an older version's, being emptied).
            if !transaction.kind.adds {
                var all = entries
                all.append(Self.entry(transaction, id: Int64.max))
                all.sort { $0.timestamp < $1.timestamp || ($0.timestamp == $1.timestamp && $0.id < $1.id) }
                try Self.checkNeverNegative(all, coinID: coinID)
            }
            _ = try insert(transaction, connection, skippingKnownExternalID: false)
        }
    }

    /// A page of transactions in ledger order, and how many match in all.
    func transactions(_ query: TransactionQuery) throws -> (transactions: [Transaction], total: Int) {
        try file.locked { connection in
            var conditions = ["portfolio = ?1"]
            if query.coinID != nil { conditions.append("coin_id = ?2") }
            if query.from != nil { conditions.append("timestamp_ms >= ?3") }
            if query.to != nil { conditions.append("timestamp_ms <= ?4") }
            let filter = conditions.joined(separator: " AND ")
            func bind(_ statement: SQLiteConnection.Statement) {
                statement.bind(1, query.portfolio)
                if let coinID = query.coinID { statement.bind(2, coinID) }
                if let from = query.from { statement.bind(3, from) }
                if let to = query.to { statement.bind(4, to) }
            }
            let count = try connection.statement("SELECT count(*) FROM ledger_transaction WHERE \(filter)")
            bind(count)
            let total = try count.scalarInt() ?? 0
            let select = try connection.statement(
                "SELECT \(Self.columns) FROM ledger_transaction WHERE \(filter) ORDER BY timestamp_ms, id LIMIT ?5 OFFSET ?6")
            bind(select)
            select.bind(5, query.limit ?? -1)
            select.bind(6, query.offset)
            var page: [Transaction] = []
            while try select.next() { page.append(try Self.readTransaction(select)) }
            return (page, total)
        }
    }

    /// Every transaction of a portfolio in ledger order, handed to `body` one at a time.
    func forEachTransaction(portfolio: String, _ body: (Transaction) throws -> Void) throws {
        try file.locked { connection in
            let select = try connection.statement(
                "SELECT \(Self.columns) FROM ledger_transaction WHERE portfolio = ?1 ORDER BY timestamp_ms, id")
            select.bind(1, portfolio)
            defer { select.reset() }
            while try select.next() { try body(try Self.readTransaction(select)) }
        }
    }

    /// The portfolio's coins (by id) with their entries in ledger order, cached until a commit.
    func ledger(portfolio: String) throws -> [CoinLedger] {
        try file.locked { connection in
            let version = try connection.statement("PRAGMA data_version").scalarInt() ?? 0
            let cached: [CoinLedger]? = cache.withLock { cache in
                if cache.dataVersion != version { cache = (version, [:]) }
                return cache.portfolios[portfolio]
            }
            if let cached { return cached }
            let select = try connection.statement(
                "SELECT coin_id, id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction WHERE portfolio = ?1 ORDER BY coin_id, timestamp_ms, id"
            )
            select.bind(1, portfolio)
            defer { select.reset() }
            var result: [CoinLedger] = []
            var currentID: [UInt8] = []
            var entries: [LedgerEntry] = []
            while try select.next() {
                let same = select.withText(0) { $0.elementsEqual(currentID) }
                if !same {
                    if !entries.isEmpty { result.append((String(decoding: currentID, as: UTF8.self), entries)) }
                    entries = []
                    currentID = select.withText(0) { Array($0) }
                }
                entries.append(try Self.readEntry(select, first: 1))
            }
            if !entries.isEmpty { result.append((String(decoding: currentID, as: UTF8.self), entries)) }
            cache.withLock { $0.portfolios[portfolio] = result }
            return result
        }
    }

    /// The portfolio's holdings: every coin whose transactions sum above zero, by coin id.
    func holdings(portfolio: String) throws -> [Holding] {
        try ledger(portfolio: portfolio).compactMap { coin in
            var held = ExactDecimal.zero
            for entry in coin.entries { held += entry.kind.adds ? entry.amount : -entry.amount }
            return held.isZero || held.isNegative ? nil : Holding(coinID: coin.coinID, amount: held.double)
        }
    }

    // MARK: - Helpers

    func existingID(portfolio: String, externalID: String, _ connection: SQLiteConnection) throws -> Int64? {
        let statement = try connection.statement("SELECT id FROM ledger_transaction WHERE portfolio = ?1 AND external_id = ?2")
        statement.bind(1, portfolio)
        statement.bind(2, externalID)
        defer { statement.reset() }
        return try statement.next() ? statement.int64(0) : nil
    }

    /// Inserts `t`; its new id, or nil when `skippingKnownExternalID` and the portfolio already has
    /// its external_id (nothing inserted).
    func insert(_ t: Transaction, _ connection: SQLiteConnection, skippingKnownExternalID: Bool) throws -> Int64? {
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
        try statement.run("cannot save the transaction")
        if skippingKnownExternalID, connection.changes == 0 { return nil }
        return connection.lastInsertRowID
    }

    private static let insertSQL = """
        INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        """
    private static let insertSkippingKnown =
        insertSQL + " ON CONFLICT (portfolio, external_id) WHERE external_id IS NOT NULL DO NOTHING"

    /// One coin's entries of a portfolio in ledger order, read inside the current transaction.
    func coinEntries(portfolio: String, coinID: String, _ connection: SQLiteConnection) throws -> [LedgerEntry] {
        let select = try connection.statement(
            "SELECT id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction WHERE portfolio = ?1 AND coin_id = ?2 ORDER BY timestamp_ms, id"
        )
        select.bind(1, portfolio)
        select.bind(2, coinID)
        defer { select.reset() }
        var entries: [LedgerEntry] = []
        while try select.next() { entries.append(try Self.readEntry(select, first: 0)) }
        return entries
    }

    private static func entry(_ t: Transaction, id: Int64) -> LedgerEntry {
        LedgerEntry(id: id, kind: t.kind, amount: t.amount, price: t.price, fee: t.fee, timestamp: t.timestamp)
    }

    private static func checkNeverNegative(_ entries: [LedgerEntry], coinID: String) throws {
        if let short = firstShortfall(entries) { throw shortfallError(short, coinID: coinID) }
    }

    static func shortfallError(_ short: (entry: LedgerEntry, shortBy: ExactDecimal), coinID: String) -> CoinfolioError {
        let time = LedgerTimestamp.format(short.entry.timestamp)
        return CoinfolioError(
            .invalidArgument,
            "\(coinID) would go below zero at \(time): \(short.shortBy) more than is held would leave",
            details: ["coin_id": .string(coinID), "timestamp": .string(time), "short_by": .number(short.shortBy.double)])
    }

    private static func corrupt(_ what: String) -> CoinfolioError {
        CoinfolioError(.store, "the ledger holds a bad \(what); the database was changed outside Coinfolio")
    }

    /// Reads id, kind, amount, price, fee, timestamp_ms starting at column `first`.
    private static func readEntry(_ s: SQLiteConnection.Statement, first: Int32) throws -> LedgerEntry {
        let kind: TransactionKind? = s.withText(first + 1) { bytes in
            switch bytes.count {
            case 3: return .buy
            case 4: return .sell
            case 11: return .transferIn
            case 12: return .transferOut
            default: return nil
            }
        }
        guard let kind else { throw corrupt("kind") }
        guard let amount = s.withText(first + 2, { ExactDecimal.parse($0, rounding: false) }) else { throw corrupt("amount") }
        guard let fee = s.withText(first + 4, { ExactDecimal.parse($0, rounding: false) }) else { throw corrupt("fee") }
        let price = s.isNull(first + 3) ? nil : s.withText(first + 3) { ExactDecimal.parse($0, rounding: false) }
        return LedgerEntry(id: s.int64(first), kind: kind, amount: amount, price: price, fee: fee, timestamp: s.int64(first + 5))
    }

    static func readTransaction(_ s: SQLiteConnection.Statement) throws -> Transaction {
        guard let kind = TransactionKind(rawValue: s.text(3) ?? "") else { throw corrupt("kind") }
        guard let amount = ExactDecimal(s.text(4) ?? ""), let fee = ExactDecimal(s.text(6) ?? "") else { throw corrupt("amount") }
        return Transaction(
            id: s.int64(0), portfolio: s.text(1) ?? "", coinID: s.text(2) ?? "", kind: kind, amount: amount,
            price: s.isNull(5) ? nil : ExactDecimal(s.text(5) ?? ""), fee: fee, timestamp: s.int64(7), note: s.text(8) ?? "",
            externalID: s.text(9))
    }

    /// A write: locked, in one BEGIN IMMEDIATE transaction, and the cache dropped after (this
    /// connection's own commits do not change `data_version`).
    func write<T: Sendable>(reportingProgress: Bool = false, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try file.locked(reportingProgress: reportingProgress) { connection in
            defer { cache.withLock { $0.portfolios.removeAll() } }
            return try connection.transaction { try body(connection) }
        }
    }
}

/// A query of `transactions`: JSON `{portfolio, coin_id, from, to, limit, offset}` (every key
/// optional; `from`/`to` RFC 3339, inclusive).
public struct TransactionQuery: Sendable, Decodable {
    /// The portfolio (default "main").
    public var portfolio: String
    /// Only this coin, when set.
    public var coinID: String?
    /// Only transactions at or after this time (ms since the epoch, UTC).
    public var from: Int64?
    /// Only transactions at or before this time (ms since the epoch, UTC).
    public var to: Int64?
    /// At most this many (nil: all).
    public var limit: Int?
    /// Skip this many first.
    public var offset: Int

    /// A query; times in milliseconds since the epoch (UTC).
    public init(
        portfolio: String = Transaction.defaultPortfolio, coinID: String? = nil, from: Int64? = nil, to: Int64? = nil,
        limit: Int? = nil, offset: Int = 0
    ) {
        self.portfolio = portfolio
        self.coinID = coinID
        self.from = from
        self.to = to
        self.limit = limit
        self.offset = offset
    }

    private enum CodingKeys: String, CodingKey { case portfolio, coinID = "coin_id", from, to, limit, offset }

    /// Reads the JSON form. - Throws: `.invalidArgument` naming the key.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func time(_ key: CodingKeys) throws -> Int64? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let value = LedgerTimestamp.parse(text) else {
                throw CoinfolioError.invalid("\(key.stringValue) must be an RFC 3339 time, not \"\(text)\"")
            }
            return value
        }
        self.init(
            portfolio: try c.decodeIfPresent(String.self, forKey: .portfolio) ?? Transaction.defaultPortfolio,
            coinID: try c.decodeIfPresent(String.self, forKey: .coinID), from: try time(.from), to: try time(.to),
            limit: try c.wholeNumber(.limit, in: 0...Int(Int32.max)), offset: try c.wholeNumber(.offset, in: 0...Int(Int32.max)) ?? 0)
    }

    /// Reads the JSON form; nil means every default.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(TransactionQuery.self, from: json, default: { TransactionQuery() })
    }
}
