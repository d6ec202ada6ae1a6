import Foundation

/// The user's holdings and ledger in a SQLite file or on a PostgreSQL server: portfolios and their
/// transactions (SPEC §12), every row of one owner, and the market data every owner of the
/// database shares (SPEC §20: snapshots, coin details). The store sees only its owner's rows. The engine reaches the database only through this type
/// (the extensions below), never past it to the stores of each concept.
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
    /// The engine's market snapshots, in the same database (below).
    private let snapshots: SnapshotStore
    /// The ledger (portfolios and transactions), in the same database (below).
    let ledger: LedgerStore
    /// Coin details saved with their fetch time, in the same database (below).
    private let details: DetailStore
    /// Price points (shared) and the owner's manual prices, in the same database (below).
    private let prices: PriceStore
    /// The connection a refresh holds its currency's market lock on (opened on first use).
    private let marketLock: MarketLock

    /// Opens the store, creating the database's schema on first use and migrating older ones (a
    /// schema-1 file's holdings become transfers in of unknown cost).
    /// - Parameters:
    ///   - path: a SQLite file path, `":memory:"`, or a PostgreSQL URL
    ///     `postgresql://user[:password]@host[:port]/db[?params]` (`postgres://` too).
    ///   - owner: whose rows the store sees: every read, write, count and delete is limited to
    ///     them (1–256 bytes, no control characters; default `"default"`).
    ///   - readDatabase: a hot standby of a PostgreSQL `path` (`read_database`, SPEC §20) that
    ///     reads go to; after its own write the store reads from `path` until the standby has
    ///     replayed it, and while the standby cannot be reached, reads go to `path` (nil: none).
    ///   - databaseTimeout: seconds one wait on the database may last (a positive finite
    ///     number, default 30). On PostgreSQL it bounds every round trip — connecting, preparing,
    ///     running a statement, `BEGIN`, `COMMIT`, `ROLLBACK` — and a call that runs past it is
    ///     cancelled, its connection dropped (the next call reconnects) and its transaction rolled
    ///     back (except a `COMMIT` already sent, which the server may have applied). On SQLite it is
    ///     the busy timeout: how long a write waits for another connection's lock.
    /// - Throws: `.invalidArgument` for an empty path, a bad owner, a `databaseTimeout` that is
    ///   not a positive finite number (`details["field"]` "database_timeout"), a `readDatabase`
    ///   that is no PostgreSQL URL or beside a SQLite `path` (`details["field"]` "read_database"); `.store` when the
    ///   database cannot be opened (the server's message, never the password), is not a
    ///   database, has a newer schema, or did not answer within `databaseTimeout`
    ///   (`details["reason"]` "timeout"). Every later call throws the same `.store` timeout
    ///   when the server does not answer in time.
    public init(path: String, owner: String = "default", databaseTimeout: Double = 30, readDatabase: String? = nil) throws {
        file = try StoreConnection(path: path, owner: owner, timeout: databaseTimeout, readLocation: readDatabase)
        self.path = path
        snapshots = SnapshotStore(connection: file)
        ledger = LedgerStore(connection: file)
        details = DetailStore(connection: file)
        prices = PriceStore(connection: file)
        marketLock = MarketLock(primary: file)
    }

    /// Runs `body`, which only reads, on the store's database; see `StoreConnection.reading`.
    func reading<T: Sendable>(_ body: (any Database) throws -> T) throws -> T { try file.reading(body) }

    /// Whether a saved snapshot could ever be read back: false for a private `":memory:"`
    /// database, which only its own connection sees and which ends with it.
    var keepsSnapshots: Bool { !file.isPrivateInMemory }

    /// Closes the database. Later calls throw `.store`. Safe to call twice.
    public func close() {
        marketLock.close()
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
    ///   carries the corrected id in `details["suggestion"]`), a NaN/±Inf amount, an amount below
    ///   1e-18 or above 8.5e19 units (one between is rounded half to even to 18 fraction digits),
    ///   or a decrease that would leave a later sell short (nothing written); `.store` with the
    ///   server's message (nothing written). A holding such an id left behind by an older
    ///   version can still be emptied.
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
    /// The ledger rows are read again only when the owner's ledger changed since the last read
    /// (another handle or process wrote, or this store did); each call sends one statement.
    public func holdings() throws -> [Holding] {
        try ledger.holdings(portfolio: Transaction.defaultPortfolio)
    }
}

/// The ledger as the engine uses it (SPEC §12): portfolios, transactions, holdings, cost-basis
/// input, CSV. Rules and errors are `LedgerStore`'s.
extension PortfolioStore {
    /// Stores a validated transaction under the never-negative rule; see `LedgerStore.add`.
    func addTransaction(_ transaction: Transaction) throws -> Transaction { try ledger.add(transaction) }

    /// Stores rows that belong together (a trade, a move, a transaction and its fee row) as one
    /// group, all or none; see `LedgerStore.addGroup`.
    func addTransactionGroup(_ rows: [Transaction]) throws -> (groupID: String?, rows: [Transaction]) {
        try ledger.addGroup(rows)
    }

    /// A group whose rows are made inside the write from what the database keeps of
    /// `portfolio`; see `LedgerStore.addGroup(in:_:)`.
    func addTransactionGroup(
        in portfolio: String, _ makeRows: (_ stored: String??, _ connection: any Database) throws -> [Transaction]
    ) throws -> (groupID: String?, rows: [Transaction]) {
        try ledger.addGroup(in: portfolio, makeRows)
    }

    /// Deletes a transaction unless that would leave a later one short; see `LedgerStore.delete`.
    func deleteTransaction(id: Int64) throws { try ledger.delete(id: id) }

    /// A page of transactions in ledger order, and how many match in all.
    func transactions(_ query: TransactionQuery) throws -> (transactions: [Transaction], total: Int) {
        try ledger.transactions(query)
    }

    /// The portfolio's coins with their entries in ledger order (cost basis and P&L's input).
    func coinLedgers(portfolio: String) throws -> [LedgerStore.CoinLedger] { try ledger.ledger(portfolio: portfolio) }

    /// Every income transaction's type by id, of one portfolio or (nil) of every one (SPEC §19).
    func incomeTypes(portfolio: String?) throws -> [Int64: IncomeType] { try ledger.incomeTypes(portfolio: portfolio) }

    /// The portfolio's holdings: every coin whose transactions sum above zero, by coin id.
    func holdings(portfolio: String) throws -> [Holding] { try ledger.holdings(portfolio: portfolio) }

    /// What a report of the portfolio reads, in one statement; see `LedgerStore.view`.
    func ownerView(portfolio: String, manualPricesIn: String?, marketVersionOf: String?) throws -> OwnerView {
        try ledger.view(portfolio: portfolio, manualPricesIn: manualPricesIn, marketVersionOf: marketVersionOf)
    }

    /// Sets a holding of `portfolio` by recording the transfer of the difference; see `setHolding(coinID:amount:)`.
    func setHolding(portfolio: String, coinID: String, amount: Double) throws {
        try ledger.setHolding(portfolio: portfolio, coinID: coinID, amount: amount)
    }

    /// Every portfolio by name (bytewise); a nil currency means "the engine's vs_currency".
    func portfolios() throws -> [(name: String, vsCurrency: String?)] { try ledger.portfolios() }

    /// The portfolio's stored currency: `.some(nil)` for "the engine's", nil when it does not exist.
    func portfolioCurrency(_ name: String) throws -> String?? { try ledger.portfolioCurrency(name) }

    func createPortfolio(name: String, vsCurrency: String?) throws { try ledger.createPortfolio(name: name, vsCurrency: vsCurrency) }

    func renamePortfolio(_ name: String, to newName: String) throws { try ledger.renamePortfolio(name, to: newName) }

    func deletePortfolio(_ name: String, force: Bool) throws { try ledger.deletePortfolio(name, force: force) }

    /// Imports ledger CSV in one transaction; see `LedgerStore.importCSV`.
    func importCSV(
        _ reader: inout CSVReader, newPortfolioCurrency: String, prices: (any Database) -> StoredPrices = { _ in .none },
        defaultPortfolio: String? = nil,
        keep: Bool = true, units: (([Transaction]) -> Void)? = nil, progress: ((_ rows: Int, _ finished: Bool) -> Void)? = nil
    ) throws -> (imported: Int, skipped: Int, counts: LedgerStore.ImportCounts) {
        try ledger.importCSV(
            &reader, newPortfolioCurrency: newPortfolioCurrency, prices: prices, defaultPortfolio: defaultPortfolio, keep: keep,
            units: units, progress: progress)
    }

    /// Writes an import's units of rows in one transaction (an exchange file's, SPEC §18); see
    /// `LedgerStore.importUnits`.
    func importUnits(
        keep: Bool, creating portfolio: (name: String, vsCurrency: String)?, namesColumns: Bool = true,
        _ next: (_ connection: any Database) throws -> LedgerStore.ImportUnit?, checked: () -> Void
    ) throws -> LedgerStore.ImportCounts {
        try ledger.importUnits(keep: keep, creating: portfolio, namesColumns: namesColumns, next, checked: checked)
    }

    /// Writes a portfolio's transactions (every portfolio's for nil) as CSV; see `LedgerStore.exportCSV`.
    func exportCSV(portfolio: String?, to sink: ([UInt8]) throws -> Void) throws {
        try ledger.exportCSV(portfolio: portfolio, to: sink)
    }

    /// The positions this handle keeps in memory ("portfolio/coin=amount", for tests).
    func keptPositions() -> [String] { ledger.keptPositions() }
}

/// The saved market data as the engine uses it, shared by every owner of the database (SPEC §20):
/// one snapshot per `vs_currency` (`SnapshotStore`), their sparklines read on demand, and coin
/// details (`DetailStore`).
extension PortfolioStore {
    /// Saves a new snapshot of `contents.vsCurrency` in place of the one there, holding the
    /// currency's market lock; see `SnapshotStore.write`.
    func saveSnapshot(_ contents: SnapshotStore.Contents, coins: [Coin]) throws -> SnapshotStore.Stamp {
        try snapshots.save(contents, coins: coins)
    }

    /// Saves a price update of snapshot `snapshotID`; see `SnapshotStore.updatePrices`.
    /// - Returns: the new stamp; nil when another engine replaced the snapshot since (nothing written).
    func saveSnapshotPrices(
        snapshotID: Int, vsCurrency: String, replaced: Data?, changed: [Int: Coin], asOf: Date, fetchedAt: Date
    ) throws -> SnapshotStore.Stamp? {
        try snapshots.updatePrices(
            snapshotID: snapshotID, vsCurrency: vsCurrency, replaced: replaced, changed: changed, asOf: asOf.timeIntervalSince1970,
            fetchedAt: fetchedAt.timeIntervalSince1970)
    }

    /// Marks the saved snapshot of `vsCurrency` as left behind by a failed refresh.
    /// - Returns: its new stamp, nil when there is none.
    @discardableResult
    func markSnapshotRefreshFailed(vsCurrency: String) throws -> SnapshotStore.Stamp? {
        try snapshots.markRefreshFailed(vsCurrency: vsCurrency)
    }

    /// The saved snapshot of `vsCurrency`, nil when there is none.
    func savedSnapshot(vsCurrency: String) throws -> SnapshotStore.Saved? { try snapshots.load(vsCurrency: vsCurrency) }

    /// The saved snapshot's row of `vsCurrency` without its coins, nil when there is none.
    func snapshotHeader(vsCurrency: String) throws -> SnapshotStore.Header? { try snapshots.header(vsCurrency: vsCurrency) }

    /// The quote currencies that have a saved snapshot, sorted.
    func snapshotCurrencies() throws -> [String] { try snapshots.currencies() }

    /// The sparkline of the coin at `position` of saved snapshot `snapshotID`, nil when none.
    func sparkline(snapshotID: Int, position: Int) throws -> [Double]? {
        try snapshots.sparkline(snapshotID: snapshotID, position: position)
    }

    /// Runs `body` holding the market lock of `vsCurrency` on the refresh's own connection; see
    /// `MarketLock.holding`.
    func withMarketLock<T: Sendable>(vsCurrency: String, _ body: (LockedMarket) throws -> T) throws -> T {
        try marketLock.holding(vsCurrency: vsCurrency, body)
    }

    /// Saves (replaces) a coin detail fetched at `fetchedAt`.
    func saveDetail(_ detail: CoinDetail, fetchedAt: Date) throws { try details.save(detail, fetchedAt: fetchedAt) }

    /// The saved detail of `coinID` and its fetch time, nil when none reads.
    func savedDetail(coinID: String) throws -> DetailStore.Saved? { try details.load(coinID: coinID) }
}

/// Prices of the past (SPEC §17): `PriceStore`'s points and manual prices, and the ledger's
/// pending rows.
extension PortfolioStore {
    /// See `PriceStore.save`.
    func savePricePoints(coinID: String, vsCurrency: String, points: [PricePoint]) throws {
        try prices.save(coinID: coinID, vsCurrency: vsCurrency, points: points)
    }

    /// See `PriceStore.candidates`.
    func pricePointCandidates(coinID: String, vsCurrency: String, time: Int64, within held: (any Database)? = nil) throws -> (
        atOrBefore: PricePoint?, after: PricePoint?
    ) {
        try prices.candidates(coinID: coinID, vsCurrency: vsCurrency, time: time, within: held)
    }

    /// See `PriceStore.points`.
    func pricePoints(
        coinID: String, vsCurrency: String, from: Int64, to: Int64, expected: Int = 0, within held: (any Database)? = nil
    ) throws -> [PricePoint] {
        try prices.points(coinID: coinID, vsCurrency: vsCurrency, from: from, to: to, expected: expected, within: held)
    }

    /// See `PriceStore.series`.
    func priceSeries(coinID: String, vsCurrency: String, from: Int64, to: Int64, expected: Int = 0) throws -> PriceSeries {
        try prices.series(coinID: coinID, vsCurrency: vsCurrency, from: from, to: to, expected: expected)
    }

    /// See `PriceStore.setManual`.
    @discardableResult
    func setManualPrice(coinID: String, vsCurrency: String, time: Int64?, price: ExactDecimal?) throws -> Bool {
        try prices.setManual(coinID: coinID, vsCurrency: vsCurrency, time: time, price: price)
    }

    /// See `PriceStore.manualPoints(coinID:vsCurrency:onDayOf:)`.
    func manualPricePoints(coinID: String, vsCurrency: String, onDayOf time: Int64, within held: (any Database)? = nil) throws
        -> [ManualPrice]
    {
        try prices.manualPoints(coinID: coinID, vsCurrency: vsCurrency, onDayOf: time, within: held)
    }

    /// See `PriceStore.manualPoints(coinID:vsCurrency:from:before:)`.
    func manualPricePoints(coinID: String, vsCurrency: String, from: Int64, before: Int64) throws -> [ManualPrice] {
        try prices.manualPoints(coinID: coinID, vsCurrency: vsCurrency, from: from, before: before)
    }

    /// See `PriceStore.manualCurrentPrices`.
    func manualCurrentPrices(vsCurrency: String) throws -> [String: ExactDecimal] {
        try prices.manualCurrentPrices(vsCurrency: vsCurrency)
    }

    /// See `LedgerStore.pendingPrices`.
    func pendingPrices(portfolio: String?) throws -> [Transaction] { try ledger.pendingPrices(portfolio: portfolio) }

    /// See `LedgerStore.fillPrices`.
    @discardableResult
    func fillPendingPrices(_ rows: [Transaction]) throws -> Int { try ledger.fillPrices(rows) }
}
