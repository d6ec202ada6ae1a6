import Foundation
import XCTest

@testable import Coinfolio

/// The snapshot flow's saved forms (issue 23 §4): market data and coin details saved in their own
/// compact form (`MarketDataCodec`, `CoinDetailCodec`), never rebuilt into a CoinGecko body and
/// decoded again on open; rows saved before (JSON) still open, from a database today's main wrote
/// and, on both backends, from rows written in the old form; a price update changes only the held
/// coins' records, keeping the saved snapshot's id and sparkline rows.
final class SavedFormsEngineTests: XCTestCase {
    private var server: TestServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func testServer() throws -> TestServer {
        let server = try self.server ?? TestServer()
        self.server = server
        return server
    }

    private func engine(
        _ database: String, owner: String = "default", baseURL: String = "http://127.0.0.1:9/api/v3", detailTTL: Double = 600
    ) throws -> PortfolioEngine {
        var configuration = EngineConfiguration(
            database: database, owner: owner, api: try ClientConfiguration(baseURL: baseURL, timeout: 5, maxRetries: 0))
        configuration.detailTTL = detailTTL
        return try PortfolioEngine(configuration: configuration)
    }

    /// The statistics an engine shows with `holdings` over the fixture bodies, computed afresh.
    private func expectedStatistics(_ holdings: [(String, Double)]) throws -> [Statistic] {
        let fresh = try engine(":memory:")
        try fresh.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        for (id, amount) in holdings { try fresh.setHolding(coinID: id, amount: amount) }
        return try fresh.statistics()
    }

    /// The fixture's bitcoin detail, as the decoder reads it.
    private func bitcoinDetail() throws -> CoinDetail {
        let bodies = try XCTUnwrap(JSONSerialization.jsonObject(with: try Repository.fixture("details.json")) as? [String: Any])
        var detail = try CoinGeckoBody.coinDetail(try JSONSerialization.data(withJSONObject: try XCTUnwrap(bodies["bitcoin"])))
        detail.warnings = []
        return detail
    }

    /// The first 4 bytes of `column` of the owner's row of `table`.
    /// The first 4 bytes of the one row's `column` of `table` (market data is shared: one row).
    private func savedForm(_ location: String, _ table: String, _ column: String) throws -> String {
        let connection = try DatabaseLocation.open(location)
        defer { connection.close() }
        let select = try connection.statement("SELECT \(column) FROM \(table)")
        defer { select.reset() }
        guard try select.next(), let bytes = select.blob(0) else { return "" }
        return String(decoding: bytes.prefix(4), as: UTF8.self)
    }

    // MARK: - One merge per refresh

    /// Pages shift while a refresh reads them (a coin's rank moves): a coin on two pages is one
    /// row, the later page's, in the earlier place (`MarketRows`, the one merge every row goes
    /// through once).
    func testARefreshMergesEveryPageOnceTheLaterRowWinning() throws {
        let server = try testServer()
        func row(_ id: String, _ price: Double) -> String { #"{"id":"\#(id)","symbol":"x","name":"X","current_price":\#(price)}"# }
        let first = (0..<250).map { row("coin-\($0)", Double($0)) }
        let second = [row("coin-0", 1000), row("coin-250", 250), #"{"id":"coin-0","symbol":"x","name":"X","current_price":2000}"#]
        try server.fault(["path": "/api/v3/coins/markets", "body": "[" + first.joined(separator: ",") + "]"])
        try server.fault(["path": "/api/v3/coins/markets", "body": "[" + second.joined(separator: ",") + "]"])
        var configuration = EngineConfiguration(database: ":memory:", coinLimit: 500)
        configuration.api = try server.configuration()
        let engine = try PortfolioEngine(configuration: configuration)
        XCTAssertEqual(try engine.refresh().coins, 251)
        let coins = try engine.coins(CoinQuery(sort: .rank)).coins
        XCTAssertEqual(coins.count, 251)
        XCTAssertEqual(coins.first { $0.id == "coin-0" }?.currentPrice, 2000, "the later row wins")
        XCTAssertEqual(try engine.portfolio().entries.count, 0)
        XCTAssertEqual(engine.metrics().httpRequests[.markets], 2, "a short second page ends the paging")
    }

    // MARK: - Rows saved before the compact forms

    func testADatabaseWrittenByMainOpensWithItsMarketDataAndDetail() throws {
        try XCTSkipIf(TestDatabase.isPostgres, "the fixture is a SQLite file")
        let path = try temporaryDirectory(self).appendingPathComponent("main.sqlite").path
        try FileManager.default.copyItem(
            atPath: Repository.root.appendingPathComponent("Tests/fixtures/store/schema-v6.sqlite").path, toPath: path)
        XCTAssertEqual(try savedForm(path, "snapshot", "global"), "{\"da", "the fixture holds /global JSON")
        XCTAssertEqual(try savedForm(path, "coin_detail", "detail"), "{\"id", "the fixture holds the detail's JSON")
        let opened = try engine(path)
        let version = try DatabaseLocation.open(path)
        XCTAssertEqual(
            try version.schemaVersion(), Schema.currentVersion, "schema step 8: an older Coinfolio refuses it rather than drop its snapshot"
        )
        version.close()
        XCTAssertEqual(try opened.statistics(), try expectedStatistics([("bitcoin", 0.5), ("ethereum", 2.25)]))
        XCTAssertEqual(try opened.savedCoinDetail(id: "bitcoin")?.detail, try bitcoinDetail())
        // The next save writes the compact forms, which open to the same answers.
        try opened.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        let server = try testServer()
        _ = try engine(path, baseURL: server.baseURL, detailTTL: 0.001).coinDetail(id: "bitcoin")  // past its TTL: fetched and saved again
        opened.close()
        XCTAssertEqual(try savedForm(path, "snapshot", "global"), "CFM1")
        XCTAssertEqual(try savedForm(path, "coin_detail", "detail"), "CFD1")
        let reopened = try engine(path)
        XCTAssertEqual(try reopened.statistics(), try expectedStatistics([("bitcoin", 0.5), ("ethereum", 2.25)]))
        XCTAssertEqual(try reopened.savedCoinDetail(id: "bitcoin")?.detail, try bitcoinDetail())
    }

    func testRowsInTheOldFormsOpenOnBothBackends() throws {
        let database = try TestDatabase.fresh(self)
        let first = try engine(database.location, owner: database.owner)
        try first.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        try first.setHolding(coinID: "bitcoin", amount: 0.5)
        try first.store.saveDetail(try bitcoinDetail(), fetchedAt: Date())
        first.close()
        XCTAssertEqual(try savedForm(database.location, "snapshot", "global"), "CFM1")
        XCTAssertEqual(try savedForm(database.location, "coin_detail", "detail"), "CFD1")
        // The same rows as main wrote them: /global JSON and the detail's JSON.
        let connection = try DatabaseLocation.open(database.location)
        var global = JSONWriter()
        global.beginObject(); global.key(CoinGeckoBody.GlobalKey.data); global.beginObject()
        try CoinGeckoBody.global(try Repository.fixture("global.json")).writeJSON(to: &global)
        global.endObject(); global.endObject()
        var detail = JSONWriter()
        detail.beginObject(); try bitcoinDetail().writeJSON(to: &detail); detail.endObject()
        for (sql, bytes) in [
            ("UPDATE snapshot SET global = ?1", global.bytes),
            ("UPDATE coin_detail SET detail = ?1", detail.bytes),
        ] {
            let update = try connection.statement(sql)
            try bytes.withUnsafeBytes { raw in
                update.bind(1, borrowing: raw)
                XCTAssertEqual(try update.run("old form"), 1)
            }
        }
        connection.close()
        let reopened = try engine(database.location, owner: database.owner)
        XCTAssertEqual(try reopened.statistics(), try expectedStatistics([("bitcoin", 0.5)]))
        XCTAssertEqual(try reopened.savedCoinDetail(id: "bitcoin")?.detail, try bitcoinDetail())
    }

    // MARK: - The compact forms

    func testTheCompactFormsKeepEveryValue() throws {
        var data = MarketData(
            totalMarketCap: ["usd": 2.58e12, "btc": 0.1 + 0.2, "sats": -0.0, "é": 5e-324], totalVolume: [:],
            marketCapPercentage: nil, marketCapChangePercentage24hUSD: -1.7976931348623157e308, activeCryptocurrencies: Int.max,
            markets: Int.min, updatedAt: 1_734_602_400)
        XCTAssertEqual(try MarketDataCodec.decode(Data(MarketDataCodec.encode(data))), data)
        XCTAssertEqual(try MarketDataCodec.decode(Data(MarketDataCodec.encode(MarketData()))), MarketData())
        data.totalMarketCap = ["usd": .nan]
        XCTAssertTrue(try MarketDataCodec.decode(Data(MarketDataCodec.encode(data))).totalMarketCap?["usd"]?.isNaN ?? false)
        var detail = CoinDetail(id: "pokémon-token", symbol: "", name: "Pokémon \"Token\"\u{0}")
        detail.blockTimeInMinutes = 0.1
        detail.description = String(repeating: "Ελληνικά 日本語 ", count: 4000)
        detail.categories = ["", "Layer 1 (L1)", "🚀"]
        XCTAssertEqual(try CoinDetailCodec.decode(Data(CoinDetailCodec.encode(detail))), detail)
        XCTAssertEqual(try CoinDetailCodec.decode(Data(CoinDetailCodec.encode(try bitcoinDetail()))), try bitcoinDetail())
    }

    func testADamagedCompactFormIsRefusedNeverTrapped() throws {
        let global = MarketDataCodec.encode(try CoinGeckoBody.global(try Repository.fixture("global.json")))
        let detail = CoinDetailCodec.encode(try bitcoinDetail())
        for (bytes, decode) in [
            (global, { (data: Data) throws -> Void in _ = try MarketDataCodec.decode(data) }),
            (detail, { (data: Data) throws -> Void in _ = try CoinDetailCodec.decode(data) }),
        ] {
            for length in stride(from: 4, to: bytes.count, by: max(1, bytes.count / 300)) {
                XCTAssertThrowsError(try decode(Data(bytes.prefix(length))), "\(length)") { error in
                    XCTAssertEqual((error as? CoinfolioError)?.code, .store)
                }
            }
            XCTAssertThrowsError(try decode(Data(bytes + [0])), "a byte past the record")
            var huge = bytes
            for index in 12..<min(16, huge.count) { huge[index] = 0xFF }  // a count of 4 billion
            XCTAssertThrowsError(try decode(Data(huge)))
        }
    }

    // MARK: - A price update changes only the held coins

    /// The saved snapshot's id, coins blob and sparkline rows (position → bytes).
    private func savedSnapshot(_ database: TestDatabase) throws -> (id: Int, coins: Data, sparklines: [Int: Data]) {
        let connection = try DatabaseLocation.open(database.location)
        defer { connection.close() }
        let select = try connection.statement("SELECT id, coins FROM snapshot")
        guard try select.next() else { throw CoinfolioError(.notFound, "no saved snapshot") }
        let id = select.int(0)
        let coins = select.blob(1) ?? Data()
        select.reset()
        let rows = try connection.statement("SELECT position, points FROM snapshot_sparkline WHERE snapshot_id = ?1")
        rows.bind(1, id)
        var sparklines: [Int: Data] = [:]
        while try rows.next() { sparklines[rows.int(0)] = rows.blob(1) ?? Data() }
        return (id, coins, sparklines)
    }

    /// Each record's bytes of a saved coins blob, by coin id.
    private func records(_ blob: Data) throws -> [String: Data] {
        try blob.withUnsafeBytes { raw in
            let skimmed = try SnapshotCodec.skim(raw)
            var result: [String: Data] = [:]
            for (position, id) in skimmed.ids.enumerated() {
                let end = position + 1 < skimmed.offsets.count ? skimmed.offsets[position + 1] : raw.count
                result[id] = Data(raw[skimmed.offsets[position]..<end])
            }
            return result
        }
    }

    func testAPriceUpdateChangesOnlyTheHeldCoinsOnBothBackends() throws {
        let database = try TestDatabase.fresh(self)
        let server = try testServer()
        for reopen in [false, true] {
            let loader = try engine(database.location, owner: database.owner, baseURL: server.baseURL)
            try loader.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
            for id in ["bitcoin", "ethereum", "tether"] { try loader.setHolding(coinID: id, amount: 1) }
            // A snapshot installed by this engine, or one it restored from the database.
            let engine = reopen ? try engine(database.location, owner: database.owner, baseURL: server.baseURL) : loader
            let before = try savedSnapshot(database)
            let sparklinesBefore = try engine.coins(CoinQuery(sparkline: true)).coins.map(\.sparklineIn7d)
            XCTAssertEqual(try engine.refreshPrices().coins, 2, "bitcoin and ethereum are priced; tether's answer is {}")
            let after = try savedSnapshot(database)
            XCTAssertEqual(after.id, before.id, "the saved snapshot is updated in place")
            XCTAssertEqual(after.sparklines, before.sparklines, "its sparkline rows stay as they were")
            let (old, new) = (try records(before.coins), try records(after.coins))
            XCTAssertEqual(Set(old.keys), Set(new.keys))
            for (id, record) in old {
                if id == "bitcoin" || id == "ethereum" {
                    XCTAssertNotEqual(new[id], record, id)
                } else {
                    XCTAssertEqual(new[id], record, "\(id)'s record is copied, not encoded again")
                }
            }
            for answer in [engine, try self.engine(database.location, owner: database.owner)] {
                let coins = try answer.coins(CoinQuery(sparkline: true)).coins
                let byID = Dictionary(uniqueKeysWithValues: coins.map { ($0.id, $0) })
                XCTAssertEqual(byID["bitcoin"]?.currentPrice, 58000.5)
                XCTAssertEqual(byID["bitcoin"]?.lastUpdated, "2024-12-19T10:00:00Z")
                XCTAssertEqual(byID["ethereum"]?.currentPrice, 3900.25)
                XCTAssertEqual(byID["tether"]?.currentPrice, 1.0002)
                XCTAssertEqual(byID["dogecoin"]?.currentPrice, 0.1623)
                XCTAssertEqual(coins.map(\.sparklineIn7d), sparklinesBefore, "every sparkline still reads")
                XCTAssertEqual(try answer.statistics(), try engine.statistics())
            }
            XCTAssertEqual(try engine.coins(CoinQuery(sort: .price)).coins.first?.id, "bitcoin", "the price order is made again")
        }
    }

    func testAPriceUpdateAfterAnotherEngineReplacedTheSnapshotSavesItWhole() throws {
        let database = try TestDatabase.fresh(self)
        let server = try testServer()
        let first = try engine(database.location, owner: database.owner, baseURL: server.baseURL)
        try first.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try first.setHolding(coinID: "bitcoin", amount: 1)
        let other = try engine(database.location, owner: database.owner)
        try other.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        let replaced = try savedSnapshot(database).id
        XCTAssertEqual(try first.refreshPrices().coins, 1)
        XCTAssertNotEqual(try savedSnapshot(database).id, replaced, "saved anew")
        let reopened = try engine(database.location, owner: database.owner)
        XCTAssertEqual(try reopened.coins().coins.first { $0.id == "bitcoin" }?.currentPrice, 58000.5)
    }
}
