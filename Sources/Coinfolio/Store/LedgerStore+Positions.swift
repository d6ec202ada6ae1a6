import Foundation

/// Positions: what each portfolio holds of each coin, one row per (owner, portfolio, coin_id)
/// kept equal to the sum of the coin's transactions by every ledger write, in the same database
/// transaction (schema step 5). A write reads the position and only the coin's entries that come
/// after it in ledger order — none for a write at "now" — instead of the coin's whole history.
extension LedgerStore {
    // MARK: - Schema step 5

    /// Schema step 5 on SQLite: the time-ordered index replaces the coin-first one (a batch's new
    /// entries append to one end of it instead of landing in every leaf page), and the positions.
    /// The table is rebuilt (rows and ids kept) because its `kind` check changes spelling: SQLite
    /// runs `kind IN (…)` by building a small temporary table on every insert, which cost as much
    /// as the insert itself; the four equalities accept exactly the same values.
    static let positionsSQLite = """
        CREATE TABLE ledger_transaction_v5 (
            id INTEGER PRIMARY KEY,
            owner TEXT NOT NULL,
            portfolio TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind = 'buy' OR kind = 'sell' OR kind = 'transfer_in' OR kind = 'transfer_out'),
            amount TEXT NOT NULL,
            price TEXT,
            fee TEXT NOT NULL,
            timestamp_ms INTEGER NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            external_id TEXT
        );
        INSERT INTO ledger_transaction_v5 (id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id)
            SELECT id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id FROM ledger_transaction;
        DROP TABLE ledger_transaction;
        ALTER TABLE ledger_transaction_v5 RENAME TO ledger_transaction;
        CREATE UNIQUE INDEX ledger_external_id ON ledger_transaction (owner, portfolio, external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);
        CREATE TABLE ledger_position (
            owner TEXT NOT NULL,
            portfolio TEXT NOT NULL,
            coin_id TEXT NOT NULL,
            amount TEXT NOT NULL,
            PRIMARY KEY (owner, portfolio, coin_id)
        ) WITHOUT ROWID;
        """

    /// Schema step 5 on PostgreSQL: the same index and table.
    static let positionsPostgres = """
        DROP INDEX ledger_order;
        CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);
        CREATE TABLE ledger_position (
            owner TEXT COLLATE "C" NOT NULL,
            portfolio TEXT COLLATE "C" NOT NULL,
            coin_id TEXT COLLATE "C" NOT NULL,
            amount TEXT NOT NULL,
            PRIMARY KEY (owner, portfolio, coin_id)
        );
        """

    /// Schema step 5's data move: each (owner, portfolio, coin) with transactions gets the exact
    /// sum of its transactions as its position. Runs inside the migration's transaction.
    @Sendable static func fillPositions(_ connection: any Database) throws {
        let select = try connection.statement("SELECT owner, portfolio, coin_id, kind, amount FROM ledger_transaction")
        var sums: [[UInt8]: (owner: String, portfolio: String, coinID: String, amount: ExactDecimal)] = [:]
        while try select.next() {
            // The key: the three texts' bytes, each ended by a NUL (which no id or name contains).
            var key: [UInt8] = []
            for column: Int32 in 0...2 { select.withText(column) { key.append(contentsOf: $0) }; key.append(0) }
            guard let amount = select.withText(4, { ExactDecimal.parse($0, rounding: false) }) else { throw corrupt("amount") }
            let adds = select.withText(3) { $0.count == 3 || $0.count == 11 }
            if sums[key] == nil { sums[key] = (select.text(0) ?? "", select.text(1) ?? "", select.text(2) ?? "", .zero) }
            sums[key]?.amount += adds ? amount : -amount
        }
        select.reset()
        let insert = try connection.statement(
            "INSERT INTO ledger_position (owner, portfolio, coin_id, amount) VALUES (?1, ?2, ?3, ?4)")
        for position in sums.values {
            insert.bind(1, position.owner)
            insert.bind(2, position.portfolio)
            insert.bind(3, position.coinID)
            insert.bind(4, position.amount.description)
            try insert.run("cannot migrate the positions")
        }
    }

    // MARK: - Reading and writing positions

    /// What the portfolio holds of the coin (zero without a row), inside the current transaction.
    func position(portfolio: String, coinID: String, _ connection: any Database) throws -> ExactDecimal {
        let select = try connection.statement(
            "SELECT amount FROM ledger_position WHERE owner = ?1 AND portfolio = ?2 AND coin_id = ?3")
        select.bind(1, owner)
        select.bind(2, portfolio)
        select.bind(3, coinID)
        defer { select.reset() }
        guard try select.next() else { return .zero }
        guard let amount = select.withText(0, { ExactDecimal.parse($0, rounding: false) }) else { throw Self.corrupt("position") }
        return amount
    }

    /// The positions of those of `coinIDs` that have one, in one query (the ids sent as one
    /// JSON array).
    func positions(portfolio: String, coinIDs: [String], _ connection: any Database) throws -> [HoldingsKey: ExactDecimal] {
        var result: [HoldingsKey: ExactDecimal] = [:]
        guard !coinIDs.isEmpty else { return result }
        result.reserveCapacity(coinIDs.count)
        var ids = JSONWriter(reserving: coinIDs.count * 24 + 2)
        ids.beginArray()
        for coinID in coinIDs { ids.string(coinID) }
        ids.endArray()
        let select = try connection.statement(
            """
            SELECT coin_id, amount FROM ledger_position WHERE owner = ?1 AND portfolio = ?2
            AND coin_id IN (SELECT value FROM \(Self.jsonElements(3, connection.kind, text: true)))
            """)
        select.bind(1, owner)
        select.bind(2, portfolio)
        select.bind(3, String(decoding: ids.bytes, as: UTF8.self))
        defer { select.reset() }
        while try select.next() {
            guard let amount = select.withText(1, { ExactDecimal.parse($0, rounding: false) }) else { throw Self.corrupt("position") }
            result[HoldingsKey(select.text(0) ?? "")] = amount
        }
        return result
    }

    /// Stores what the portfolio now holds of the coin; `upsert` is `storePositionSQL` prepared
    /// once by a caller that stores many (nil: prepared here).
    func storePosition(
        portfolio: String, coinID: String, _ amount: ExactDecimal, _ connection: any Database, using upsert: (any DatabaseStatement)? = nil
    ) throws {
        let upsert = try upsert ?? connection.statement(Self.storePositionSQL)
        upsert.bind(1, owner)
        upsert.bind(2, portfolio)
        upsert.bind(3, coinID)
        upsert.bind(4, amount.description)
        try upsert.run("cannot save the position")
    }

    static let storePositionSQL = """
        INSERT INTO ledger_position (owner, portfolio, coin_id, amount) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (owner, portfolio, coin_id) DO UPDATE SET amount = excluded.amount
        """

    // MARK: - Entries after a point

    /// A point of the ledger order: entries after it have a later timestamp, or the same one and
    /// a larger id. `(t, Int64.max)` is where a new entry at `t` goes (after every entry at `t`).
    typealias LedgerPoint = (timestamp: Int64, id: Int64)

    /// The coin's entries after `point`, in ledger order: none for a point after the last entry,
    /// found with one seek of the time-ordered index.
    func entries(portfolio: String, coinID: String, after point: LedgerPoint, _ connection: any Database) throws
        -> [LedgerEntry]
    {
        let select = try connection.statement(
            """
            SELECT id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction
            WHERE owner = ?1 AND portfolio = ?2 AND (timestamp_ms, id) > (?3, ?4) AND coin_id = ?5 ORDER BY timestamp_ms, id
            """)
        select.bind(1, owner)
        select.bind(2, portfolio)
        select.bind(3, point.timestamp)
        select.bind(4, point.id)
        select.bind(5, coinID)
        defer { select.reset() }
        var result: [LedgerEntry] = []
        while try select.next() { result.append(try Self.readEntry(select, first: 0)) }
        return result
    }

    /// Every coin's entries after `point`, each coin's in ledger order.
    func entries(portfolio: String, after point: LedgerPoint, _ connection: any Database) throws -> [HoldingsKey: [LedgerEntry]] {
        var result: [HoldingsKey: [LedgerEntry]] = [:]
        try forEachEntry(portfolio: portfolio, after: point, connection) { key, entry in result[key, default: []].append(entry) }
        return result
    }

    /// Every coin's entries after `point` handed to `body` one at a time, in ledger order.
    func forEachEntry(
        portfolio: String, after point: LedgerPoint, _ connection: any Database, _ body: (HoldingsKey, LedgerEntry) throws -> Void
    ) throws {
        let select = try connection.statement(
            """
            SELECT coin_id, id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction
            WHERE owner = ?1 AND portfolio = ?2 AND (timestamp_ms, id) > (?3, ?4) ORDER BY timestamp_ms, id
            """)
        select.bind(1, owner)
        select.bind(2, portfolio)
        select.bind(3, point.timestamp)
        select.bind(4, point.id)
        defer { select.reset() }
        while try select.next() { try body(HoldingsKey(select.text(0) ?? ""), try Self.readEntry(select, first: 1)) }
    }

    /// The never-negative rule (SPEC §12) after a change at one point of a coin's ledger:
    /// `held` is what the coin holds just before `entries` (the changed entry, if any, then every
    /// later one, in ledger order). The points before were checked when they were written and do
    /// not change, so the first shortfall of the whole ledger is the first one here.
    /// - Throws: `.invalidArgument` with `{coin_id, timestamp, short_by}`.
    static func checkNeverNegative(from held: ExactDecimal, _ entries: [LedgerEntry], coinID: String) throws {
        if let short = firstShortfall(entries, startingAt: held) { throw shortfallError(short, coinID: coinID) }
    }

    /// The signed sum of entries: adds count up, removes down.
    static func signedSum(_ entries: [LedgerEntry]) -> ExactDecimal {
        var sum = ExactDecimal.zero
        for entry in entries { sum += entry.kind.adds ? entry.amount : -entry.amount }
        return sum
    }
}
