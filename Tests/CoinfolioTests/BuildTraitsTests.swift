import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §21's package traits: what a build with only SQLite (`PostgreSQL` and `SimdJSON` off,
/// `make test-sqlite-only`) does where the default build uses libpq or simdjson, asserted in both
/// builds where both must agree.
final class BuildTraitsTests: XCTestCase {
    /// A sparkline kept as JSON text reads the same through simdjson and through the strict Swift
    /// reader: numbers, null as NaN, a string wholly a number as that number, anything else NaN
    /// and reported.
    func testSparklineTextReadsTheSameInEitherBuild() throws {
        let sparkline = try XCTUnwrap(Sparkline(json: Array(#"[1.5, null, "2", true, -3e2]"#.utf8)))
        let prices = sparkline.prices
        XCTAssertEqual(prices.count, 5)
        XCTAssertEqual(prices[0], 1.5)
        XCTAssertTrue(prices[1].isNaN)
        XCTAssertEqual(prices[2], 2)
        XCTAssertTrue(prices[3].isNaN)
        XCTAssertEqual(prices[4], -300)
        let text = try XCTUnwrap(sparkline.storage.text)
        XCTAssertEqual(text.problems(offset: 0, length: text.count), [3])
        XCTAssertNil(Sparkline(json: Array("[1,".utf8)))
        XCTAssertNil(Sparkline(json: Array(#"{"a":1}"#.utf8)))
    }

    /// The markets decoder of either build gives the fixture's twelve coins.
    func testMarketsDecodeInEitherBuild() throws {
        let page = try CoinGeckoBody.markets(Repository.fixture("markets.json"))
        XCTAssertEqual(page.coins.count, 12)
        XCTAssertEqual(page.coins.first?.id, "bitcoin")
        XCTAssertEqual(page.coins.first?.sparklineIn7d?.count, 170)
    }

    #if !PostgreSQL
        /// Without the PostgreSQL trait a `postgresql://` URL is refused, naming the reason and never
        /// the password; nothing is opened.
        func testAPostgresURLIsRefusedWithoutThePostgreSQLTrait() {
            for url in ["postgresql://user:s3cretpass@127.0.0.1:5432/coinfolio", "postgres://localhost/db"] {
                let store = assertThrows(.invalidArgument) { try PortfolioStore(path: url) }
                XCTAssertEqual(store?.reason, .postgresDisabled)
                XCTAssertFalse(store?.message.contains("s3cretpass") ?? true)
                let engine = assertThrows(.invalidArgument) { try PortfolioEngine(configuration: EngineConfiguration(database: url)) }
                XCTAssertEqual(engine?.reason, .postgresDisabled)
            }
        }
    #endif
}
