import Foundation

/// The engine's market snapshot, kept in the holdings' database (table `market_snapshot`, one
/// row per owner):
/// the raw CoinGecko-shaped bodies, their vs_currency, when they were taken and whether the last
/// refresh after them failed. Shares the `StoreConnection` of the `PortfolioStore` it belongs to.
final class SnapshotStore: Sendable {
    private let connection: StoreConnection
    private var owner: String { connection.owner }

    init(connection: StoreConnection) {
        self.connection = connection
    }

    /// One saved snapshot.
    struct Saved {
        var vsCurrency: String
        /// Seconds since 1970.
        var asOf: Double
        var refreshFailed: Bool
        /// A `/coins/markets` body.
        var markets: Data
        /// A `/global` body.
        var global: Data?
    }

    /// Replaces the saved snapshot.
    /// - Throws: `.store` with the server's message (nothing written).
    func save(_ snapshot: Saved) throws {
        try connection.locked { connection in
            let statement = try connection.statement(
                """
                INSERT INTO market_snapshot (owner, vs_currency, as_of, refresh_failed, markets, global)
                VALUES (?6, ?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (owner) DO UPDATE SET vs_currency = excluded.vs_currency, as_of = excluded.as_of,
                    refresh_failed = excluded.refresh_failed, markets = excluded.markets, global = excluded.global
                """)
            statement.bind(1, snapshot.vsCurrency)
            statement.bind(2, snapshot.asOf)
            statement.bind(3, snapshot.refreshFailed ? 1 : 0)
            statement.bind(6, owner)
            // The bodies can be tens of megabytes: SQLite reads them in place, no copy.
            try snapshot.markets.withUnsafeBytes { (markets: UnsafeRawBufferPointer) in
                try (snapshot.global ?? Data()).withUnsafeBytes { (global: UnsafeRawBufferPointer) in
                    statement.bind(4, borrowing: markets)
                    statement.bind(5, borrowing: snapshot.global == nil ? nil : global)
                    try statement.run("cannot save the market snapshot")
                }
            }
        }
    }

    /// Marks the saved snapshot of `vsCurrency` as left behind by a failed refresh.
    func markRefreshFailed(vsCurrency: String) throws {
        try connection.locked { connection in
            let statement = try connection.statement("UPDATE market_snapshot SET refresh_failed = 1 WHERE owner = ?2 AND vs_currency = ?1")
            statement.bind(1, vsCurrency)
            statement.bind(2, owner)
            try statement.run("cannot mark the snapshot stale")
        }
    }

    /// The saved snapshot, nil when none was saved.
    func load() throws -> Saved? {
        try connection.locked { connection in
            let statement = try connection.statement(
                "SELECT vs_currency, as_of, refresh_failed, markets, global FROM market_snapshot WHERE owner = ?1")
            statement.bind(1, owner)
            defer { statement.reset() }
            guard try statement.next() else { return nil }
            return Saved(
                vsCurrency: statement.text(0) ?? "", asOf: statement.double(1),
                refreshFailed: statement.int(2) != 0, markets: statement.blob(3) ?? Data(),
                global: statement.blob(4))
        }
    }
}
