import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §10 in the engine: money per currency, the 24 h change with unknown changes, numbers as
/// strings reaching the portfolio, empty answers, Unicode search, holding ids.
final class EdgeEngineTests: XCTestCase {
    private var server: TestServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func offlineEngine(vs: String = "usd", database: TestDatabase? = nil) throws -> PortfolioEngine {
        let database = try database ?? TestDatabase.fresh(self)
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner, vsCurrency: try VsCurrency(vs),
                api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
    }

    private func serverEngine(database: TestDatabase? = nil, coinLimit: Int = 250) throws -> PortfolioEngine {
        let server = try self.server ?? TestServer()
        self.server = server
        let database = try database ?? TestDatabase.fresh(self)
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner, coinLimit: coinLimit,
                api: try ClientConfiguration(baseURL: server.baseURL, timeout: 5, maxRetries: 0)))
    }

    private func load(_ engine: PortfolioEngine, _ rows: String...) throws {
        try engine.load(marketsBody: Data("[\(rows.joined(separator: ","))]".utf8), globalBody: nil)
    }

    private func portfolioValue(_ engine: PortfolioEngine) throws -> Statistic {
        let statistics = try engine.statistics()
        XCTAssertEqual(statistics.count, 6)
        return try XCTUnwrap(statistics.first { $0.title == "Portfolio Value" })
    }

    // MARK: - Money in every currency

    func testYenPortfolioValueHasNoMinorUnit() throws {
        let engine = try offlineEngine(vs: "jpy")
        try load(engine, #"{"id":"coin-a","symbol":"a","name":"A","current_price":148064.07}"#)
        try engine.setHolding(coinID: "coin-a", amount: 1)
        XCTAssertEqual(try portfolioValue(engine).value, "¥148,064")
    }

    func testBitcoinQuotedPortfolioNeverPrintsZero() throws {
        let engine = try offlineEngine(vs: "btc")
        try load(engine, #"{"id":"tiny","symbol":"t","name":"Tiny","current_price":2.5e-08}"#)
        try engine.setHolding(coinID: "tiny", amount: 1000)
        XCTAssertEqual(try XCTUnwrap(engine.portfolio().totalValue), 2.5e-05, accuracy: 1e-18)
        XCTAssertEqual(try portfolioValue(engine).value, "₿0.000025")
    }

    func testDetailListsUseTheCurrencysPriceRules() throws {
        let engine = try offlineEngine(vs: "jpy")
        let coin = try XCTUnwrap(
            CoinGeckoBody.markets(
                Data(
                    #"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":14800000,"high_24h":32.034,"market_cap_change_24h":512.4}]"#
                        .utf8)
            ).coins.first)
        let lists = engine.detailStatistics(coin: coin, detail: CoinDetail(id: "bitcoin", symbol: "btc", name: "Bitcoin"))
        XCTAssertEqual(lists.overview[0].value, "¥14,800,000")
        XCTAssertEqual(lists.additional[0].value, "¥32.03")
        XCTAssertEqual(lists.additional[3].value, "¥512", "an amount below 1,000 is a value, not \"¥512.40\"")
    }

    // MARK: - Portfolio 24 h change

    func testUnknownChangeIsLeftOutNotCountedAsZero() throws {
        let engine = try offlineEngine()
        try load(
            engine, #"{"id":"coin-a","symbol":"a","name":"A","current_price":1,"price_change_percentage_24h":null}"#,
            #"{"id":"coin-b","symbol":"b","name":"B","current_price":1,"price_change_percentage_24h":-50}"#)
        try engine.setHolding(coinID: "coin-a", amount: 1)
        try engine.setHolding(coinID: "coin-b", amount: 1)
        let value = try portfolioValue(engine)
        XCTAssertEqual(value.value, "$2.00")
        XCTAssertEqual(try XCTUnwrap(value.percentageChange), -50, accuracy: 1e-9)
        XCTAssertEqual(value.coverage, 0.5)
        XCTAssertEqual(NumberFormat.percent(try XCTUnwrap(value.percentageChange)), "-50.00%")
        XCTAssertTrue(try engine.statistics().json.contains(#""value":"$2.00","percentage_change":-50,"coverage":0.5}"#))
        let change = try engine.portfolioChange()
        XCTAssertEqual(change, PortfolioChange(percentage: -50, coverage: 0.5, coinsWithChange: 1, pricedCoins: 2))
        XCTAssertTrue(change.isPartial)
    }

    func testACoinAtZeroAfterMinusHundredPercentUsesPriceChange() throws {
        let engine = try offlineEngine()
        try load(
            engine,
            #"{"id":"gone","symbol":"g","name":"Gone","current_price":0,"price_change_24h":-2,"price_change_percentage_24h":-100}"#)
        try engine.setHolding(coinID: "gone", amount: 1)
        let value = try portfolioValue(engine)
        XCTAssertEqual(value.value, "$0.00")
        XCTAssertEqual(value.percentageChange, -100)
        XCTAssertEqual(value.coverage, 1)
        XCTAssertFalse(try engine.statistics().json.contains("NaN"))

        try load(
            engine,
            #"{"id":"gone","symbol":"g","name":"Gone","current_price":0,"price_change_24h":-2,"price_change_percentage_24h":-100}"#,
            #"{"id":"fine","symbol":"f","name":"Fine","current_price":2,"price_change_24h":0}"#)
        try engine.setHolding(coinID: "fine", amount: 1)
        // Before: 1 × (0 − −2) + 1 × (2 − 0) = 4; now 2: −50 %.
        XCTAssertEqual(try portfolioValue(engine).percentageChange, -50)
        XCTAssertEqual(try portfolioValue(engine).coverage, 1)
    }

    func testPriceChangeIsPreferredOverThePercentage() throws {
        let engine = try offlineEngine()
        try load(
            engine, #"{"id":"coin-a","symbol":"a","name":"A","current_price":10,"price_change_24h":2,"price_change_percentage_24h":50}"#)
        try engine.setHolding(coinID: "coin-a", amount: 3)
        // Before: 3 × (10 − 2) = 24; now 30: +25 %.
        XCTAssertEqual(try XCTUnwrap(try portfolioValue(engine).percentageChange), 25, accuracy: 1e-9)
    }

    func testTheSpecExampleStillHolds() throws {
        let engine = try offlineEngine()
        try load(
            engine, #"{"id":"coin-a","symbol":"a","name":"A","current_price":50,"price_change_percentage_24h":-50}"#,
            #"{"id":"coin-b","symbol":"b","name":"B","current_price":110,"price_change_percentage_24h":10}"#)
        try engine.setHolding(coinID: "coin-a", amount: 1)
        try engine.setHolding(coinID: "coin-b", amount: 1)
        let value = try portfolioValue(engine)
        XCTAssertEqual(value.value, "$160.00")
        XCTAssertEqual(try XCTUnwrap(value.percentageChange), -20, accuracy: 1e-9)
        XCTAssertEqual(value.coverage, 1)
        XCTAssertFalse(try engine.portfolioChange().isPartial)
    }

    func testNoKnownChangeGivesNullWithCoverageZero() throws {
        let engine = try offlineEngine()
        try load(engine, #"{"id":"coin-a","symbol":"a","name":"A","current_price":1,"price_change_percentage_24h":-100}"#)
        XCTAssertEqual(try portfolioValue(engine).coverage, 0, "no holdings")
        XCTAssertNil(try portfolioValue(engine).percentageChange)
        try engine.setHolding(coinID: "coin-a", amount: 1)
        XCTAssertEqual(try portfolioValue(engine).coverage, 0, "−100 % without price_change_24h is unknown")
        XCTAssertNil(try portfolioValue(engine).percentageChange)
        XCTAssertEqual(try engine.statistics()[0].coverage, nil, "only Portfolio Value has coverage")
        XCTAssertTrue(try engine.statistics().json.contains(#"{"title":"Market Cap","value":"n/a","percentage_change":null},"#))
    }

    // MARK: - Numbers as strings reach the portfolio

    func testAPriceSentAsAStringIsPricedAndCounted() throws {
        let engine = try offlineEngine()
        try load(engine, #"{"id":"coin-a","symbol":"a","name":"A","current_price":"0.0421"}"#)
        try engine.setHolding(coinID: "coin-a", amount: 100)
        let portfolio = try engine.portfolio()
        XCTAssertEqual(portfolio.entries.first?.isPriceAvailable, true)
        XCTAssertEqual(try XCTUnwrap(portfolio.totalValue), 4.21, accuracy: 1e-12)
    }

    // MARK: - Empty answers never replace data

    func testLoadOfABodyWithNoCoinReplacesNothing() throws {
        let engine = try offlineEngine()
        try load(engine, #"{"id":"coin-a","symbol":"a","name":"A","current_price":1}"#)
        for body in ["[]", "[null,null]", #"[{"id":1}]"#, #"[{"symbol":"a","name":"A"}]"#] {
            let error = assertThrows(.invalidArgument) { try engine.load(marketsBody: Data(body.utf8), globalBody: nil) }
            XCTAssertEqual(error?.details["reason"], .string("no_coins"), body)
            XCTAssertEqual(error?.details["input"], .string("markets_body"), body)
            XCTAssertEqual(try engine.coins().coins.map(\.id), ["coin-a"], body)
        }
    }

    func testRefreshWithAnEmptyFirstPageFailsAndKeepsTheSnapshot() throws {
        let database = try TestDatabase.fresh(self, name: "edges.sqlite")
        let engine = try serverEngine(database: database)
        try XCTUnwrap(self.server).live()  // answers stamped now, so the good snapshot is not stale
        let first = try engine.refresh()
        XCTAssertEqual(first.coins, 12)
        let server = try XCTUnwrap(self.server)
        for body in ["[]", "[null,null]", #"[{"id":1}]"#] {
            try server.fault(["path": "/api/v3/coins/markets", "body": body])
            let error = assertThrows(.decode) { try engine.refresh() }
            XCTAssertEqual(error?.message, "CoinGecko returned no coins")
            XCTAssertEqual(error?.details["reason"], .string("no_coins"))
            let listing = try engine.coins()
            XCTAssertEqual(listing.total, 12, body)
            XCTAssertFalse(listing.isStale, "stale as it was: \(body)")
            XCTAssertEqual(listing.asOf, first.asOf)
        }
        engine.close()
        // The saved snapshot is the good one too.
        let reopened = try serverEngine(database: database)
        XCTAssertEqual(try reopened.coins().total, 12)
        XCTAssertEqual(try reopened.statistics().count, 6)
    }

    func testAnEmptyLaterPageEndsThePaging() throws {
        let engine = try serverEngine(coinLimit: 500)
        let rows = (1...250).map { #"{"id":"coin-\#($0)","symbol":"c","name":"Coin \#($0)","current_price":1,"market_cap_rank":\#($0)}"# }
        try XCTUnwrap(server).route(["path": "/api/v3/coins/markets", "body": "[\(rows.joined(separator: ","))]"])
        XCTAssertEqual(try engine.refresh().coins, 250)
        XCTAssertEqual(try XCTUnwrap(server).requests(to: "/api/v3/coins/markets").count, 2)
    }

    // MARK: - Search

    func testSearchIsNormalizedCaseFoldedAndDiacriticInsensitive() throws {
        let engine = try offlineEngine()
        try load(
            engine, #"{"id":"pokemon-token","symbol":"pkmn","name":"Pok\u00e9mon Token"}"#,
            #"{"id":"decomposed","symbol":"dcmp","name":"Caf\u0065\u0301 Coin"}"#,
            #"{"id":"strasse-coin","symbol":"str","name":"Stra\u00dfe"}"#,
            #"{"id":"bitcoin","symbol":"btc","name":"Bitcoin"}"#)
        func ids(_ search: String) throws -> [String] { try engine.coins(CoinQuery(search: search)).coins.map(\.id) }
        for query in ["pokemon", "POKÉMON", "poke\u{301}mon", "Pok\u{E9}mon", "pokémon token", "ＰＯＫＥＭＯＮ"] {
            XCTAssertEqual(try ids(query), ["pokemon-token"], query)
        }
        for query in ["café", "cafe\u{301}", "CAFE", "Café"] {
            XCTAssertEqual(try ids(query), ["decomposed"], query)
        }
        for query in ["strasse", "STRASSE", "straße", "Straße"] {
            XCTAssertEqual(try ids(query), ["strasse-coin"], query)
        }
        XCTAssertEqual(try ids("ＢＴＣ"), ["bitcoin"], "full-width letters are NFKC-equal")
        XCTAssertEqual(try ids("xyz"), [])
    }

    // MARK: - Holding ids

    func testHoldingIDsWithUpperCaseOrSpacesAreRefusedWithASuggestion() throws {
        let engine = try offlineEngine()
        for (id, suggestion) in [
            ("Bitcoin", "bitcoin"), (" bitcoin", "bitcoin"), ("bitcoin ", "bitcoin"), (" Bitcoin ", "bitcoin"),
            ("BITCOIN", "bitcoin"), ("1Move Token", "1move token"), ("\u{A0}ethereum", "ethereum"), ("Ünï", "ünï"),
        ] {
            let error = assertThrows(.invalidArgument) { try engine.setHolding(coinID: id, amount: 1) }
            XCTAssertEqual(error?.details["suggestion"], .string(suggestion), id)
            assertThrows(.invalidArgument) { try engine.store.setHolding(coinID: id, amount: 1) }
        }
        XCTAssertEqual(try engine.store.holdings(), [])
        XCTAssertEqual(try engine.portfolio().entries.count, 0)
        let removal = assertThrows(.invalidArgument) { try engine.setHolding(coinID: "Bitcoin", amount: 0) }
        XCTAssertEqual(removal?.details["suggestion"], .string("bitcoin"))
        try engine.setHolding(coinID: "1move token", amount: 1)  // inner spaces are real
        XCTAssertEqual(try engine.store.holdings().map(\.coinID), ["1move token"])
    }

    func testAHoldingAnOlderVersionStoredUnderSuchAnIDCanStillBeRemoved() throws {
        try XCTSkipIf(TestDatabase.isPostgres, "builds a SQLite file of an older schema (holdings with owners, before the ledger)")
        let folder = try temporaryDirectory(self)
        let path = folder.appendingPathComponent("legacy.sqlite").path
        // A schema-2 file (holdings with owners) with such a row; opening it moves the row into the ledger.
        let connection = try SQLiteConnection(path: path)
        try connection.execute(Schema.steps[0].sqlite)
        try connection.execute(Schema.steps[1].sqlite)
        try connection.execute("PRAGMA user_version = 2")
        try connection.execute("INSERT INTO holding (owner, coin_id, amount) VALUES ('default', 'Bitcoin', 1)")
        connection.close()
        let store = try PortfolioStore(path: path)
        XCTAssertEqual(try store.holdings().map(\.coinID), ["Bitcoin"])
        assertThrows(.invalidArgument) { try store.setHolding(coinID: "Bitcoin", amount: 2) }
        try store.setHolding(coinID: "Bitcoin", amount: 0)
        XCTAssertEqual(try store.holdings(), [])
    }
}
