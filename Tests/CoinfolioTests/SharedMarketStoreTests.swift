import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §20's storage, on a SQLite file and on a database of the test cluster: schema step 10
/// keeps the newest snapshot of each currency and the newest detail of each coin, and changes no
/// owner's ledger (rows written as step 9 held them, then compared row by row); and market data
/// is stored once, so an owner more costs a few ledger rows, not a snapshot.
final class SharedMarketStoreTests: XCTestCase {
    /// A new SQLite file and a new database on the cluster.
    private func bothBackends() throws -> [String] {
        [try temporaryDirectory(self).appendingPathComponent("shared.sqlite").path, try TestDatabase.emptyPostgresDatabase(self)]
    }

    /// Every row `sql` selects, each column as hex of its bytes ("NULL" for null).
    private func rows(_ database: any Database, _ sql: String, columns: Int32) throws -> [[String]] {
        let statement = try database.statement(sql)
        defer { statement.reset() }
        var rows: [[String]] = []
        while try statement.next() {
            rows.append(
                (0..<columns).map { column in
                    statement.isNull(column)
                        ? "NULL" : (statement.blob(column) ?? Data()).map { String(format: "%02x", $0) }.joined()
                })
        }
        return rows
    }

    private func inserted(_ database: any Database, _ sql: String, _ bind: (any DatabaseStatement) -> Void) throws -> Int {
        let statement = try database.statement(sql + " RETURNING id")
        bind(statement)
        defer { statement.reset() }
        XCTAssertTrue(try statement.next())
        return statement.int(0)
    }

    private static let ledgerDump = [
        ("SELECT owner, name, vs_currency FROM portfolio ORDER BY owner, name", Int32(3)),
        (
            """
            SELECT id, owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, group_id, income_type,
            fee_coin_id, fee_price, price_source, price_at, original_price, price_currency FROM ledger_transaction ORDER BY id
            """, 19
        ),
        ("SELECT owner, counter FROM ledger_change ORDER BY owner", 2),
    ]

    func testTheMigrationKeepsTheNewestSnapshotOfEachCurrencyAndChangesNoLedger() throws {
        let coins = try CoinGeckoBody.markets(try Repository.fixture("markets.json")).coins
        for location in try bothBackends() {
            let database = try DatabaseLocation.open(location)
            defer { database.close() }
            try database.prepareForUse()
            try Schema.migrate(database, upTo: 9)
            var ids: [String: Int] = [:]
            try database.transaction(.readCommitted) {
                // Snapshots as step 9 held them: one per owner and currency.
                for (name, owner, vs, fetchedAt, count) in [
                    ("alice-usd", "alice", "usd", 100.0, 12), ("bob-usd", "bob", "usd", 200.0, 3), ("alice-jpy", "alice", "jpy", 50.0, 2),
                ] {
                    let blob = SnapshotCodec.encode(Array(coins.prefix(count)))
                    ids[name] = try blob.withUnsafeBytes { raw in
                        try inserted(
                            database,
                            """
                            INSERT INTO snapshot (owner, vs_currency, as_of, fetched_at, refresh_failed, format, coins, global)
                            VALUES (?1, ?2, ?3, ?3, 0, 1, ?4, NULL)
                            """
                        ) {
                            $0.bind(1, owner)
                            $0.bind(2, vs)
                            $0.bind(3, fetchedAt)
                            $0.bind(4, borrowing: raw)
                        }
                    }
                    for position in 0..<2 {
                        let points = Array("[\(count),\(position)]".utf8)
                        let row = try database.statement(
                            "INSERT INTO snapshot_sparkline (owner, snapshot_id, position, points) VALUES (?1, ?2, ?3, ?4)")
                        try points.withUnsafeBytes { raw in
                            row.bind(1, owner)
                            row.bind(2, ids[name] ?? 0)
                            row.bind(3, position)
                            row.bind(4, borrowing: raw)
                            try row.run("sparkline")
                        }
                    }
                }
                for (owner, coin, fetchedAt, detail) in [
                    ("alice", "bitcoin", 10.0, "A"), ("bob", "bitcoin", 20.0, "B"), ("alice", "ethereum", 5.0, "E"),
                    ("carol", "ethereum", 5.0, "C"),
                ] {
                    let row = try database.statement("INSERT INTO coin_detail (owner, coin_id, fetched_at, detail) VALUES (?1, ?2, ?3, ?4)")
                    try Array(detail.utf8).withUnsafeBytes { raw in
                        row.bind(1, owner)
                        row.bind(2, coin)
                        row.bind(3, fetchedAt)
                        row.bind(4, borrowing: raw)
                        try row.run("detail")
                    }
                }
                try database.execute(
                    """
                    INSERT INTO portfolio (owner, name, vs_currency) VALUES ('alice', 'main', NULL), ('bob', 'main', NULL),
                        ('bob', 'cold', 'eur');
                    INSERT INTO ledger_transaction (owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note,
                        external_id, group_id, income_type, fee_coin_id, fee_price, price_source)
                    VALUES ('alice', 'main', 'bitcoin', 'buy', '0.5', '100', '1', 1704067200000, NULL, 'x-1', NULL, NULL, NULL,
                            NULL, 'user'),
                        ('bob', 'cold', 'ethereum', 'income', '0.01', NULL, '0', 1704153600000, 'staking', NULL, 'g1', 'staking',
                            NULL, NULL, 'pending'),
                        ('bob', 'main', 'bitcoin', 'buy', '2', '200', '0', 1704240000000, '', NULL, 'g2', NULL, 'binancecoin', '310',
                            'user'),
                        ('bob', 'main', 'binancecoin', 'fee', '0.01', '310', '0', 1704240000000, NULL, NULL, 'g2', NULL, NULL, NULL,
                            'user');
                    INSERT INTO ledger_change (owner, counter) VALUES ('alice', 1), ('bob', 3);
                    """)
            }
            let ledgerBefore = try Self.ledgerDump.map { try rows(database, $0.0, columns: $0.1) }
            try Schema.migrate(database)
            XCTAssertEqual(try database.schemaVersion(), Schema.currentVersion)
            XCTAssertEqual(try Self.ledgerDump.map { try rows(database, $0.0, columns: $0.1) }, ledgerBefore, "no ledger row changed")
            // The newest snapshot of each currency, with its own sparklines, and nothing else.
            let snapshots = try database.statement("SELECT id, vs_currency, version, fetched_at FROM snapshot ORDER BY vs_currency")
            var kept: [String] = []
            while try snapshots.next() {
                kept.append("\(snapshots.int(0)) \(snapshots.text(1) ?? "") v\(snapshots.int(2)) \(snapshots.double(3))")
            }
            snapshots.reset()
            XCTAssertEqual(kept, ["\(ids["alice-jpy"] ?? 0) jpy v1 50.0", "\(ids["bob-usd"] ?? 0) usd v1 200.0"], location)
            let sparklines = try database.statement(
                "SELECT snapshot_id, position, points FROM snapshot_sparkline ORDER BY snapshot_id, position")
            var points: [String] = []
            while try sparklines.next() {
                points.append("\(sparklines.int(0)):\(sparklines.int(1)) \(String(decoding: sparklines.blob(2) ?? Data(), as: UTF8.self))")
            }
            sparklines.reset()
            let (bob, jpy) = (ids["bob-usd"] ?? 0, ids["alice-jpy"] ?? 0)
            XCTAssertEqual(points, ["\(bob):0 [3,0]", "\(bob):1 [3,1]", "\(jpy):0 [2,0]", "\(jpy):1 [2,1]"].sorted(), location)
            XCTAssertEqual(
                try rows(database, "SELECT coin_id, detail FROM coin_detail ORDER BY coin_id", columns: 2),
                [["626974636f696e", "42"], ["657468657265756d", "45"]], "bitcoin: Bob's newer detail; ethereum: the tie to Alice")
            // The stores read the result: Bob's 3 coins for everyone.
            let store = try PortfolioStore(path: location, owner: "carol")
            XCTAssertEqual(try store.savedSnapshot(vsCurrency: "usd")?.stamp.id, bob)
            store.close()
        }
    }

    /// A `/coins/markets` body of `count` coins, each with bitcoin's 170-point sparkline.
    private func marketsBody(coins count: Int) throws -> Data {
        let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: try Repository.fixture("markets.json")) as? [[String: Any]])
        let bitcoin = try XCTUnwrap(fixture.first)
        let coins = (0..<count).map { index -> [String: Any] in
            var coin = bitcoin
            coin["id"] = "coin-\(index)"
            coin["symbol"] = "c\(index)"
            coin["name"] = "Coin \(index)"
            coin["market_cap_rank"] = index + 1
            coin["current_price"] = 1000.0 / Double(index + 1)
            return coin
        }
        return try JSONSerialization.data(withJSONObject: coins)
    }

    /// The database's size after compacting it: SQLite `VACUUM` (pages × page size), PostgreSQL
    /// `VACUUM FULL` (`pg_database_size`).
    private func compactedSize(_ location: String) throws -> Int {
        let database = try DatabaseLocation.open(location)
        defer { database.close() }
        if database.kind == .sqlite {
            try database.execute("VACUUM")
            return (try database.statement("PRAGMA page_count").scalarInt() ?? 0)
                * (try database.statement("PRAGMA page_size").scalarInt() ?? 0)
        }
        try database.execute("VACUUM FULL")
        return try database.statement("SELECT pg_database_size(current_database())").scalarInt() ?? 0
    }

    /// 50 owners of 20 holdings each share one snapshot of 250 coins: each owner after the first
    /// adds at most 5 % of what the snapshot takes (SPEC §22).
    func testFiftyOwnersShareOneSnapshot() throws {
        let body = try marketsBody(coins: 250)
        for location in try bothBackends() {
            func engine(_ owner: Int) throws -> PortfolioEngine {
                try PortfolioEngine(
                    configuration: EngineConfiguration(
                        database: location, owner: "owner-\(owner)",
                        api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
            }
            func addOwner(_ owner: Int) throws {
                let engine = try engine(owner)
                try engine.setHoldings((0..<20).map { Holding(coinID: "coin-\(($0 * 7 + owner) % 250)", amount: Double(owner + 1) / 8) })
                engine.close()
            }
            try addOwner(0)
            let withoutSnapshot = try compactedSize(location)
            let loader = try engine(0)
            try loader.load(marketsBody: body, globalBody: try Repository.fixture("global.json"))
            loader.close()
            let oneOwner = try compactedSize(location)
            let snapshot = oneOwner - withoutSnapshot
            for owner in 1..<50 { try addOwner(owner) }
            let fiftyOwners = try compactedSize(location)
            let perOwner = Double(fiftyOwners - oneOwner) / 49
            XCTAssertLessThanOrEqual(perOwner, 0.05 * Double(snapshot), "\(location): snapshot \(snapshot) B, \(perOwner) B per owner")
            XCTAssertGreaterThan(snapshot, 250 * 1300, "the snapshot holds 250 sparklines of 1.3 KB and more")
            XCTAssertEqual(try engine(49).portfolio().entries.compactMap(\.value).count, 20, "every owner's holdings priced")
        }
    }
}
