import XCTest

@testable import Coinfolio

/// SPEC §3: every example of the table, on Linux exactly as on macOS.
final class FormattingTests: XCTestCase {
    func testCurrencyTwoDecimalsGroupsAndSigns() {
        XCTAssertEqual(NumberFormat.currency(1234.56), "$1,234.56")
        XCTAssertEqual(NumberFormat.currency(-1234.5), "-$1,234.50")
        XCTAssertEqual(NumberFormat.currency(0), "$0.00")
        XCTAssertEqual(NumberFormat.currency(1_234_567_890.125), "$1,234,567,890.12")
    }

    func testCurrencyTwoToSixDecimals() {
        XCTAssertEqual(NumberFormat.currency(12.3456, maximumFractionDigits: 6), "$12.3456")
        XCTAssertEqual(NumberFormat.currency(0.123456, maximumFractionDigits: 6), "$0.123456")
        XCTAssertEqual(NumberFormat.currency(1.5, maximumFractionDigits: 6), "$1.50")
    }

    func testCurrencySymbolsComeFromVsCurrency() throws {
        XCTAssertEqual(NumberFormat.currency(1234.56, vsCurrency: try VsCurrency("EUR")), "€1,234.56")
        XCTAssertEqual(NumberFormat.currency(1234.56, vsCurrency: try VsCurrency("gbp")), "£1,234.56")
        XCTAssertEqual(NumberFormat.currency(1234.56, vsCurrency: try VsCurrency("jpy")), "¥1,234.56")
        XCTAssertEqual(NumberFormat.currency(1.5, vsCurrency: try VsCurrency("btc")), "₿1.50")
        XCTAssertEqual(NumberFormat.currency(1.5, vsCurrency: try VsCurrency("eth")), "Ξ1.50")
        XCTAssertEqual(NumberFormat.currency(1234.56, vsCurrency: try VsCurrency("chf")), "CHF 1,234.56")
        XCTAssertEqual(NumberFormat.currency(-1234.56, vsCurrency: try VsCurrency("chf")), "-CHF 1,234.56")
        assertThrows(.invalidArgument) { try VsCurrency("u$d") }
        assertThrows(.invalidArgument) { try VsCurrency("") }
    }

    func testPriceShowsFourSignificantDigitsWithoutExponent() {
        XCTAssertEqual(NumberFormat.price(57000.123), "$57,000.123")
        XCTAssertEqual(NumberFormat.price(8.12e-06), "$0.00000812")
        XCTAssertEqual(NumberFormat.price(2.096e-09), "$0.000000002096")
        XCTAssertEqual(NumberFormat.price(0.000123456), "$0.0001235")
        XCTAssertEqual(NumberFormat.price(1.186e-09), "$0.000000001186")
        XCTAssertEqual(NumberFormat.price(1.5), "$1.50")
        XCTAssertEqual(NumberFormat.price(0), "$0.00")
    }

    func testNumberAndPercent() {
        XCTAssertEqual(NumberFormat.number(1.2345), "1.23")
        XCTAssertEqual(NumberFormat.number(1234567.891), "1234567.89")
        XCTAssertEqual(NumberFormat.percent(1.2345), "1.23%")
        XCTAssertEqual(NumberFormat.percent(-0.001), "0.00%")
    }

    func testRoundingIsHalfToEvenOnTheDecimalForm() {
        XCTAssertEqual(NumberFormat.number(0.125), "0.12")
        XCTAssertEqual(NumberFormat.number(0.135), "0.14")
        XCTAssertEqual(NumberFormat.number(1.015), "1.02")
        XCTAssertEqual(NumberFormat.number(2.5e-3), "0.00")
        XCTAssertEqual(NumberFormat.currency(0.005), "$0.00")
        XCTAssertEqual(NumberFormat.currency(0.015), "$0.02")
        XCTAssertEqual(NumberFormat.currency(999.995), "$1,000.00")
    }

    func testNegativeZeroPrintsAsZero() {
        XCTAssertEqual(NumberFormat.number(-0.0), "0.00")
        XCTAssertEqual(NumberFormat.currency(-0.004), "$0.00")
        XCTAssertEqual(NumberFormat.abbreviated(-0.001), "0.00")
    }

    func testAbbreviatedUnitsAndTheBoundaryFix() {
        XCTAssertEqual(NumberFormat.abbreviated(1234), "1.23K")
        XCTAssertEqual(NumberFormat.abbreviated(123456), "123.46K")
        XCTAssertEqual(NumberFormat.abbreviated(1234567890), "1.23Bn")
        XCTAssertEqual(NumberFormat.abbreviated(-1234), "-1.23K")
        XCTAssertEqual(NumberFormat.abbreviated(12), "12.00")
        XCTAssertEqual(NumberFormat.abbreviated(999999), "1.00M")
        XCTAssertEqual(NumberFormat.abbreviated(999.999), "1.00K")
        XCTAssertEqual(NumberFormat.abbreviated(2.58e12), "2.58Tr")
        XCTAssertEqual(NumberFormat.abbreviated(3.42e11, prefix: "$"), "$342.00Bn")
        XCTAssertEqual(NumberFormat.abbreviated(-1.2e9, prefix: "$"), "-$1.20Bn")
        XCTAssertEqual(NumberFormat.abbreviated(1.5e15), "1500.00Tr")
    }

    func testNonFiniteValuesPrintNotAvailable() {
        for value in [Double.nan, .infinity, -.infinity] {
            XCTAssertEqual(NumberFormat.currency(value), "n/a")
            XCTAssertEqual(NumberFormat.price(value), "n/a")
            XCTAssertEqual(NumberFormat.number(value), "n/a")
            XCTAssertEqual(NumberFormat.percent(value), "n/a")
            XCTAssertEqual(NumberFormat.abbreviated(value), "n/a")
        }
    }
}
