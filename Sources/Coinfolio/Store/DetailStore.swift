import Foundation

/// Coin details (`GET /coins/{id}`) saved in the database with their fetch time, so that a
/// detail outlives the process and answers offline, in `CoinDetailCodec`'s compact form: one per
/// coin, shared by every owner (SPEC §20; a detail does not depend on the quote currency). The
/// engine's TTL decides whether a saved detail is fresh; saving never expires anything. Shares
/// the `StoreConnection` of the `PortfolioStore` it belongs to.
final class DetailStore: Sendable {
    private let connection: StoreConnection

    init(connection: StoreConnection) {
        self.connection = connection
    }

    /// A saved detail and when it was fetched.
    struct Saved: Sendable {
        var detail: CoinDetail
        var fetchedAt: Date
    }

    /// Saves (replaces) the detail of `detail.id`, fetched at `fetchedAt`.
    func save(_ detail: CoinDetail, fetchedAt: Date) throws {
        let bytes = CoinDetailCodec.encode(detail)
        try connection.locked { connection in
            let statement = try connection.statement(
                """
                INSERT INTO coin_detail (coin_id, fetched_at, detail) VALUES (?1, ?2, ?3)
                ON CONFLICT (coin_id) DO UPDATE SET fetched_at = excluded.fetched_at, detail = excluded.detail
                """)
            try bytes.withUnsafeBytes { raw in
                statement.bind(1, detail.id)
                statement.bind(2, fetchedAt.timeIntervalSince1970)
                statement.bind(3, borrowing: raw)
                _ = try statement.run("cannot save the coin detail")
            }
        }
    }

    /// The saved detail of `coinID`, nil when none was saved (or its saved form no longer reads).
    func load(coinID: String) throws -> Saved? {
        let row: (Double, Data)? = try connection.reading { connection in
            let statement = try connection.statement("SELECT fetched_at, detail FROM coin_detail WHERE coin_id = ?1")
            statement.bind(1, coinID)
            defer { statement.reset() }
            guard try statement.next() else { return nil }
            return (statement.double(0), statement.blob(1) ?? Data())
        }
        guard let (fetchedAt, bytes) = row, let detail = try? CoinDetailCodec.decode(bytes) else { return nil }
        return Saved(detail: detail, fetchedAt: Date(timeIntervalSince1970: fetchedAt))
    }
}
