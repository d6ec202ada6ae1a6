import Foundation

/// What one report of an owner's portfolio reads from the database (`portfolio`, `pnl`), in one
/// statement: one round trip on PostgreSQL, also through pgbouncer (SPEC §20's service load).
///
/// - `ledgerCounter`: the owner's `ledger_change.counter` (0 before the first write), which every
///   committed write of the owner's ledger counts in, from any handle or process.
/// - `currency`: the portfolio's stored currency: `.some(nil)` for "the engine's", nil when the
///   portfolio does not exist.
/// - `ledger`: the portfolio's coins (by id) with their entries in ledger order. The rows cross
///   the network only when the counter differs from the one this handle's cached copy was read
///   at (`LedgerStore.cache`); counter and rows come from one statement, so they always agree.
/// - `manualPrices`: the owner's manual current prices (`manual_current_price`, SPEC §17) by
///   currency, then coin id: those in the currency asked for and in the portfolio's own.
/// - `marketVersion`: the market-data version of the currency asked for (`snapshot.version`,
///   the version check of `ChangeVersions`); nil when not asked or without a snapshot.
struct OwnerView: Sendable {
    var ledgerCounter: Int64 = 0
    var currency: String??
    var ledger: [LedgerStore.CoinLedger] = []
    var manualPrices: [String: [String: ExactDecimal]] = [:]
    var marketVersion: Int?
}

extension LedgerStore {
    /// Reads the owner's view of `portfolio` (`OwnerView`) in one statement, its ledger from this
    /// handle's cache when the owner's change counter has not moved since it was read.
    /// - Parameters:
    ///   - manualPricesIn: the currency whose manual current prices are read as well as the
    ///     portfolio's own; nil: only the portfolio's own.
    ///   - marketVersionOf: the currency whose market-data version is read (the version check);
    ///     nil: none.
    /// - Throws: `.store` (also for a stored row Coinfolio never writes, `LedgerRow`).
    func view(portfolio: String, manualPricesIn: String? = nil, marketVersionOf: String? = nil) throws -> OwnerView {
        try file.reading { connection in
            let cached = cache.withLock { ($0.counter, $0.portfolios[HoldingsKey(portfolio)]) }
            let select = try connection.statement(Self.ownerViewSQL)
            select.bind(1, owner)
            select.bind(2, portfolio)
            select.bind(3, marketVersionOf)
            select.bind(4, manualPricesIn)
            select.bind(5, cached.1 == nil ? -1 : cached.0)
            defer { select.reset() }
            var view = OwnerView()
            var rows = LedgerRows()
            try groupNumbers.withLock { numbers in
                try withUnsafeMutablePointer(to: &numbers) { groups in
                    while try select.next() {
                        switch select.int(0) {
                        case 0:
                            view.ledgerCounter = select.int64(2)
                            view.currency = select.isNull(3) ? nil : .some(select.text(1))
                            view.marketVersion = select.isNull(7) ? nil : select.int(7)
                        case 1:
                            guard let id = select.text(1), let currency = select.text(10) else { continue }
                            view.manualPrices[currency, default: [:]][id] = try PriceStore.decimal(select.text(4))
                        default:
                            try rows.append(select, groups: groups)
                        }
                    }
                }
            }
            if let ledger = cached.1, cached.0 == view.ledgerCounter {
                view.ledger = ledger
            } else {
                view.ledger = rows.coinLedgers()
                cache.withLock { cache in
                    if cache.counter != view.ledgerCounter { cache = (view.ledgerCounter, [:]) }
                    cache.portfolios[HoldingsKey(portfolio)] = view.ledger
                }
            }
            return view
        }
    }

    /// The statement of `view`: the portfolio's ledger rows (part 2; only when the owner's counter
    /// differs from ?5), a header row (part 0; columns counted from 0: the portfolio's currency in
    /// 1, the counter in 2, "portfolio" in 3 when it exists, the market version in 7) and the
    /// manual prices (part 1: coin id in 1, price in 4, currency in 10), in one `UNION ALL`. Each
    /// row says its part in column 0, so only the ledger rows' order matters: ledger order (time,
    /// then insertion), the order of the `ledger_time` index. The ledger branch comes first:
    /// PostgreSQL types each column from it. Parameters: ?1 owner, ?2 portfolio, ?3 market
    /// currency, ?4 manual-price currency, ?5 the counter of the cached ledger (-1: none).
    ///
    /// The counter gate is also the lower bound of the index range: a bound SQLite computes once
    /// before its seek (an empty range when the counter has not moved; a stored time is within
    /// years 1–9999, `Transaction.validate`), where a plain `WHERE` term holding a subquery is
    /// tested on every row of the portfolio. Sorting by the rows' own columns (not the part, a
    /// constant) lets the index give ledger order without a sort on SQLite.
    static let ownerViewSQL = """
        SELECT 2, coin_id, \(LedgerRow.entryColumns) FROM ledger_transaction
        WHERE owner = ?1 AND portfolio = ?2 AND \(ledgerChanged)
            AND timestamp_ms >= CASE WHEN \(ledgerChanged) THEN -9223372036854775807 ELSE 9223372036854775807 END
        UNION ALL
        SELECT 0, (SELECT vs_currency FROM portfolio WHERE owner = ?1 AND name = ?2),
            COALESCE((SELECT counter FROM ledger_change WHERE owner = ?1), 0),
            (SELECT 'portfolio' FROM portfolio WHERE owner = ?1 AND name = ?2), NULL, NULL, NULL,
            (SELECT version FROM snapshot WHERE vs_currency = ?3), NULL, NULL, NULL
        UNION ALL
        SELECT 1, coin_id, NULL, NULL, price, NULL, NULL, NULL, NULL, NULL, vs_currency FROM manual_current_price
        WHERE owner = ?1 AND (vs_currency = ?4 OR vs_currency = (SELECT vs_currency FROM portfolio WHERE owner = ?1 AND name = ?2))
        ORDER BY 8, 3
        """

    /// Whether the owner's change counter differs from ?5 (the cached ledger's).
    private static let ledgerChanged = "COALESCE((SELECT counter FROM ledger_change WHERE owner = ?1), 0) <> ?5"
}

/// The ledger rows of one portfolio as they are read in ledger order, grouped by coin: a row
/// whose fee was paid in a coin gets its fee row's value (amount × price) as its fee, nil while
/// that price is pending (SPEC §16).
private struct LedgerRows {
    private var slots: [[UInt8]: Int] = [:]
    private var coins: [(id: [UInt8], entries: [LedgerEntry])] = []
    /// Rows whose fee was paid in a coin, by group, until their fee row (which follows) is read.
    private var feeParents: [Int32: (slot: Int, index: Int, coin: [UInt8])] = [:]

    /// Adds the row whose coin id is column 1 and whose `LedgerRow.entryColumns` start at 2.
    mutating func append(_ select: any DatabaseStatement, groups: UnsafeMutablePointer<LedgerGroupNumbers>) throws {
        let id = select.withText(1) { Array($0) }
        let entry = try LedgerRow.entry(select, at: 2, groups: groups)
        let slot: Int
        if let known = slots[id] {
            slot = known
            coins[slot].entries.append(entry)
        } else {
            slot = coins.count
            slots[id] = slot
            coins.append((id, [entry]))
        }
        guard entry.group != 0 else { return }
        if entry.fee == nil, let coin = LedgerRow.feeCoin(select, at: 2) {
            feeParents[entry.group] = (slot, coins[slot].entries.count - 1, coin)
        } else if entry.kind == .fee, let parent = feeParents[entry.group], parent.coin == id {
            // The parent's fee is its fee row's value: unknown while that price is pending.
            coins[parent.slot].entries[parent.index].fee = entry.price.map { entry.units * $0 }
            feeParents[entry.group] = nil
        }
    }

    /// The coins by id, bytewise (as SQLite and PostgreSQL's "C" collation sort).
    func coinLedgers() -> [LedgerStore.CoinLedger] {
        coins.sorted { $0.id.lexicographicallyPrecedes($1.id) }.map { (String(decoding: $0.id, as: UTF8.self), $0.entries) }
    }
}
