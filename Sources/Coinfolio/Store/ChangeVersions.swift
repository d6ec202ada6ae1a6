/// What changed in the database since an engine last looked, in one indexed read (SPEC §20's
/// version check; SPEC §21's `engine.changes` builds on it): the market-data version of one
/// `vs_currency` and the owner's ledger change counter. Two reads that return equal values saw no
/// change between them.
///
/// - `market`: the saved snapshot's `version` (`snapshot.version`), which every change of that
///   currency's market data counts in — a new save, a price update, a failed refresh — whoever
///   made it; nil while the currency has no snapshot.
/// - `ledger`: the owner's `ledger_change.counter`, which every write of the owner's ledger counts
///   in (transactions, portfolios, imports, holdings) from any handle or process; 0 before the
///   first.
struct ChangeVersions: Sendable, Hashable {
    var market: Int?
    var ledger: Int64

    /// Reads both versions with one statement (two primary-key lookups).
    /// - Throws: `.store`.
    static func read(vsCurrency: String, owner: String, _ database: any Database) throws -> ChangeVersions {
        let statement = try database.statement(
            "SELECT (SELECT version FROM snapshot WHERE vs_currency = ?1), (SELECT counter FROM ledger_change WHERE owner = ?2)")
        statement.bind(1, vsCurrency)
        statement.bind(2, owner)
        defer { statement.reset() }
        guard try statement.next() else { return ChangeVersions(market: nil, ledger: 0) }
        return ChangeVersions(market: statement.isNull(0) ? nil : statement.int(0), ledger: statement.int64(1))
    }
}

extension PortfolioStore {
    /// The market-data version of `vsCurrency` and this owner's ledger change counter, in one
    /// indexed read (on a `read_database` standby when the handle reads there). The internal
    /// API of the version check: `PortfolioEngine.followSharedChanges` calls it at most once a
    /// second; a host-facing change stream (SPEC §21) polls it.
    /// - Throws: `.store`.
    func changeVersions(vsCurrency: String) throws -> ChangeVersions {
        try reading { try ChangeVersions.read(vsCurrency: vsCurrency, owner: owner, $0) }
    }
}

extension PortfolioStore {
    /// The owner's ledger change counter after this handle's last committed write (nil before
    /// one): what `PortfolioEngine.changes` tells its own writes from other handles' by.
    var ledgerCounterOfLastWrite: Int64? {
        let counter = ledger.positionCache.withLock { $0.counter }
        return counter >= 0 ? counter : nil
    }
}
