import XCTest

@testable import Coinfolio

/// A CoinGecko point the ledger cannot hold gives no ledger price (stop 58's breaker, F7: a
/// point of 1e-20 was written into a pending row as price 0, a free coin with coverage 1).
final class PriceSeriesRangeTests: XCTestCase {
    private let time: Int64 = 1_794_268_800_000  // 2026-11-10T00:00:00Z

    private func price(_ value: Double) -> String? {
        PriceSeries(points: [PricePoint(time: time, price: value)]).price(at: time + 3_600_000)?.price.description
    }

    func testAPriceThatWouldRoundToZeroIsNone() {
        // 18 fraction digits, half-to-even: 5e-19 → 0, 5.1e-19 → 1e-18.
        XCTAssertNil(price(1e-20))
        XCTAssertNil(price(4.9e-19))
        XCTAssertNil(price(5e-19))
        XCTAssertEqual(price(5.1e-19), "0.000000000000000001")
        XCTAssertEqual(price(1e-18), "0.000000000000000001")
        XCTAssertEqual(price(0), "0")  // a point of 0 is a price of 0
        XCTAssertNil(price(9e19))  // beyond the ledger's range, as before
        // The point is there: a fill asks for it no second time.
        XCTAssertTrue(PriceSeries(points: [PricePoint(time: time, price: 1e-20)]).hasPoint(at: time + 1))
        XCTAssertFalse(PriceSeries(points: [PricePoint(time: time, price: 1e-20)]).hasPoint(at: time + 86_400_000))
    }

    func testAPriceOfNoLedgerDigitsIsNoLedgerPrice() throws {
        let snapshot = HistoricalPrice(
            coinID: "tiny", vsCurrency: "usd", time: time, marketPrice: 1e-20, at: time, source: .coingecko)
        XCTAssertEqual(try XCTUnwrap(snapshot).price, 1e-20)  // price_at answers the double
        XCTAssertNil(snapshot?.ledgerPrice)
        let normal = HistoricalPrice(coinID: "x", vsCurrency: "usd", time: time, marketPrice: 2.5, at: time, source: .snapshot)
        XCTAssertEqual(normal?.ledgerPrice?.price.description, "2.5")
    }
}
