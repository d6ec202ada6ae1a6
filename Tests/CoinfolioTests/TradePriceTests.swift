import XCTest

@testable import Coinfolio

/// Prices found by division (SPEC §16: a trade's legs, an imported row's worth ÷ amount) are the
/// exact quotient rounded once, half to even, to 18 fraction digits. Every expected value was
/// worked with Python's `decimal` module at 300 digits, then `quantize(Decimal("1e-18"),
/// ROUND_HALF_EVEN)`.
final class TradePriceTests: XCTestCase {
    private func e(_ text: String) -> ExactDecimal { ExactDecimal(text) ?? .zero }

    /// value ÷ amount: carried to 38 digits first, 85e18 ÷ 77.5002496893769665 was rounded twice
    /// (…382|5 then half to even) and stored 1 unit low; the exact quotient is
    /// 1096770659974415946.46533544965127338254734…, so …383.
    func testAValueDividedByAnAmountIsRoundedOnceFromTheExactQuotient() throws {
        XCTAssertEqual(
            try Trade.price(e("85000000000000000000"), by: e("77.5002496893769665")), e("1096770659974415946.465335449651273383"))
        XCTAssertEqual(try Trade.price(e("85000000000000000000"), by: e("33.33")), e("2550255025502550255.025502550255025503"))
        // Exact halves go to the even unit.
        XCTAssertEqual(try Trade.price(e("0.000000000000000001"), by: e("2")), e("0"))
        XCTAssertEqual(try Trade.price(e("0.000000000000000003"), by: e("2")), e("0.000000000000000002"))
        XCTAssertEqual(try Trade.price(e("30000"), by: e("10")), e("3000"))
    }

    /// price × amount ÷ other (a leg priced from the other leg's stored price): the product is
    /// never rounded on its own.
    func testAPriceTimesAnAmountDividedByAnotherIsRoundedOnce() throws {
        XCTAssertEqual(
            try Trade.price(e("3000.123456789012345678"), times: e("0.123456789012345678"), by: e("0.333333333333333333")),
            e("1111.156825847370819621"))
        XCTAssertEqual(
            try Trade.price(e("12345678901234567890.123456789012345678"), times: e("0.000000000000000003"), by: e("0.000000000000000007")),
            e("5291005243386243381.481481481005291005"))
        XCTAssertEqual(
            try Trade.price(e("84999999999999999999"), times: e("7"), by: e("7.000000000000000001")),
            e("84999999999999999986.857142857142857145"))
        XCTAssertEqual(try Trade.price(e("60000"), times: e("0.5"), by: e("10")), e("3000"))
    }

    /// A quotient past the ledger's 8.5e19 is refused with reason out_of_range on field value.
    func testAPriceBeyondTheLedgerIsRefused() {
        XCTAssertThrowsError(try Trade.price(e("84999999999999999999"), by: e("0.5"))) { error in
            XCTAssertEqual((error as? CoinfolioError)?.details[.field], .string("value"))
            XCTAssertEqual((error as? CoinfolioError)?.reason, .outOfRange)
        }
        XCTAssertThrowsError(
            try Trade.price(e("84999999999999999999"), times: e("84999999999999999999"), by: e("0.000000000000000001")))
        XCTAssertThrowsError(try Trade.price(e("1"), by: e("0")))
    }

    /// A price given in another currency (SPEC §17): value × p_portfolio ÷ p_given in one step.
    func testAPriceInAnotherCurrencyIsConvertedInOneRounding() {
        XCTAssertEqual(
            PriceConversion.convert(
                e("12345.123456789012345678"), portfolioPrice: e("0.987654321098765432"), givenPrice: e("1.234567890123456789")),
            e("9876.098855427160694497"))
        XCTAssertEqual(PriceConversion.convert(e("30000"), portfolioPrice: e("0.92"), givenPrice: e("1")), e("27600"))
        XCTAssertEqual(PriceConversion.convert(e("100"), portfolioPrice: e("1.1"), givenPrice: e("0.3")), e("366.666666666666666667"))
        XCTAssertNil(PriceConversion.convert(e("100"), portfolioPrice: e("1.1"), givenPrice: e("0")))
    }
}
