import Foundation
import Synchronization

/// One refresh for many engines (SPEC §20): a refresh holds its currency's market lock
/// (`Database.marketTransaction`: SQLite's write lock, PostgreSQL's transaction-scoped advisory
/// lock) for as long as it downloads, on a connection of its own, so that the engines refreshing
/// the same currency at once — threads or processes — wait for it and then answer with its
/// snapshot, and the handle's own connection stays free for queries meanwhile. The connection is
/// opened on the first refresh and kept (one more per engine that refreshes a shared database),
/// except while many SQLite connections are open: then each refresh opens and closes its own.
final class MarketLock: Sendable {
    /// The handle's own connection: what this one writes, its reads must see (`noteWrite`).
    private let primary: StoreConnection
    private let opened = Mutex<StoreConnection?>(nil)

    init(primary: StoreConnection) {
        self.primary = primary
    }

    /// Runs `body` holding the market lock of `vsCurrency`, in one transaction that commits what
    /// `body` saved when it returns and rolls it back when it throws.
    /// - Throws: `.store` when the database fails, or (`details["reason"]` "timeout"; on SQLite
    ///   `sqlite_code` 5) when another engine held the lock for all of `database_timeout`;
    ///   whatever `body` throws.
    func holding<T: Sendable>(vsCurrency: String, _ body: (LockedMarket) throws -> T) throws -> T {
        // While many SQLite connections are open (a service's engines), the refresh's connection
        // is opened for this refresh and closed after it rather than kept: a kept one costs each
        // engine that ever refreshed another connection (about 30 KB), as `keepsCachesBetweenCalls`
        // explains for the handle's own.
        if !SQLiteConnection.keepsCachesBetweenCalls && opened.withLock({ $0 == nil }) {
            let connection = try StoreConnection(path: primary.path, owner: primary.owner, timeout: primary.timeout)
            defer { connection.close() }
            return try holding(on: connection, vsCurrency: vsCurrency, body)
        }
        return try holding(on: try open(), vsCurrency: vsCurrency, body)
    }

    private func holding<T: Sendable>(
        on connection: StoreConnection, vsCurrency: String, _ body: (LockedMarket) throws -> T
    ) throws -> T {
        try connection.locked { database in
            let result = try database.marketTransaction(vsCurrency: vsCurrency) {
                try body(LockedMarket(database: database, vsCurrency: vsCurrency, owner: primary.owner))
            }
            primary.noteWrite(on: database)
            return result
        }
    }

    private func open() throws -> StoreConnection {
        if let connection = opened.withLock({ $0 }) { return connection }
        let connection = try StoreConnection(path: primary.path, owner: primary.owner, timeout: primary.timeout)
        return opened.withLock { kept in
            if let kept { return kept }
            kept = connection
            return connection
        }
    }

    func close() {
        opened.withLock { $0 }?.close()
    }
}

/// The market data of one currency while its lock is held: what a refresh reads before deciding
/// to download, and where it saves what it downloaded — all in the lock's transaction.
struct LockedMarket {
    let database: any Database
    let vsCurrency: String
    let owner: String

    /// The saved snapshot's row without its coins, nil when there is none.
    func header() throws -> SnapshotStore.Header? { try SnapshotStore.header(vsCurrency: vsCurrency, database) }

    /// The saved snapshot, nil when there is none.
    func saved() throws -> SnapshotStore.Saved? { try SnapshotStore.read(vsCurrency: vsCurrency, database) }

    /// Replaces the snapshot; see `SnapshotStore.write`.
    func save(_ contents: SnapshotStore.Contents, coins: [Coin]) throws -> SnapshotStore.Stamp {
        try SnapshotStore.write(contents, coins: coins, database)
    }

    /// The coins that other owners hold (a positive sum in some portfolio), by id: a refresh of
    /// the shared snapshot prices every owner's holdings, not only those of the owner that
    /// happened to refresh. Sums are the server's decimals (PostgreSQL's `numeric`: exact;
    /// SQLite's: doubles, which may count a dust position as held: one coin more asked for).
    func coinsHeldByOtherOwners() throws -> [String] {
        let adding = TransactionKind.allCases.filter(\.adds).map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let statement = try database.statement(
            """
            SELECT DISTINCT coin_id FROM (
                SELECT coin_id FROM ledger_transaction WHERE owner <> ?1 GROUP BY owner, portfolio, coin_id
                HAVING SUM(CASE WHEN kind IN (\(adding)) THEN CAST(amount AS NUMERIC) ELSE -CAST(amount AS NUMERIC) END) > 0
            ) AS held ORDER BY coin_id
            """)
        statement.bind(1, owner)
        defer { statement.reset() }
        var ids: [String] = []
        while try statement.next() { ids.append(statement.text(0) ?? "") }
        return ids
    }
}
