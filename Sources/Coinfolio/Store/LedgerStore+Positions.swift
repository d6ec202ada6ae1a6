import Foundation

/// Positions: what each portfolio holds of each coin (the exact sum of its transactions), kept in
/// memory per store connection (schema step 5, `Schema+Step5Positions`) instead of in a table: a table of positions cost as
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
    /// portfolio → coin → position (both by their bytes, `HoldingsKey`); a coin with transactions has an entry (zero when sold out).
    var portfolios: [HoldingsKey: [HoldingsKey: ExactDecimal]] = [:]
    /// The current write changed them.
    var changed = false
    /// portfolio → no row of it is later than this `timestamp_ms` (`Int64.min`: it has none);
    /// absent: not known. Summed with the positions; a write that changes them by
    /// `changePositions` drops it, `addGroup` keeps it up to date. A write at or after it has no
    /// later entry to check, so it reads none.
    var latest: [HoldingsKey: Int64] = [:]
}

extension LedgerStore {
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
            if cache.counter != counter - 1 {
                cache.portfolios.removeAll()
                cache.latest.removeAll()
            }
            // What the positions agree with until this write commits (a rollback undoes the count).
            cache.counter = counter - 1
            cache.changed = false
        }
        return counter
    }

    /// Makes sure the portfolio's positions are in memory, summing its ledger when they are not.
    /// Only inside a write (`countLedgerWrite` ran).
    func loadPositions(portfolio: String, _ connection: any Database) throws {
        guard positionCache.withLock({ $0.portfolios[HoldingsKey(portfolio)] == nil }) else { return }
        let select = try connection.statement(
            "SELECT coin_id, \(LedgerRow.entryColumns) FROM ledger_transaction WHERE owner = ?1 AND portfolio = ?2")
        select.bind(1, owner)
        select.bind(2, portfolio)
        defer { select.reset() }
        var sums: [HoldingsKey: ExactDecimal] = [:]
        var latest = Int64.min
        while try select.next() {
            let entry = try LedgerRow.entry(select, at: 1)
            sums[HoldingsKey(select.text(0) ?? ""), default: .zero] += entry.kind.signed(entry.amount)
            latest = max(latest, entry.timestamp)
        }
        positionCache.withLock {
            $0.portfolios[HoldingsKey(portfolio)] = sums
            $0.latest[HoldingsKey(portfolio)] = latest
        }
    }

    /// A time no row of the portfolio is later than (`Int64.min`: it has none): the one kept
    /// beside its positions (`PositionCache.latest`), else its latest row's, read and kept.
    /// Inside a write, after `loadPositions`.
    func latestTime(of portfolio: String, _ connection: any Database) throws -> Int64 {
        if let known = keptLatestTime(portfolio) { return known }
        let latest = try latestTime(portfolio: portfolio, connection) ?? .min
        positionCache.withLock { cache in
            let key = HoldingsKey(portfolio)
            if cache.portfolios[key] != nil { cache.latest[key] = latest }
        }
        return latest
    }

    /// The time `latestTime(of:_:)` keeps for the portfolio, if it keeps one (no read).
    func keptLatestTime(_ portfolio: String) -> Int64? {
        let key = HoldingsKey(portfolio)
        return positionCache.withLock { $0.portfolios[key] == nil ? nil : $0.latest[key] }
    }

    /// The time of the portfolio's latest row (nil: it has none), read with one seek of the time index.
    func latestTime(portfolio: String, _ connection: any Database) throws -> Int64? {
        let select = try connection.statement(
            "SELECT timestamp_ms FROM ledger_transaction WHERE owner = ?1 AND portfolio = ?2 ORDER BY timestamp_ms DESC LIMIT 1")
        select.bind(1, owner)
        select.bind(2, portfolio)
        defer { select.reset() }
        return try select.next() ? select.int64(0) : nil
    }

    /// Raises the portfolio's kept latest time to `time` after rows at `time` went in, from
    /// `known`, the one `latestTime(of:_:)` gave before them.
    func keepLatestTime(portfolio: String, known: Int64, written time: Int64) {
        positionCache.withLock { cache in
            let key = HoldingsKey(portfolio)
            guard cache.portfolios[key] != nil else { return }
            cache.latest[key] = max(known, time)
        }
    }

    /// What the portfolio holds of the coin (zero when it has no transactions), inside a write.
    func position(portfolio: String, coinID: String, _ connection: any Database) throws -> ExactDecimal {
        try loadPositions(portfolio: portfolio, connection)
        let key = HoldingsKey(coinID)
        return positionCache.withLock { $0.portfolios[HoldingsKey(portfolio)]?[key] } ?? .zero
    }

    /// Changes the portfolios' positions in place (never copied), inside a write after
    /// `loadPositions` for each of them; a portfolio not loaded is handed in empty and dropped
    /// after, to be summed again.
    func changePositions<T>(portfolio: String, _ body: (inout [HoldingsKey: ExactDecimal]) throws -> T) rethrows -> T {
        let portfolio = HoldingsKey(portfolio)
        return try positionCache.withLock { cache in
            cache.changed = true
            cache.latest[portfolio] = nil
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
        let portfolio = HoldingsKey(portfolio)
        positionCache.withLock {
            _ = $0.portfolios.removeValue(forKey: portfolio)
            $0.latest[portfolio] = nil
        }
    }

    /// The positions this connection keeps, as "portfolio/coin=amount" sorted (for tests): the
    /// portfolios a write of this connection used since another connection last wrote.
    func keptPositions() -> [String] {
        let rows = positionCache.withLock { cache in
            cache.portfolios.flatMap { portfolio, coins in coins.map { (portfolio.text, $0.key.text, $0.value) } }
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
            SELECT \(LedgerRow.entryColumns) FROM ledger_transaction
            WHERE owner = ?1 AND portfolio = ?2 AND \(Self.after(point)) AND coin_id = ?5 ORDER BY timestamp_ms, id
            """)
        select.bind(1, owner)
        select.bind(2, portfolio)
        select.bind(3, point.timestamp)
        select.bind(4, point.id)
        select.bind(5, coinID)
        defer { select.reset() }
        var result: [LedgerEntry] = []
        while try select.next() { result.append(try LedgerRow.entry(select, at: 0)) }
        return result
    }

    /// The condition "after `point`" on parameters ?3 (timestamp) and ?4 (id): for a point after
    /// every entry of its time, `timestamp_ms > ?3`, which the index seeks past all the rows of
    /// that time (the row value comparison would scan them).
    static func after(_ point: LedgerPoint) -> String {
        point.id == .max ? "timestamp_ms > ?3 AND CAST(?4 AS BIGINT) IS NOT NULL" : "(timestamp_ms, id) > (?3, ?4)"
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
            SELECT coin_id, \(LedgerRow.entryColumns) FROM ledger_transaction
            WHERE owner = ?1 AND portfolio = ?2 AND \(Self.after(point)) ORDER BY timestamp_ms, id
            """)
        select.bind(1, owner)
        select.bind(2, portfolio)
        select.bind(3, point.timestamp)
        select.bind(4, point.id)
        defer { select.reset() }
        while try select.next() { try body(HoldingsKey(select.text(0) ?? ""), try LedgerRow.entry(select, at: 1)) }
    }

    /// The never-negative rule (SPEC §12) after a change at one point of a coin's ledger:
    /// `held` is what the coin holds just before `entries` (the changed entry, if any, then every
    /// later one, in ledger order). The points before were checked when they were written and do
    /// not change, so the first shortfall of the whole ledger is the first one here.
    /// - Throws: `.invalidArgument` with `{coin_id, timestamp, short_by}`.
    static func checkNeverNegative(from held: ExactDecimal, _ entries: [LedgerEntry], coinID: String) throws {
        if let breach = firstBreach(entries, startingAt: held) { throw breachError(breach, coinID: coinID) }
    }

    /// The signed sum of entries (`TransactionKind.signed`): what they change a holding by.
    static func signedSum(_ entries: [LedgerEntry]) -> ExactDecimal {
        var sum = ExactDecimal.zero
        for entry in entries { sum += entry.kind.signed(entry.amount) }
        return sum
    }
}
