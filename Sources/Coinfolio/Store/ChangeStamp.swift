/// What changed in the database since an engine last looked, in one indexed read (SPEC §21's
/// change stream): the saved snapshot of one `vs_currency` (its row id, new on every save, and
/// its fetch time, new on every price update) and the owner's ledger change counter (schema step
/// 5's `ledger_change`, which every ledger write of the owner counts itself in, from any handle
/// or process). Two reads that return equal stamps saw no change between them.
struct ChangeStamp: Sendable, Equatable {
    /// The saved snapshot's id, nil while the currency has none.
    var snapshotID: Int?
    /// The saved snapshot's `fetched_at` (Unix seconds), nil while there is none.
    var fetchedAt: Double?
    /// The owner's `ledger_change.counter`; 0 before the first write.
    var ledger: Int64

    /// Reads the stamp with one statement (three primary-key or unique-index lookups).
    /// - Throws: `.store`.
    static func read(vsCurrency: String, owner: String, _ database: any Database) throws -> ChangeStamp {
        let statement = try database.statement(
            """
            SELECT (SELECT id FROM snapshot WHERE owner = ?1 AND vs_currency = ?2),
                   (SELECT fetched_at FROM snapshot WHERE owner = ?1 AND vs_currency = ?2),
                   (SELECT counter FROM ledger_change WHERE owner = ?1)
            """)
        statement.bind(1, owner)
        statement.bind(2, vsCurrency)
        defer { statement.reset() }
        guard try statement.next() else { return ChangeStamp(ledger: 0) }
        return ChangeStamp(
            snapshotID: statement.isNull(0) ? nil : statement.int(0), fetchedAt: statement.isNull(1) ? nil : statement.double(1),
            ledger: statement.isNull(2) ? 0 : statement.int64(2))
    }
}

extension PortfolioStore {
    /// The change stamp of `vsCurrency` and this owner (`ChangeStamp`), in one indexed read.
    /// - Throws: `.store`.
    func changeStamp(vsCurrency: String) throws -> ChangeStamp {
        try ledger.file.locked { try ChangeStamp.read(vsCurrency: vsCurrency, owner: owner, $0) }
    }

    /// The owner's ledger change counter after this handle's last committed write (nil before one).
    var ledgerCounterOfLastWrite: Int64? {
        let counter = ledger.positionCache.withLock { $0.counter }
        return counter >= 0 ? counter : nil
    }
}
