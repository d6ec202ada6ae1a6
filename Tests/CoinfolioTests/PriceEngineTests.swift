import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §17 through the engine: `price_at`'s lookup order and reasons. The loopback server
/// builds ranges from Tests/fixtures/coingecko/price_history.json: ethereum is 110 + 1 usd per
/// hour of the day (UTC), hourly points at hh:02:00. Runs on SQLite and, in the PostgreSQL pass,
/// on a database of its own per test (price points are shared by every owner of a database).
final class PriceEngineTests: PriceServerTestCase {
    func testTheLookupOrderFetchThenAtOrBeforeThenAfterThenManual() throws {
        let engine = try engine()
        defer { engine.close() }
        let d = dayStart(10)
        // Nothing stored: one request for the day, then its 12:02 point.
        let fetched = try engine.priceAt(PriceQuery(coinID: "ethereum", time: d + 12 * hour + 30 * minute))
        XCTAssertEqual(fetched.price, 122)
        XCTAssertEqual(fetched.at, d + 12 * hour + 2 * minute)
        XCTAssertEqual(fetched.source, .coingecko)
        XCTAssertEqual(try rangeRequests(), 1)
        let query = try XCTUnwrap(server?.log().last?["query"] as? [String: String])
        XCTAssertEqual(query["from"], String(d / 1000))
        XCTAssertEqual(query["to"], String((d + 86_400_000) / 1000))
        // The stored day answers without a request: the point at or before 15:00 (15:02 is after it) …
        let before = try engine.priceAt(PriceQuery(coinID: "ethereum", time: d + 15 * hour))
        XCTAssertEqual(before.price, 124)
        XCTAssertEqual(before.at, d + 14 * hour + 2 * minute)
        // … and at 00:01, with no point since midnight, the first after it that day.
        let after = try engine.priceAt(PriceQuery(coinID: "ethereum", time: d + minute))
        XCTAssertEqual(after.price, 110)
        XCTAssertEqual(after.at, d + 2 * minute)
        XCTAssertEqual(try rangeRequests(), 1)
        // A manual point of the day wins over every stored point; one of another day does not.
        try engine.setPrice(PriceSetting(coinID: "ethereum", time: d + 10 * hour, price: ExactDecimal("99.125")))
        try engine.setPrice(PriceSetting(coinID: "ethereum", time: d - hour, price: 1))
        let manual = try engine.priceAt(PriceQuery(coinID: "ethereum", time: d + 12 * hour + 30 * minute))
        XCTAssertEqual(manual.exactPrice, ExactDecimal("99.125"))
        XCTAssertEqual(manual.at, d + 10 * hour)
        XCTAssertEqual(manual.source, .manual)
        XCTAssertEqual(manual.json.contains(#""price":99.125,"#), true, manual.json)
        XCTAssertEqual(try engine.priceAt(PriceQuery(coinID: "ethereum", time: d + 5 * hour)).source, .manual)  // after, same day
        XCTAssertEqual(try engine.priceAt(PriceQuery(coinID: "ethereum", time: d - 2 * hour)).exactPrice, 1)
        // In another currency the manual usd points do not count: a request for eur.
        let eur = try engine.priceAt(PriceQuery(coinID: "ethereum", time: d + 12 * hour + 30 * minute, vsCurrency: VsCurrency("eur")))
        XCTAssertEqual(eur.price, 112)
        XCTAssertEqual(try rangeRequests(), 2)
    }

    func testTheSnapshotAnswersWithinAnHourOfItsLastUpdated() throws {
        let engine = try engine()
        defer { engine.close() }
        let updated = dayStart(3) + 6 * hour
        let body =
            #"[{"id":"ethereum","symbol":"eth","name":"Ethereum","current_price":3000.5,"last_updated":"\#(LedgerTimestamp.format(updated))"}]"#
        try engine.load(marketsBody: Data(body.utf8), globalBody: nil)
        let snapshot = try engine.priceAt(PriceQuery(coinID: "ethereum", time: updated + 59 * minute))
        XCTAssertEqual(snapshot.price, 3000.5)
        XCTAssertEqual(snapshot.at, updated)
        XCTAssertEqual(snapshot.source, .snapshot)
        XCTAssertEqual(try engine.priceAt(PriceQuery(coinID: "ethereum", time: updated - hour)).source, .snapshot)
        XCTAssertEqual(try rangeRequests(), 0)
        // An hour and a minute later the snapshot is too far: the day is fetched (06:02 is at or before 07:01).
        let fetched = try engine.priceAt(PriceQuery(coinID: "ethereum", time: updated + hour + minute))
        XCTAssertEqual(fetched.price, 116)
        XCTAssertEqual(fetched.source, .coingecko)
        XCTAssertEqual(try rangeRequests(), 1)
    }

    func testEachNoDataReason() throws {
        let engine = try engine()
        defer { engine.close() }
        func reason(_ query: PriceQuery) -> CoinfolioError.Detail? {
            assertThrows(.noData) { try engine.priceAt(query) }?.details["reason"]
        }
        // Older than the plan's 365 days: refused without a request.
        XCTAssertEqual(reason(try PriceQuery(coinID: "ethereum", time: dayStart(400))), .string("history_limit"))
        // A time after now: no point yet, no request.
        XCTAssertEqual(reason(try PriceQuery(coinID: "ethereum", time: PortfolioEngine.nowMilliseconds() + 2 * hour)), .string("no_point"))
        XCTAssertEqual(try rangeRequests(), 0)
        // A coin CoinGecko does not know: 404.
        let unknown = assertThrows(.noData) { try engine.priceAt(PriceQuery(coinID: "no-such-coin", time: self.dayStart(5))) }
        XCTAssertEqual(unknown?.details["reason"], .string("unknown_coin"))
        XCTAssertEqual(unknown?.details["coin_id"], .string("no-such-coin"))
        // A known coin with no point that day.
        XCTAssertEqual(reason(try PriceQuery(coinID: "boringdao-[old]", time: dayStart(5))), .string("no_point"))
        // CoinGecko's own 10012 answer (its clock, not ours, decided).
        try server?.fault([
            "path": "/api/v3/coins/ethereum/market_chart/range", "status": 401,
            "body": #"{"error":{"status":{"error_code":10012,"error_message":"time range"}}}"#,
        ])
        XCTAssertEqual(reason(try PriceQuery(coinID: "ethereum", time: dayStart(5))), .string("history_limit"))
        XCTAssertEqual(try rangeRequests(), 3)
        // On the pro plan the old day is asked for.
        let pro = try self.engine(plan: .pro)
        defer { pro.close() }
        XCTAssertEqual(try pro.priceAt(PriceQuery(coinID: "ethereum", time: dayStart(400) + 30 * minute)).price, 110)
        // A network failure is its own status.
        try server?.fault(["path": "/api/v3/coins/tether/market_chart/range", "status": 500, "body": "{}"])
        assertThrows(.http) { try engine.priceAt(PriceQuery(coinID: "tether", time: self.dayStart(6))) }
    }

    func testWithoutFetchingOnlyWhatIsStoredAnswers() throws {
        let engine = try engine()
        defer { engine.close() }
        let query = try PriceQuery(coinID: "ethereum", time: dayStart(8) + 12 * hour + 30 * minute)
        let error = assertThrows(.noData) { try engine.priceAt(query, fetch: false) }
        XCTAssertEqual(error?.details["reason"], .string("no_point"))
        XCTAssertTrue(error?.message.contains("nothing was asked of CoinGecko") ?? false, error?.message ?? "")
        XCTAssertEqual(try rangeRequests(), 0)
        XCTAssertEqual(try engine.priceAt(query).price, 122)
        XCTAssertEqual(try engine.priceAt(query, fetch: false).price, 122)
        XCTAssertEqual(try rangeRequests(), 1)
    }

    func testBadInputIsRefusedAndChangesNothing() throws {
        let engine = try engine()
        defer { engine.close() }
        let when = LedgerTimestamp.format(dayStart(4))
        for bad in [
            #"{"coin_id":"ethereum","timestamp":"1969-12-31T23:59:59Z"}"#, #"{"coin_id":"ethereum","timestamp":"10000-01-01"}"#,
            #"{"coin_id":"ethereum","timestamp":"0001-01-01"}"#, #"{"coin_id":"ethereum","timestamp":1700000000}"#,
            #"{"coin_id":"ethereum","timestamp":"\#(when)","vs_currency":"xyz"}"#,
            #"{"coin_id":"ethereum","timestamp":"\#(when)","vs_currency":"u$d"}"#, #"{"coin_id":"a/b","timestamp":"\#(when)"}"#,
            #"{"coin_id":"","timestamp":"\#(when)"}"#, #"{"timestamp":"\#(when)"}"#, #"{"coin_id":"ethereum"}"#, "{", "[]", "",
        ] {
            let error = assertThrows(.invalidArgument) { try engine.priceAt(json: bad) }
            XCTAssertNotNil(error?.message, bad)
        }
        XCTAssertEqual(
            assertThrows(.invalidArgument) {
                try engine.priceAt(json: #"{"coin_id":"ethereum","timestamp":"\#(when)","vs_currency":"xyz"}"#)
            }?
            .details["reason"], .string("unknown_currency"))
        XCTAssertEqual(
            assertThrows(.invalidArgument) { try engine.priceAt(json: #"{"coin_id":"a/b","timestamp":"\#(when)"}"#) }?.details["field"],
            .string("coin_id"))
        XCTAssertEqual(try rangeRequests(), 0)
    }

    /// set_price refuses a negative, non-finite or too precise price, a time outside 1970…9999,
    /// an unknown vs_currency and a coin id with a slash, naming the field; the manual point
    /// already stored (1.5) stays, and nothing is asked of CoinGecko.
    func testBadManualPricesAreRefusedAndChangeNothing() throws {
        let engine = try engine()
        defer { engine.close() }
        let d = dayStart(4)
        let when = LedgerTimestamp.format(d)
        try engine.setPrice(json: #"{"coin_id":"tether","timestamp":"\#(when)","price":1.5}"#)
        for (bad, field) in [
            (#"{"coin_id":"tether","timestamp":"\#(when)","price":-1}"#, "price"),
            (#"{"coin_id":"tether","timestamp":"\#(when)","price":"NaN"}"#, "price"),
            (#"{"coin_id":"tether","timestamp":"\#(when)","price":"Infinity"}"#, "price"),
            (#"{"coin_id":"tether","timestamp":"\#(when)","price":"1e400"}"#, "price"),
            (#"{"coin_id":"tether","timestamp":"\#(when)","price":"0.0000000000000000001"}"#, "price"),
            (#"{"coin_id":"tether","timestamp":"1969-12-31","price":1}"#, "timestamp"),
            (#"{"coin_id":"tether","timestamp":"10000-01-01","price":1}"#, "timestamp"),
            (#"{"coin_id":"tether","timestamp":"\#(when)","price":1,"vs_currency":"xyz"}"#, "vs_currency"),
            (#"{"coin_id":"a/b","timestamp":"\#(when)","price":1}"#, "coin_id"),
        ] {
            let error = assertThrows(.invalidArgument) { try engine.setPrice(json: bad) }
            XCTAssertEqual(error?.details["field"], .string(field), bad)
        }
        // A JSON number beyond a double's range is refused before any field is read (as everywhere).
        _ = assertThrows(.invalidArgument) { try engine.setPrice(json: #"{"coin_id":"tether","timestamp":"\#(when)","price":1e400}"#) }
        _ = assertThrows(.invalidArgument) { try PriceSetting(coinID: "tether", time: d, price: ExactDecimal("-1")) }
        let kept = try engine.priceAt(PriceQuery(coinID: "tether", time: d), fetch: false)
        XCTAssertEqual(kept.exactPrice, ExactDecimal("1.5"))
        XCTAssertEqual(kept.source, .manual)
        XCTAssertEqual(try rangeRequests(), 0)
    }

    /// A token CoinGecko does not list, valued with a manual current price: 100 units at 0.5 are
    /// worth 50; with bitcoin (0.5 at 57,000.123 from markets.json, +2.15 % in 24 h) the total is
    /// 28,550.0615, and the 24 h change covers bitcoin's 28,500.0615 of it only.
    func testAManualCurrentPriceValuesACoinTheSnapshotLacks() throws {
        let database = try database()
        let engine = try engine(database)
        defer { engine.close() }
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: try Repository.fixture("global.json"))
        try engine.setHolding(coinID: "my-token", amount: 100)
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        XCTAssertNil(try engine.portfolio().entries.first { $0.coinID == "my-token" }?.value)
        try engine.setPrice(PriceSetting(coinID: "my-token", time: nil, price: ExactDecimal("0.5")))
        let portfolio = try engine.portfolio()
        let token = try XCTUnwrap(portfolio.entries.first { $0.coinID == "my-token" })
        XCTAssertEqual(token.value, 50)
        XCTAssertEqual(token.priceSource, "manual")
        XCTAssertEqual(portfolio.entries.first { $0.coinID == "bitcoin" }?.priceSource, "coingecko")
        XCTAssertEqual(portfolio.totalValue, 28_550.0615)
        XCTAssertEqual(portfolio.unpricedHoldings, 0)
        let json = portfolio.json
        XCTAssertTrue(json.contains(#""id":"my-token","symbol":null,"name":null,"image":null,"current_price":0.5,"#), json)
        XCTAssertTrue(json.contains(#""current_holdings":100,"current_holdings_value":50,"price_source":"manual""#), json)
        let value = try XCTUnwrap(try engine.statistics().first { $0.title == "Portfolio Value" })
        XCTAssertEqual(value.value, "$28,550.06")
        XCTAssertEqual(try XCTUnwrap(value.coverage), 28_500.0615 / 28_550.0615, accuracy: 1e-12)
        // Another owner of the database holds nothing priced by it.
        let other = try PortfolioEngine(
            configuration: EngineConfiguration(database: database.location, owner: database.owner + "-other", api: engine.configuration.api)
        )
        defer { other.close() }
        try other.setHolding(coinID: "my-token", amount: 1)
        XCTAssertNil(try other.portfolio().entries.first?.value)
        // Removed: unpriced again.
        try engine.setPrice(PriceSetting(coinID: "my-token", time: nil, price: nil))
        XCTAssertNil(try engine.portfolio().entries.first { $0.coinID == "my-token" }?.value)
        XCTAssertEqual(try engine.portfolio().unpricedHoldings, 1)
    }

    /// P&L values a coin the snapshot lacks with the manual current price in the portfolio's
    /// currency: 100 my-token bought at 0.4 are worth 50 at 0.5, unrealized 10.
    func testPnLUsesAManualCurrentPriceWithItsSource() throws {
        let engine = try engine()
        defer { engine.close() }
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        try engine.addTransaction(
            Transaction(coinID: "my-token", kind: .buy, amount: 100, price: ExactDecimal("0.4"), timestamp: dayStart(2)))
        try engine.addTransaction(Transaction(coinID: "bitcoin", kind: .buy, amount: 1, price: 50_000, timestamp: dayStart(2)))
        XCTAssertNil(try engine.pnl().coins.first { $0.coinID == "my-token" }?.currentPrice)
        try engine.setPrice(PriceSetting(coinID: "my-token", time: nil, price: ExactDecimal("0.5")))
        let report = try engine.pnl()
        let token = try XCTUnwrap(report.coins.first { $0.coinID == "my-token" })
        XCTAssertEqual(token.currentPrice, PreciseDecimal(ExactDecimal("0.5") ?? 0))
        XCTAssertEqual(token.priceSource, .manual)
        XCTAssertEqual(token.currentValue, PreciseDecimal(50))
        XCTAssertEqual(token.unrealizedPnL, PreciseDecimal(10))
        XCTAssertEqual(report.coins.first { $0.coinID == "bitcoin" }?.priceSource, .coingecko)
        XCTAssertTrue(report.json.contains(#""current_price":0.5,"price_source":"manual","current_value":50,"#), report.json)
        let unrealized = try XCTUnwrap(try engine.statistics().first { $0.title == "Unrealized P&L" })
        XCTAssertEqual(unrealized.value, "$7,010.12")  // bitcoin 57,000.123 − 50,000 = 7,000.123, + 10
    }
}
