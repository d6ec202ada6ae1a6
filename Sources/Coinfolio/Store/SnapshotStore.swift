import Foundation

/// The engine's market snapshots, kept in the holdings file: one per `vs_currency` (switching
/// currency keeps the others), each in the compact form of `SnapshotCodec` with its sparklines
/// one row per coin (packed doubles, or the JSON text of the price array), read only when asked. Shares the `StoreConnection` of the
/// `PortfolioStore` it belongs to.
final class SnapshotStore: Sendable {
    private let connection: StoreConnection
    private var owner: String { connection.owner }

    init(connection: StoreConnection) {
        self.connection = connection
    }

    /// A snapshot as saved. Times are Unix seconds.
    struct Saved: Sendable {
        /// The row's id: a new one on every save, never reused, so sparkline rows of a replaced
        /// snapshot can never be mistaken for the new one's.
        var id: Int
        var vsCurrency: String
        /// The data's own time: the newest `last_updated` or `/global` `updated_at`.
        var asOf: Double
        /// When the data was fetched or loaded.
        var fetchedAt: Double
        var refreshFailed: Bool
        var content: Content
        var global: Data?

        enum Content: Sendable {
            /// Compact coins, decoded one by one on first use (sparklines left in their own rows).
            case compact(CompactCoins)
            /// A `/coins/markets` body saved by schema 1, sparklines inline.
            case marketsBody(Data)
        }
    }

    /// Replaces the snapshot of `vsCurrency` (one transaction): the coins in compact form, each
    /// sparkline as a row of its points. On SQLite a sparkline still in CoinGecko's JSON text is
    /// saved as that text, never parsed; on PostgreSQL every sparkline is packed
    /// (`SnapshotCodec.packedSparkline`): 1.3 KB rows the server keeps in its table, where JSON
    /// text of 3 KB made it compress every row (pglz) or move it out of line, several times the
    /// cost of the parse (bench/NOTES.md, "PostgreSQL snapshot save").
    /// - Parameter copyingSparklinesOf: a saved snapshot whose coins are `coins`, position for
    ///   position (a price update), and which of its coins have a sparkline row: those rows are
    ///   copied inside the database for the coins whose sparkline is not in memory.
    /// - Returns: the new snapshot's id.
    @discardableResult
    func save(
        vsCurrency: String, coins: [Coin], asOf: Double, fetchedAt: Double, global: Data?,
        copyingSparklinesOf carried: (snapshotID: Int, hasSparkline: [Bool])? = nil
    ) throws -> Int {
        let source = carried?.snapshotID
        let compact = SnapshotCodec.encode(coins, storedSparklines: carried?.hasSparkline)
        return try connection.locked { connection in
            let packsEverySparkline = connection.kind == .postgres
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
                    try (global ?? Data()).withUnsafeBytes { (globalBytes: UnsafeRawBufferPointer) in
                        insert.bind(4, borrowing: coins)
                        insert.bind(5, borrowing: global == nil ? nil : globalBytes)
                        guard try insert.next() else { throw CoinfolioError(.store, "cannot save the market snapshot") }
                    }
                }
                let id = insert.int(0)
                insert.reset()
                if let source {
                    let copy = try connection.statement(
                        """
                        INSERT INTO snapshot_sparkline (owner, snapshot_id, position, points)
                        SELECT owner, CAST(?1 AS BIGINT), position, points FROM snapshot_sparkline WHERE owner = ?3 AND snapshot_id = ?2
                        """)
                    copy.bind(1, id)
                    copy.bind(2, source)
                    copy.bind(3, owner)
                    _ = try copy.run("cannot keep the saved sparklines")
                }
                for replaced in Set([oldID, source].compactMap { $0 }) {
                    let sparklines = try connection.statement("DELETE FROM snapshot_sparkline WHERE owner = ?2 AND snapshot_id = ?1")
                    sparklines.bind(1, replaced)
                    sparklines.bind(2, owner)
                    _ = try sparklines.run("cannot replace the saved sparklines")
                }
                // Many rows a statement: one round trip per 64 coins on a server, not one per coin.
                var chunk: [(position: Int, bytes: Range<Int>)] = []
                var buffer: [UInt8] = []
                func flush() throws {
                    guard !chunk.isEmpty else { return }
                    let statement = try connection.statement(Self.sparklineInsert(rows: chunk.count, replacing: source != nil))
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
                    if stored.isUndecoded && !packsEverySparkline {
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

    static let sparklinesPerStatement = 64

    /// `INSERT … VALUES` of `rows` sparklines: ?1 owner, ?2 snapshot id, then position and points
    /// for each row.
    /// - Parameter replacing: rows copied from the previous snapshot may be there already (they
    ///   are replaced). Without copied rows a plain insert: PostgreSQL's `ON CONFLICT` costs a
    ///   speculative insertion per row.
    static func sparklineInsert(rows: Int, replacing: Bool) -> String {
        let values = (0..<rows).map { "(?1, ?2, ?\(3 + 2 * $0), ?\(4 + 2 * $0))" }.joined(separator: ", ")
        let insert = "INSERT INTO snapshot_sparkline (owner, snapshot_id, position, points) VALUES \(values)"
        return replacing ? insert + " ON CONFLICT (owner, snapshot_id, position) DO UPDATE SET points = excluded.points" : insert
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

    /// The saved snapshot of `vsCurrency`, nil when there is none. The compact coins are decoded
    /// straight from SQLite's buffer.
    /// - Throws: `.store` when SQLite fails or the saved form is damaged.
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
                refreshFailed: statement.int(3) != 0, content: content, global: statement.blob(6))
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
