import Foundation
import Synchronization

/// The ledger in the store's database: named portfolios and their transactions (SPEC §12), every
/// row of the connection's owner. One concept a file: portfolios (`+Portfolios`), transactions
/// (`+Transactions`), holdings and their batch writes (`+Holdings`), positions and the
/// never-negative checks (`+Positions`), CSV (`+CSV`); every row is read by `LedgerRow`.
///
/// Holdings are derived: a portfolio holds the sum of its transactions. Every write runs in one
/// owner transaction (`Database.ownerTransaction`) that first checks the "never negative" rule
/// against the rows as committed by every process, so two processes selling at once cannot both
/// pass the check. Since schema step 5 the connection keeps each coin's position (the sum, exact)
/// in memory while no other connection writes, and the check reads that position and only the
/// entries after the change (`LedgerStore+Positions`).
/// Amounts, prices and fees are stored as exact decimal text. Reads of a whole portfolio are
/// cached until the owner's ledger change counter moves (another handle or process wrote; read in
/// the same statement as the rows, `view(portfolio:)`) or this one writes.
final class LedgerStore: Sendable {
    /// One coin's entries in ledger order.
    typealias CoinLedger = (coinID: String, entries: [LedgerEntry])

    let file: StoreConnection
    /// portfolio (by its bytes) → coins in id order, each with its entries in ledger order; and
    /// the owner's ledger change counter they were read at. Used only while holding the
    /// connection's lock.
    let cache = Mutex<(counter: Int64, portfolios: [HoldingsKey: [CoinLedger]])>((-1, [:]))
    /// The positions, valid while no other connection writes the owner's ledger. Used only while
    /// holding the connection's lock, inside a write.
    let positionCache = Mutex(PositionCache())
    /// The numbers that stand for group ids in the ledger entries this store reads (the same
    /// number for the same group in every portfolio, for as long as the store is open).
    let groupNumbers = Mutex(LedgerGroupNumbers())

    init(connection: StoreConnection) {
        file = connection
    }

    /// Whose rows every statement reads and writes.
    var owner: String { file.owner }

    /// A write: locked, in one owner transaction (`Database.ownerTransaction`: on PostgreSQL the
    /// owner's ledger lock and READ COMMITTED, on SQLite `BEGIN IMMEDIATE`), never retried (a
    /// CSV stream read once is never replayed), and the cache dropped after (the write moved the
    /// counter it is keyed by). The positions follow the commit or rollback.
    func write<T: Sendable>(reportingProgress: Bool = false, _ body: (any Database) throws -> T) throws -> T {
        try file.locked(reportingProgress: reportingProgress) { connection in
            defer { cache.withLock { $0.portfolios.removeAll() } }
            var counter: Int64 = -1
            do {
                let result = try connection.ownerTransaction(owner: owner) {
                    counter = try countLedgerWrite(connection)
                    return try body(connection)
                }
                // Committed: the positions (with this write's changes) agree with the new count.
                positionCache.withLock { $0.counter = counter }
                return result
            } catch {
                // Rolled back: positions changed by this write hold what was not written.
                positionCache.withLock { if $0.changed { $0 = PositionCache() } }
                throw error
            }
        }
    }

    /// `.notFound` for a portfolio that does not exist.
    static func noPortfolio(_ name: String) -> CoinfolioError {
        CoinfolioError(.notFound, "no portfolio named \"\(name)\"", details: [.portfolio: .string(name)])
    }

    /// The error for a running amount that would go below zero (SPEC §12's never-negative rule:
    /// `.invalidArgument` with details `{coin_id, timestamp, short_by}`) or past what the ledger
    /// keeps exactly (±8.5e19: details `{reason: "out_of_range", field: "amount", coin_id,
    /// timestamp}`).
    static func breachError(_ breach: (entry: LedgerEntry, breach: RunningAmountBreach), coinID: String) -> CoinfolioError {
        let time = LedgerTimestamp.format(breach.entry.timestamp)
        switch breach.breach {
        case .short(let shortBy):
            return CoinfolioError(
                .invalidArgument, "\(coinID) would go below zero at \(time): short by \(shortBy)",
                details: [.coinID: .string(coinID), .timestamp: .string(time), .shortBy: .number(shortBy.double)])
        case .outOfRange:
            return CoinfolioError(
                .invalidArgument, "\(coinID) would hold more than 8.5e19 units at \(time), more than the ledger keeps exactly",
                reason: .outOfRange, details: [.field: .string("amount"), .coinID: .string(coinID), .timestamp: .string(time)])
        }
    }
}
