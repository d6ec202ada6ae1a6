import Foundation
import Synchronization

/// The user's holdings in a SQLite file or on a PostgreSQL server: one row per owner and
/// CoinGecko coin id. The store sees only its owner's rows.
///
/// Every write that returns is committed and durable (SQLite: WAL journal, `synchronous=FULL`;
/// PostgreSQL: a committed transaction). Several threads may share one store (calls are
/// serialized), and several processes may write one database at once: SQLite's lock waits are
/// absorbed by its busy timeout and retries, PostgreSQL's upserts are atomic. On SQLite, reads
/// never re-read more than they return. A PostgreSQL store that lost its connection fails the
/// call in flight with `.store` and reconnects on the next.
///
///     let store = try PortfolioStore(path: "portfolio.sqlite")
///     try store.setHolding(coinID: "bitcoin", amount: 0.5)
///     try store.holdings()   // [Holding(coinID: "bitcoin", amount: 0.5)]
public final class PortfolioStore: Sendable {
    /// The location the store was opened with: a SQLite path (`":memory:"` for a private
    /// in-memory store) or a PostgreSQL URL (as given, password included: never print it).
    public let path: String
    /// Whose rows the store reads and writes (`"default"` unless configured).
    public var owner: String { file.owner }
    private let file: StoreConnection
    /// The engine's market snapshot, in the same file.
    let snapshots: SnapshotStore
    /// The holdings as last read or written, and SQLite's `data_version` when they were read:
    /// another connection's commit changes it, and only then is the table read again.
    /// Used only while holding the connection's lock; its own lock makes that checkable.
    private let cache = Mutex<(holdings: [Holding]?, dataVersion: Int)>((nil, 0))

    /// Opens the store, creating the database's schema on first use and migrating older ones.
    /// - Parameters:
    ///   - path: a SQLite file path, `":memory:"`, or a PostgreSQL URL
    ///     `postgresql://user[:password]@host[:port]/db[?params]` (`postgres://` too).
    ///   - owner: whose rows the store sees: every read, write, count and delete is limited to
    ///     them (1–256 bytes, no control characters; default `"default"`).
    /// - Throws: `.invalidArgument` for an empty path or a bad owner; `.store` when the database
    ///   cannot be opened (the server's message, never the password), is not a database, or has
    ///   a newer schema.
    public init(path: String, owner: String = "default") throws {
        file = try StoreConnection(path: path, owner: owner)
        self.path = path
        snapshots = SnapshotStore(connection: file)
    }

    /// Closes the file. Later calls throw `.store`. Safe to call twice.
    public func close() {
        file.close()
    }

    /// Sets how much of a coin is held.
    ///
    /// - Parameters:
    ///   - coinID: a CoinGecko coin id (`CoinID.validateHolding`: no upper case, no surrounding
    ///     spaces); stored exactly as given.
    ///   - amount: units of the coin. > 0 inserts or updates; ≤ 0 deletes the row and never inserts.
    /// - Throws: `.invalidArgument` for a bad id or a NaN/±Inf amount (nothing written); an id
    ///   with upper case or surrounding spaces carries the corrected id in
    ///   `details["suggestion"]` ("Bitcoin" → "bitcoin"). `.store` with the server's message
    ///   (nothing written). A row such an id left behind by an older version can still be
    ///   deleted (amount ≤ 0).
    public func setHolding(coinID: String, amount: Double) throws {
        do {
            try Self.validate(coinID: coinID, amount: amount)
        } catch let error as CoinfolioError where error.details["suggestion"] != nil && amount <= 0 {
            guard try holdings().contains(where: { $0.coinID.utf8.elementsEqual(coinID.utf8) }) else { throw error }
        }
        try file.locked { connection in
            if amount > 0 {
                let statement = try connection.statement(
                    """
                    INSERT INTO holding (owner, coin_id, amount) VALUES (?3, ?1, ?2)
                    ON CONFLICT (owner, coin_id) DO UPDATE SET amount = excluded.amount
                    """)
                statement.bind(1, coinID)
                statement.bind(2, amount)
                statement.bind(3, owner)
                try statement.run("cannot save holding")
            } else {
                let statement = try connection.statement("DELETE FROM holding WHERE owner = ?2 AND coin_id = ?1")
                statement.bind(1, coinID)
                statement.bind(2, owner)
                try statement.run("cannot delete holding")
            }
            updateCache(coinID: coinID, amount: amount)
        }
    }

    /// Applies our own committed write to the cache (bytewise order, as SQLite's BINARY
    /// collation). Called holding the connection's lock.
    private func updateCache(coinID: String, amount: Double) {
        guard var holdings = cache.withLock({ $0.holdings }) else { return }
        let key = Array(coinID.utf8)
        var low = 0, high = holdings.count
        while low < high {
            let mid = (low + high) / 2
            if holdings[mid].coinID.utf8.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        // Bytewise, as SQLite compares: Swift's == would call NFC and NFD spellings equal.
        let found = low < holdings.count && holdings[low].coinID.utf8.elementsEqual(key)
        switch (found, amount > 0) {
        case (true, true): holdings[low].amount = amount
        case (true, false): holdings.remove(at: low)
        case (false, true): holdings.insert(Holding(coinID: coinID, amount: amount), at: low)
        case (false, false): break
        }
        cache.withLock { $0.holdings = holdings }
    }

    /// Every holding, sorted by coin id (bytewise).
    /// - Throws: `.store` with the server's message.
    ///
    /// The rows are read from the file only when another connection (thread or process) has
    /// committed since the last read; this store's own writes update them in place.
    public func holdings() throws -> [Holding] {
        try file.locked { connection in
            // PostgreSQL cannot tell cheaply whether another connection wrote: read every time.
            let version = try connection.dataVersion()
            let cached = cache.withLock { $0 }
            if let version, let holdings = cached.holdings, version == cached.dataVersion { return holdings }
            let statement = try connection.statement("SELECT coin_id, amount FROM holding WHERE owner = ?1 ORDER BY coin_id")
            statement.bind(1, owner)
            var result: [Holding] = []
            while try statement.next() {
                result.append(Holding(coinID: statement.text(0) ?? "", amount: statement.double(1)))
            }
            cache.withLock { $0 = (version == nil ? nil : result, version ?? 0) }
            return result
        }
    }

    static func validate(coinID: String, amount: Double) throws {
        try CoinID.validateHeldAsListable(coinID)
        try CoinID.validate(coinID)
        guard amount.isFinite else { throw CoinfolioError.invalid("amount must be a finite number, not \(amount)") }
        try CoinID.validateHolding(coinID)
    }
}
