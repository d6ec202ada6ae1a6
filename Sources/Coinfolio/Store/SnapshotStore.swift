import Foundation

/// The market snapshots of a database, shared by every owner (SPEC §20, schema step 10): one per
/// `vs_currency` (switching currency keeps the others), each in the compact form of
/// `SnapshotCodec` with its sparklines one row per coin (packed doubles, or the JSON text of the
/// price array), read only when asked, and its `/global` data in `MarketDataCodec`'s form.
/// Every write of a currency's snapshot holds that currency's market lock
/// (`Database.marketTransaction`), so writers of one currency — a refresh, a load, a price
/// update — run one after another, and counts itself in the row's `version` (what the engines'
/// version check reads). Shares the `StoreConnection` of the `PortfolioStore` it belongs to.
final class SnapshotStore: Sendable {
    private let connection: StoreConnection

    init(connection: StoreConnection) {
        self.connection = connection
    }

    /// Which saved snapshot, and which change of it: a new save takes a new `id` (never
    /// reused, so sparkline rows of a replaced snapshot are never mistaken for the new one's)
    /// and the next `version`; a price update or a failed refresh keeps the id and takes the next
    /// version.
    struct Stamp: Sendable, Hashable {
        var id: Int
        var version: Int
    }

    /// What a refresh asked CoinGecko for: the top `coinLimit` coins with the change `windows`
    /// (`price_change_percentage` raw values, sorted). A snapshot loaded from bodies has none.
    struct Coverage: Sendable, Hashable {
        var coinLimit: Int
        var windows: [String]

        init(coinLimit: Int, windows: [String]) {
            self.coinLimit = coinLimit
            self.windows = windows.sorted()
        }

        /// Whether a snapshot asked for this much answers a refresh that asks for `other`: at least
        /// as many top coins and every window.
        func covers(_ other: Coverage) -> Bool {
            coinLimit >= other.coinLimit && Set(windows).isSuperset(of: other.windows)
        }

        /// The `price_change_percentage` column's text: the windows comma-joined.
        var windowsText: String { windows.joined(separator: ",") }

        /// Read from the columns; nil when the snapshot has no coverage (loaded, or saved before step 10).
        init?(coinLimit: Int?, windowsText: String?) {
            guard let coinLimit, let windowsText else { return nil }
            self.init(coinLimit: coinLimit, windows: windowsText.split(separator: ",").map(String.init))
        }
    }

    /// A saved snapshot's row without its coins: what a refresh looks at before deciding to fetch.
    struct Header: Sendable {
        var stamp: Stamp
        /// When the data was fetched or loaded, Unix seconds (the saving engine's clock).
        var fetchedAt: Double
        var coverage: Coverage?
    }

    /// A snapshot as saved. Times are Unix seconds.
    struct Saved: Sendable {
        var stamp: Stamp
        var vsCurrency: String
        /// The data's own time: the newest `last_updated` or `/global` `updated_at`.
        var asOf: Double
        /// When the data was fetched or loaded.
        var fetchedAt: Double
        var refreshFailed: Bool
        var content: Content
        /// The `/global` data, from `MarketDataCodec`'s compact form (or the JSON saved before it).
        var marketData: MarketData?
        /// How many of the coins are the top list (those after it were added for held coins);
        /// nil when all are.
        var listed: Int?

        enum Content: Sendable {
            /// Compact coins, decoded one by one on first use (sparklines left in their own rows).
            case compact(CompactCoins)
            /// A `/coins/markets` body saved by schema 1, sparklines inline.
            case marketsBody(Data)
        }
    }

    /// What `save` writes besides the coins.
    struct Contents: Sendable {
        var vsCurrency: String
        var asOf: Double
        var fetchedAt: Double
        var marketData: MarketData?
        /// What the refresh asked for (nil for a load).
        var coverage: Coverage?
        /// How many of the coins are the top list (nil: all of them).
        var listed: Int?
    }

    /// Replaces the snapshot of `contents.vsCurrency` holding its market lock; see `write`.
    @discardableResult
    func save(_ contents: Contents, coins: [Coin]) throws -> Stamp {
        try connection.locked { connection in
            try connection.marketTransaction(vsCurrency: contents.vsCurrency) { try Self.write(contents, coins: coins, connection) }
        }
    }

    /// Replaces the snapshot of `contents.vsCurrency`, inside its market transaction: the coins in
    /// compact form, each sparkline as a row of its points, the market data in `MarketDataCodec`'s
    /// form. When the database saves sparkline text (`Database.savesSparklineText`: SQLite), a
    /// sparkline still in CoinGecko's JSON text is saved as that text, never parsed; otherwise
    /// (PostgreSQL) every sparkline is packed (`SnapshotCodec.packedSparkline`): 1.3 KB rows the
    /// server keeps in its table, where JSON text of 3 KB made it compress every row (pglz) or move
    /// it out of line, several times the cost of the parse (bench/NOTES.md, "PostgreSQL snapshot save").
    /// - Returns: the new snapshot's id and version (one past the replaced one's).
    static func write(_ contents: Contents, coins: [Coin], _ connection: any Database) throws -> Stamp {
        let compact = SnapshotCodec.encode(coins)
        let global = contents.marketData.map(MarketDataCodec.encode)
        let savesText = connection.savesSparklineText
        // The replaced row, its id and version in one statement (one round trip on a server).
        let old = try connection.statement("DELETE FROM snapshot WHERE vs_currency = ?1 RETURNING id, version")
        old.bind(1, contents.vsCurrency)
        let replaced: Stamp? = try old.next() ? Stamp(id: old.int(0), version: old.int(1)) : nil
        old.reset()
        let insert = try connection.statement(
            """
            INSERT INTO snapshot (vs_currency, as_of, fetched_at, refresh_failed, format, coins, global, version, coin_limit,
                price_change_percentage, listed)
            VALUES (?1, ?2, ?3, 0, 1, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id
            """)
        insert.bind(1, contents.vsCurrency)
        insert.bind(2, contents.asOf)
        insert.bind(3, contents.fetchedAt)
        let version = (replaced?.version ?? 0) + 1
        insert.bind(6, version)
        if let coverage = contents.coverage {
            insert.bind(7, coverage.coinLimit)
            insert.bind(8, coverage.windowsText)
        }
        if let listed = contents.listed, listed < coins.count { insert.bind(9, listed) }
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
        if let replaced {
            let sparklines = try connection.statement("DELETE FROM snapshot_sparkline WHERE snapshot_id = ?1")
            sparklines.bind(1, replaced.id)
            _ = try sparklines.run("cannot replace the saved sparklines")
        }
        try writeSparklines(of: coins, snapshotID: id, savesText: savesText, connection)
        return Stamp(id: id, version: version)
    }

    /// The sparkline rows of a new snapshot, many rows a statement: one round trip per 64 coins
    /// on a server, not one per coin.
    private static func writeSparklines(of coins: [Coin], snapshotID id: Int, savesText: Bool, _ connection: any Database) throws {
        var chunk: [(position: Int, bytes: Range<Int>)] = []
        var buffer: [UInt8] = []
        func flush() throws {
            guard !chunk.isEmpty else { return }
            let statement = try connection.statement(Self.sparklineInsert(rows: chunk.count))
            try buffer.withUnsafeBytes { raw in
                statement.bind(1, id)
                for (index, row) in chunk.enumerated() {
                    statement.bind(Int32(2 + 2 * index), row.position)
                    statement.bind(Int32(3 + 2 * index), borrowing: UnsafeRawBufferPointer(rebasing: raw[row.bytes]))
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
    }

    /// A price update of saved snapshot `snapshotID` (the snapshot of `vsCurrency`), holding the
    /// currency's market lock: its coins replaced, its times set, its failed mark cleared, its
    /// version counted; its id and sparkline rows stay. The new coins are `replaced` when the
    /// caller made them (`CompactCoins.replacing`); otherwise the saved ones are read in the same
    /// transaction and the records of `changed`'s positions replaced (`SnapshotCodec.replacing`):
    /// either way no other coin is decoded or encoded.
    /// - Returns: the new stamp; nil when the snapshot of `vsCurrency` is no longer `snapshotID`
    ///   (another engine replaced it): nothing was written.
    /// - Throws: `.store`, also (`SnapshotCodec.corrupt`) for saved coins that no longer read.
    func updatePrices(
        snapshotID: Int, vsCurrency: String, replaced: Data?, changed: [Int: Coin], asOf: Double, fetchedAt: Double
    ) throws -> Stamp? {
        try connection.locked { connection in
            try connection.marketTransaction(vsCurrency: vsCurrency) {
                var coins = replaced
                if coins == nil {
                    let select = try connection.statement("SELECT coins FROM snapshot WHERE vs_currency = ?2 AND id = ?1 AND format = 1")
                    select.bind(1, snapshotID)
                    select.bind(2, vsCurrency)
                    defer { select.reset() }
                    guard try select.next(), let saved = select.blob(0) else { return nil }
                    coins = try saved.withUnsafeBytes { raw in
                        Data(SnapshotCodec.replacing(changed, in: raw, skimmed: try SnapshotCodec.skim(raw)).blob)
                    }
                }
                guard let coins else { return nil }
                let update = try connection.statement(
                    """
                    UPDATE snapshot SET coins = ?1, as_of = ?2, fetched_at = ?3, refresh_failed = 0, version = version + 1
                    WHERE vs_currency = ?5 AND id = ?4 AND format = 1 RETURNING version
                    """)
                return try coins.withUnsafeBytes { raw in
                    update.bind(1, borrowing: raw)
                    update.bind(2, asOf)
                    update.bind(3, fetchedAt)
                    update.bind(4, snapshotID)
                    update.bind(5, vsCurrency)
                    defer { update.reset() }
                    return try update.next() ? Stamp(id: snapshotID, version: update.int(0)) : nil
                }
            }
        }
    }

    static let sparklinesPerStatement = 64

    /// `INSERT … VALUES` of `rows` sparklines: ?1 the snapshot id, then position and points for
    /// each row.
    static func sparklineInsert(rows: Int) -> String {
        let values = (0..<rows).map { "(?1, ?\(2 + 2 * $0), ?\(3 + 2 * $0))" }.joined(separator: ", ")
        return "INSERT INTO snapshot_sparkline (snapshot_id, position, points) VALUES \(values)"
    }

    /// Marks the saved snapshot of `vsCurrency` as left behind by a failed refresh (every engine
    /// on the database sees it as stale).
    /// - Returns: its new stamp, nil when there is none.
    @discardableResult
    func markRefreshFailed(vsCurrency: String) throws -> Stamp? {
        try connection.locked { connection in
            let statement = try connection.statement(
                "UPDATE snapshot SET refresh_failed = 1, version = version + 1 WHERE vs_currency = ?1 RETURNING id, version")
            statement.bind(1, vsCurrency)
            defer { statement.reset() }
            return try statement.next() ? Stamp(id: statement.int(0), version: statement.int(1)) : nil
        }
    }

    /// The saved snapshot of `vsCurrency`, nil when there is none; see `read`.
    func load(vsCurrency: String) throws -> Saved? {
        try connection.reading { try Self.read(vsCurrency: vsCurrency, $0) }
    }

    /// The saved snapshot of `vsCurrency`, nil when there is none. The compact coins are skimmed
    /// (`CompactCoins`), the market data read from its compact form: no JSON parse.
    /// - Throws: `.store` when the database fails or the saved form is damaged.
    static func read(vsCurrency: String, _ connection: any Database) throws -> Saved? {
        let statement = try connection.statement(
            """
            SELECT id, version, as_of, fetched_at, refresh_failed, format, coins, global, listed
            FROM snapshot WHERE vs_currency = ?1
            """)
        statement.bind(1, vsCurrency)
        defer { statement.reset() }
        guard try statement.next() else { return nil }
        let content: Saved.Content
        switch statement.int(5) {
        case 0: content = .marketsBody(statement.blob(6) ?? Data())
        case 1: content = .compact(try CompactCoins.shared(blob: statement.blob(6) ?? Data()))
        default: throw SnapshotCodec.corrupt
        }
        return Saved(
            stamp: Stamp(id: statement.int(0), version: statement.int(1)), vsCurrency: vsCurrency, asOf: statement.double(2),
            fetchedAt: statement.double(3), refreshFailed: statement.int(4) != 0, content: content,
            marketData: try statement.blob(7).map(MarketDataCodec.decode), listed: statement.isNull(8) ? nil : statement.int(8))
    }

    /// The saved snapshot's row of `vsCurrency` without its coins, nil when there is none.
    static func header(vsCurrency: String, _ connection: any Database) throws -> Header? {
        let statement = try connection.statement(
            "SELECT id, version, fetched_at, coin_limit, price_change_percentage FROM snapshot WHERE vs_currency = ?1")
        statement.bind(1, vsCurrency)
        defer { statement.reset() }
        guard try statement.next() else { return nil }
        return Header(
            stamp: Stamp(id: statement.int(0), version: statement.int(1)), fetchedAt: statement.double(2),
            coverage: Coverage(coinLimit: statement.isNull(3) ? nil : statement.int(3), windowsText: statement.text(4)))
    }

    /// The saved snapshot's row of `vsCurrency` without its coins, nil when there is none.
    func header(vsCurrency: String) throws -> Header? {
        try connection.reading { try Self.header(vsCurrency: vsCurrency, $0) }
    }

    /// The quote currencies that have a saved snapshot, sorted.
    func currencies() throws -> [String] {
        try connection.reading { connection in
            let statement = try connection.statement("SELECT vs_currency FROM snapshot ORDER BY vs_currency")
            defer { statement.reset() }
            var result: [String] = []
            while try statement.next() { result.append(statement.text(0) ?? "") }
            return result
        }
    }

    /// The sparkline of the coin at `position` of snapshot `snapshotID`; nil when it has none or
    /// the snapshot was replaced since.
    func sparkline(snapshotID: Int, position: Int) throws -> [Double]? {
        try connection.reading { connection in
            let statement = try connection.statement("SELECT points FROM snapshot_sparkline WHERE snapshot_id = ?1 AND position = ?2")
            statement.bind(1, snapshotID)
            statement.bind(2, position)
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
