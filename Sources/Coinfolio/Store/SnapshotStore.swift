import Foundation

/// The engine's market snapshots, kept in the holdings file: one per `vs_currency` (switching
/// currency keeps the others), each in the compact form of `SnapshotCodec` with its sparklines
/// one row per coin (packed doubles, or the JSON text of the price array), read only when
/// asked, and its `/global` data in `MarketDataCodec`'s form. Shares the `StoreConnection` of
/// the `PortfolioStore` it belongs to.
final class SnapshotStore: Sendable {
    private let connection: StoreConnection
    private var owner: String { connection.owner }

    init(connection: StoreConnection) {
        self.connection = connection
    }

    /// A snapshot as saved. Times are Unix seconds.
    struct Saved: Sendable {
        /// The row's id: a new one on every save, never reused, so sparkline rows of a replaced
        /// snapshot can never be mistaken for the new one's. A price update keeps it.
        var id: Int
        var vsCurrency: String
        /// The data's own time: the newest `last_updated` or `/global` `updated_at`.
        var asOf: Double
        /// When the data was fetched or loaded.
        var fetchedAt: Double
        var refreshFailed: Bool
        var content: Content
        /// The `/global` data, from `MarketDataCodec`'s compact form (or the JSON saved before it).
        var marketData: MarketData?

        enum Content: Sendable {
            /// Compact coins, decoded one by one on first use (sparklines left in their own rows).
            case compact(CompactCoins)
            /// A `/coins/markets` body saved by schema 1, sparklines inline.
            case marketsBody(Data)
        }
    }

    /// Replaces the snapshot of `vsCurrency` (one transaction): the coins in compact form, each
    /// sparkline as a row of its points, the market data in `MarketDataCodec`'s form. When the
    /// database saves sparkline text (`Database.savesSparklineText`: SQLite), a sparkline still
    /// in CoinGecko's JSON text is saved as that text, never parsed; otherwise (PostgreSQL) every
    /// sparkline is packed (`SnapshotCodec.packedSparkline`): 1.3 KB rows the server keeps in its
    /// table, where JSON text of 3 KB made it compress every row (pglz) or move it out of line,
    /// several times the cost of the parse (bench/NOTES.md, "PostgreSQL snapshot save").
    /// - Returns: the new snapshot's id.
    @discardableResult
    func save(vsCurrency: String, coins: [Coin], asOf: Double, fetchedAt: Double, marketData: MarketData?) throws -> Int {
        let compact = SnapshotCodec.encode(coins)
        let global = marketData.map(MarketDataCodec.encode)
        return try connection.locked { connection in
            let savesText = connection.savesSparklineText
            return try connection.transaction(.serializable) {
                let owner = self.owner
                // The replaced row and its id in one statement (one round trip on a server).
                let old = try connection.statement("DELETE FROM snapshot WHERE owner = ?2 AND vs_currency = ?1 RETURNING id")
                old.bind(1, vsCurrency)
                old.bind(2, owner)
                let oldID = try old.scalarInt()
                let insert = try connection.statement(
                    """
                    INSERT INTO snapshot (owner, vs_currency, as_of, fetched_at, refresh_failed, format, coins, global)
                    VALUES (?6, ?1, ?2, ?3, 0, 1, ?4, ?5) RETURNING id
                    """)
                insert.bind(6, owner)
                insert.bind(1, vsCurrency)
                insert.bind(2, asOf)
                insert.bind(3, fetchedAt)
                // The blobs can be megabytes: SQLite reads them in place, no copy.
                try compact.withUnsafeBytes { (coins: UnsafeRawBufferPointer) in
                    try (global ?? []).withUnsafeBytes { (globalBytes: UnsafeRawBufferPointer) in
                        insert.bind(4, borrowing: coins)
                        insert.bind(5, borrowing: global == nil ? nil : globalBytes)
                        guard try insert.next() else { throw CoinfolioError(.store, "cannot save the market snapshot") }
                    }
                }
                let id = insert.int(0)
                insert.reset()
                if let oldID {
                    let sparklines = try connection.statement("DELETE FROM snapshot_sparkline WHERE owner = ?2 AND snapshot_id = ?1")
                    sparklines.bind(1, oldID)
                    sparklines.bind(2, owner)
                    _ = try sparklines.run("cannot replace the saved sparklines")
                }
                // Many rows a statement: one round trip per 64 coins on a server, not one per coin.
                var chunk: [(position: Int, bytes: Range<Int>)] = []
                var buffer: [UInt8] = []
                func flush() throws {
                    guard !chunk.isEmpty else { return }
                    let statement = try connection.statement(Self.sparklineInsert(rows: chunk.count))
                    try buffer.withUnsafeBytes { raw in
                        statement.bind(1, owner)
                        statement.bind(2, id)
                        for (index, row) in chunk.enumerated() {
                            statement.bind(Int32(3 + 2 * index), row.position)
                            statement.bind(Int32(4 + 2 * index), borrowing: UnsafeRawBufferPointer(rebasing: raw[row.bytes]))
                        }
                        _ = try statement.run("cannot save the sparklines")
                    }
                    chunk.removeAll(keepingCapacity: true)
                    buffer.removeAll(keepingCapacity: true)
                }
                for (position, coin) in coins.enumerated() {
                    guard let stored = coin.sparkline else { continue }
                    let start = buffer.count
                    if stored.isUndecoded && savesText {
                        buffer.append(contentsOf: stored.jsonUTF8)
                    } else {
                        SnapshotCodec.appendPackedSparkline(stored.prices, to: &buffer)
                    }
                    chunk.append((position, start..<buffer.count))
                    if chunk.count == Self.sparklinesPerStatement { try flush() }
                }
                try flush()
                return id
            }
        }
    }

    /// A price update of saved snapshot `snapshotID` (the snapshot of `vsCurrency`): its coins
    /// replaced, its times set, its failed mark cleared; its id and sparkline rows stay. The new
    /// coins are `replaced` when the caller made them (`CompactCoins.replacing`); otherwise the
    /// saved ones are read in the same transaction and the records of `changed`'s positions
    /// replaced (`SnapshotCodec.replacing`): either way no other coin is decoded or encoded.
    /// - Returns: false when the snapshot of `vsCurrency` is no longer `snapshotID` (another
    ///   engine replaced it): nothing was written.
    /// - Throws: `.store`, also (`SnapshotCodec.corrupt`) for saved coins that no longer read.
    func updatePrices(
        snapshotID: Int, vsCurrency: String, replaced: Data?, changed: [Int: Coin], asOf: Double, fetchedAt: Double
    ) throws -> Bool {
        try connection.locked { connection in
            try connection.transaction(.serializable) {
                let owner = self.owner
                var coins = replaced
                if coins == nil {
                    let select = try connection.statement(
                        "SELECT coins FROM snapshot WHERE owner = ?3 AND vs_currency = ?2 AND id = ?1 AND format = 1")
                    select.bind(1, snapshotID)
                    select.bind(2, vsCurrency)
                    select.bind(3, owner)
                    defer { select.reset() }
                    guard try select.next(), let saved = select.blob(0) else { return false }
                    coins = try saved.withUnsafeBytes { raw in
                        Data(SnapshotCodec.replacing(changed, in: raw, skimmed: try SnapshotCodec.skim(raw)).blob)
                    }
                }
                guard let coins else { return false }
                let update = try connection.statement(
                    """
                    UPDATE snapshot SET coins = ?1, as_of = ?2, fetched_at = ?3, refresh_failed = 0
                    WHERE owner = ?6 AND vs_currency = ?5 AND id = ?4 AND format = 1
                    """)
                return try coins.withUnsafeBytes { raw in
                    update.bind(1, borrowing: raw)
                    update.bind(2, asOf)
                    update.bind(3, fetchedAt)
                    update.bind(4, snapshotID)
                    update.bind(5, vsCurrency)
                    update.bind(6, owner)
                    return try update.run("cannot save the price update") == 1
                }
            }
        }
    }

    static let sparklinesPerStatement = 64

    /// `INSERT … VALUES` of `rows` sparklines: ?1 owner, ?2 snapshot id, then position and points
    /// for each row.
    static func sparklineInsert(rows: Int) -> String {
        let values = (0..<rows).map { "(?1, ?2, ?\(3 + 2 * $0), ?\(4 + 2 * $0))" }.joined(separator: ", ")
        return "INSERT INTO snapshot_sparkline (owner, snapshot_id, position, points) VALUES \(values)"
    }

    /// Marks the saved snapshot of `vsCurrency` as left behind by a failed refresh.
    func markRefreshFailed(vsCurrency: String) throws {
        try connection.locked { connection in
            let statement = try connection.statement("UPDATE snapshot SET refresh_failed = 1 WHERE owner = ?2 AND vs_currency = ?1")
            statement.bind(1, vsCurrency)
            statement.bind(2, owner)
            _ = try statement.run("cannot mark the snapshot stale")
        }
    }

    /// The saved snapshot of `vsCurrency`, nil when there is none. The compact coins are skimmed
    /// (`CompactCoins`), the market data read from its compact form: no JSON parse.
    /// - Throws: `.store` when the database fails or the saved form is damaged.
    func load(vsCurrency: String) throws -> Saved? {
        try connection.locked { connection in
            let statement = try connection.statement(
                "SELECT id, as_of, fetched_at, refresh_failed, format, coins, global FROM snapshot WHERE owner = ?2 AND vs_currency = ?1")
            statement.bind(1, vsCurrency)
            statement.bind(2, owner)
            defer { statement.reset() }
            guard try statement.next() else { return nil }
            let content: Saved.Content
            switch statement.int(4) {
            case 0: content = .marketsBody(statement.blob(5) ?? Data())
            case 1:
                content = .compact(try CompactCoins.shared(blob: statement.blob(5) ?? Data()))
            default: throw SnapshotCodec.corrupt
            }
            return Saved(
                id: statement.int(0), vsCurrency: vsCurrency, asOf: statement.double(1), fetchedAt: statement.double(2),
                refreshFailed: statement.int(3) != 0, content: content, marketData: try statement.blob(6).map(MarketDataCodec.decode))
        }
    }

    /// The quote currencies that have a saved snapshot, sorted.
    func currencies() throws -> [String] {
        try connection.locked { connection in
            let statement = try connection.statement("SELECT vs_currency FROM snapshot WHERE owner = ?1 ORDER BY vs_currency")
            statement.bind(1, owner)
            var result: [String] = []
            while try statement.next() { result.append(statement.text(0) ?? "") }
            return result
        }
    }

    /// The sparkline of the coin at `position` of snapshot `snapshotID`; nil when it has none or
    /// the snapshot was replaced since.
    func sparkline(snapshotID: Int, position: Int) throws -> [Double]? {
        try connection.locked { connection in
            let statement = try connection.statement(
                "SELECT points FROM snapshot_sparkline WHERE owner = ?3 AND snapshot_id = ?1 AND position = ?2")
            statement.bind(1, snapshotID)
            statement.bind(2, position)
            statement.bind(3, owner)
            defer { statement.reset() }
            guard try statement.next() else { return nil }
            guard let data = statement.blob(0) else { return nil }
            return data.withUnsafeBytes { raw -> [Double]? in
                let bytes = raw.bindMemory(to: UInt8.self)
                // JSON text as CoinGecko sent it reads by the decoder's own rules (numbers as
                // strings included); packed points by the codec.
                if bytes.first == UInt8(ascii: "D") { return SnapshotCodec.sparklinePoints(bytes) }
                return Sparkline(json: bytes)?.prices ?? SnapshotCodec.sparklinePoints(bytes)
            }
        }
    }
}
