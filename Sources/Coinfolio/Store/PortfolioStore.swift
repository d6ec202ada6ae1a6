import Foundation

/// The user's holdings and ledger in a SQLite file or on a PostgreSQL server: portfolios, their
/// transactions (SPEC §12), and the engine's saved market snapshot, every row of one owner. The
/// store sees only its owner's rows.
///
/// Every write that returns is committed and durable (SQLite: WAL journal, `synchronous=FULL`;
/// PostgreSQL: a committed transaction). Several threads may share one store (calls are
/// serialized), and several processes may write one database at once: SQLite's lock waits are
/// absorbed by its busy timeout and retries; PostgreSQL's serializable transactions are retried.
/// A PostgreSQL store that lost its connection fails the call in flight with `.store` and
/// reconnects on the next.
///
///     let store = try PortfolioStore(path: "portfolio.sqlite")
///     try store.setHolding(coinID: "bitcoin", amount: 0.5)
///     try store.holdings()   // [Holding(coinID: "bitcoin", amount: 0.5)]
public final class PortfolioStore: Sendable {
    /// The path the store was opened with (`":memory:"` for a private in-memory store).
    public let path: String
    /// Whose rows the store reads and writes.
    public var owner: String { file.owner }
    private let file: StoreConnection
    /// The engine's market snapshot, in the same database.
    let snapshots: SnapshotStore
    /// The ledger (portfolios and transactions), in the same database.
    let ledger: LedgerStore
    /// Coin details saved with their fetch time, in the same database.
    let details: DetailStore
    /// Price points (shared) and the owner's manual prices, in the same database.
    let prices: PriceStore

    /// Opens the store, creating the database's schema on first use and migrating older ones (a
    /// schema-1 file's holdings become transfers in of unknown cost).
    /// - Parameters:
    ///   - path: a SQLite file path, `":memory:"`, or a PostgreSQL URL
    ///     `postgresql://user[:password]@host[:port]/db[?params]` (`postgres://` too).
    ///   - owner: whose rows the store sees: every read, write, count and delete is limited to
    ///     them (1–256 bytes, no control characters; default `"default"`).
    ///   - databaseTimeout: seconds one wait on the database may last (a positive finite
    ///     number, default 30). On PostgreSQL it bounds every round trip — connecting, preparing,
    ///     running a statement, `BEGIN`, `COMMIT`, `ROLLBACK` — and a call that runs past it is
    ///     cancelled, its connection dropped (the next call reconnects) and its transaction rolled
    ///     back (except a `COMMIT` already sent, which the server may have applied). On SQLite it is
    ///     the busy timeout: how long a write waits for another connection's lock.
    /// - Throws: `.invalidArgument` for an empty path, a bad owner or a `databaseTimeout` that is
    ///   not a positive finite number (`details["field"]` "database_timeout"); `.store` when the
    ///   database cannot be opened (the server's message, never the password), is not a
    ///   database, has a newer schema, or did not answer within `databaseTimeout`
    ///   (`details["reason"]` "timeout"). Every later call throws the same `.store` timeout
    ///   when the server does not answer in time.
    public init(path: String, owner: String = "default", databaseTimeout: Double = 30) throws {
        file = try StoreConnection(path: path, owner: owner, timeout: databaseTimeout)
        self.path = path
        snapshots = SnapshotStore(connection: file)
        ledger = LedgerStore(connection: file)
        details = DetailStore(connection: file)
        prices = PriceStore(connection: file)
    }

    /// Whether a saved snapshot could ever be read back: false for a private `":memory:"`
    /// database, which only its own connection sees and which ends with it.
    var keepsSnapshots: Bool { !file.isPrivateInMemory }

    /// Closes the database. Later calls throw `.store`. Safe to call twice.
    public func close() {
        file.close()
    }

    /// Sets how much of a coin the default portfolio ("main") holds, by recording a transfer_in
    /// or transfer_out of the difference in the ledger (SPEC §12).
    ///
    /// - Parameters:
    ///   - coinID: a CoinGecko coin id (`CoinID.validateHolding`: no upper case, no surrounding
    ///     spaces, no comma); stored exactly as given.
    ///   - amount: units of the coin. > 0 sets the holding; ≤ 0 empties it and never inserts.
    /// - Throws: `.invalidArgument` for a bad id (an id with upper case or surrounding spaces
    ///   carries the corrected id in `details["suggestion"]`), a NaN/±Inf amount, an amount the
    ///   ledger cannot hold exactly (below 1e-18 or above 8.5e19 units), or a decrease that would
    ///   leave a later sell short (nothing written); `.store` with the server's message (nothing
    ///   written). A holding such an id left behind by an older version can still be emptied.
    public func setHolding(coinID: String, amount: Double) throws {
        try ledger.setHolding(portfolio: Transaction.defaultPortfolio, coinID: coinID, amount: amount)
    }

    /// Sets several holdings of the default portfolio ("main") in one durable transaction, all or
    /// nothing: each entry follows `setHolding`'s rules (> 0 sets, ≤ 0 empties) and an id may
    /// appear once.
    /// - Parameter holdings: (coin id, units) pairs.
    /// - Throws: `.invalidArgument` for the first bad id, non-finite amount, amount the ledger
    ///   cannot hold or repeated id, with `details["index"]` (its position) and
    ///   `details["coin_id"]`; a decrease that would leave a later sell short; `.store`. Nothing
    ///   is written on any error.
    public func setHoldings(_ holdings: [Holding]) throws {
        try ledger.setHoldings(portfolio: Transaction.defaultPortfolio, holdings)
    }

    /// Every holding of the default portfolio ("main"): the coins whose transactions sum above
    /// zero, sorted by coin id (bytewise).
    /// - Throws: `.store` with the server's message.
    ///
    /// On SQLite the ledger is read again only when another connection (thread or process) has
    /// committed since the last read, or after this store wrote.
    public func holdings() throws -> [Holding] {
        try ledger.holdings(portfolio: Transaction.defaultPortfolio)
    }
}
