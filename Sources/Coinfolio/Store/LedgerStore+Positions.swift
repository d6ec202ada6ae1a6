import Foundation

/// Positions: what each portfolio holds of each coin (the exact sum of its transactions), kept in
/// memory per store connection (schema step 5) instead of in a table: a table of positions cost as
/// much to write as the ledger rows themselves (bench/NOTES.md, "Batch writes"). A write reads a
/// position and only the coin's entries that come after it in ledger order — none for a write at
/// "now" — instead of the coin's whole history.
///
/// The positions are valid while no other connection has written the owner's ledger: every write
/// transaction first counts itself in the owner's `ledger_change` row (taking the row's lock), and
/// finds the count one past the one its positions were kept at when only this connection wrote
/// since. Otherwise they are dropped and each portfolio's are summed again from its ledger on first
/// use. A write that fails after changing them drops them too (they hold its unwritten changes).
struct PositionCache: Sendable {
    /// The owner's `ledger_change.counter` the positions agree with (-1: none).
    var counter: Int64 = -1
    /// portfolio → coin → position; a coin with transactions has an entry (zero when sold out).
    var portfolios: [String: [HoldingsKey: ExactDecimal]] = [:]
    /// The current write changed them.
    var changed = false
}

extension LedgerStore {
    // MARK: - Schema step 5

    /// Schema step 5 on SQLite: the time-ordered index replaces the coin-first one (a batch's new
    /// entries append to one end of it instead of landing in every leaf page), and the owners'
    /// change counters. The table is rebuilt (rows and ids kept) because its `kind` check changes
    /// spelling: SQLite runs `kind IN (…)` by building a small temporary table on every insert,
    /// which cost as much as the insert itself; the four equalities accept exactly the same values.
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
        CREATE TABLE ledger_change (
            owner TEXT PRIMARY KEY NOT NULL,
            counter INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// Schema step 5 on PostgreSQL: the same index and table.
    static let positionsPostgres = """
        DROP INDEX ledger_order;
        CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);
        CREATE TABLE ledger_change (
            owner TEXT COLLATE "C" PRIMARY KEY,
            counter BIGINT NOT NULL
        );
        """

    // MARK: - Keeping positions

    /// Counts this write in the owner's `ledger_change` row (which also makes concurrent writers
    /// of the owner wait for each other) and drops the positions when another connection wrote
    /// since they were kept. - Returns: the new count, kept with the positions after the commit.
    func countLedgerWrite(_ connection: any Database) throws -> Int64 {
        let bump = try connection.statement(
            """
            INSERT INTO ledger_change (owner, counter) VALUES (?1, 1)
            ON CONFLICT (owner) DO UPDATE SET counter = ledger_change.counter + 1 RETURNING counter
            """)
        bump.bind(1, owner)
        defer { bump.reset() }
        guard try bump.next() else { throw CoinfolioError(.store, "cannot count the write: the database returned nothing") }
        let counter = bump.int64(0)
        positionCache.withLock { cache in
            if cache.counter != counter - 1 { cache.portfolios.removeAll() }
            // What the positions agree with until this write commits (a rollback undoes the count).
            cache.counter = counter - 1
            cache.changed = false
        }
        return counter
    }

    /// Makes sure the portfolio's positions are in memory, summing its ledger when they are not.
    /// Only inside a write (`countLedgerWrite` ran).
    func loadPositions(portfolio: String, _ connection: any Database) throws {
        guard positionCache.withLock({ $0.portfolios[portfolio] == nil }) else { return }
        let select = try connection.statement(
            "SELECT coin_id, kind, amount FROM ledger_transaction WHERE owner = ?1 AND portfolio = ?2")
        select.bind(1, owner)
        select.bind(2, portfolio)
        defer { select.reset() }
        var sums: [HoldingsKey: ExactDecimal] = [:]
        while try select.next() {
            guard let amount = select.withText(2, { ExactDecimal.parse($0, rounding: false) }) else { throw Self.corrupt("amount") }
            guard let adds = select.withText(1, { TransactionKind(utf8: $0)?.adds }) else { throw Self.corrupt("kind") }
            sums[HoldingsKey(select.text(0) ?? ""), default: .zero] += adds ? amount : -amount
        }
        positionCache.withLock { $0.portfolios[portfolio] = sums }
    }

    /// What the portfolio holds of the coin (zero when it has no transactions), inside a write.
    func position(portfolio: String, coinID: String, _ connection: any Database) throws -> ExactDecimal {
        try loadPositions(portfolio: portfolio, connection)
        let key = HoldingsKey(coinID)
        return positionCache.withLock { $0.portfolios[portfolio]?[key] } ?? .zero
    }

    /// Changes the portfolios' positions in place (never copied), inside a write after
    /// `loadPositions` for each of them; a portfolio not loaded is handed in empty and dropped
    /// after, to be summed again.
    func changePositions<T>(portfolio: String, _ body: (inout [HoldingsKey: ExactDecimal]) throws -> T) rethrows -> T {
        try positionCache.withLock { cache in
            cache.changed = true
            guard var held = cache.portfolios.removeValue(forKey: portfolio) else {
                var scratch: [HoldingsKey: ExactDecimal] = [:]
                return try body(&scratch)
            }
            defer { cache.portfolios[portfolio] = held }
            return try body(&held)
        }
    }

    /// Stores what the portfolio now holds of the coin, inside a write.
    func storePosition(portfolio: String, coinID: String, _ amount: ExactDecimal) {
        let key = HoldingsKey(coinID)
        changePositions(portfolio: portfolio) { $0[key] = amount }
    }

    /// Forgets the portfolio's positions (a rename or delete): summed again on next use.
    func forgetPositions(portfolio: String) {
        positionCache.withLock { _ = $0.portfolios.removeValue(forKey: portfolio) }
    }

    /// The positions this connection keeps, as "portfolio/coin=amount" sorted (for tests): the
    /// portfolios a write of this connection used since another connection last wrote.
    func keptPositions() -> [String] {
        let rows = positionCache.withLock { cache in
            cache.portfolios.flatMap { portfolio, coins in coins.map { (portfolio, $0.key.text, $0.value) } }
        }
        // By portfolio then coin id, bytewise (as the database sorts).
        return rows.sorted { ($0.0 == $1.0 ? $0.1 : $0.0).utf8.lexicographicallyPrecedes(($0.0 == $1.0 ? $1.1 : $1.0).utf8) }
            .map { "\($0.0)/\($0.1)=\($0.2)" }
    }

    // MARK: - Entries after a point

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
        if let breach = firstBreach(entries, startingAt: held) { throw breachError(breach, coinID: coinID) }
    }

    /// The signed sum of entries: adds count up, removes down.
    static func signedSum(_ entries: [LedgerEntry]) -> ExactDecimal {
        var sum = ExactDecimal.zero
        for entry in entries { sum += entry.kind.adds ? entry.amount : -entry.amount }
        return sum
    }
}
