import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §10 "Money in every quote currency": one table, values and prices per currency.
final class CurrencyTests: XCTestCase {
    private func vs(_ code: String) throws -> VsCurrency { try VsCurrency(code) }

    func testYenValuesHaveNoMinorUnit() throws {
        XCTAssertEqual(NumberFormat.value(123400, vsCurrency: try vs("jpy")), "¥123,400")
        XCTAssertEqual(NumberFormat.value(148064.07, vsCurrency: try vs("jpy")), "¥148,064")
        XCTAssertEqual(NumberFormat.value(148064.5, vsCurrency: try vs("jpy")), "¥148,064")  // half to even
        XCTAssertEqual(NumberFormat.value(-148064.7, vsCurrency: try vs("jpy")), "-¥148,065")
        XCTAssertEqual(NumberFormat.value(0, vsCurrency: try vs("jpy")), "¥0")
    }

    func testOtherZeroDigitCurrencies() throws {
        XCTAssertEqual(NumberFormat.value(1234567.89, vsCurrency: try vs("krw")), "KRW 1,234,568")
        XCTAssertEqual(NumberFormat.value(25000.4, vsCurrency: try vs("vnd")), "VND 25,000")
        XCTAssertEqual(NumberFormat.value(950.5, vsCurrency: try vs("clp")), "CLP 950")
        XCTAssertEqual(NumberFormat.value(140.6, vsCurrency: try vs("isk")), "ISK 141")
        XCTAssertEqual(NumberFormat.value(12345, vsCurrency: try vs("sats")), "SATS 12,345")
        XCTAssertEqual(NumberFormat.price(12345, vsCurrency: try vs("sats")), "SATS 12,345")
    }

    func testThreeDigitCurrencies() throws {
        XCTAssertEqual(NumberFormat.value(1.2346, vsCurrency: try vs("kwd")), "KWD 1.235")
        XCTAssertEqual(NumberFormat.value(1.5, vsCurrency: try vs("bhd")), "BHD 1.500")
        XCTAssertEqual(NumberFormat.value(1234.5, vsCurrency: try vs("bhd")), "BHD 1,234.500")
        XCTAssertEqual(NumberFormat.price(1.2346, vsCurrency: try vs("kwd")), "KWD 1.235")
        XCTAssertEqual(NumberFormat.price(0.00012345, vsCurrency: try vs("kwd")), "KWD 0.0001234")  // half to even
    }

    func testTwoDigitCurrenciesKeepTheirRules() throws {
        XCTAssertEqual(NumberFormat.value(1234.5), "$1,234.50")
        XCTAssertEqual(NumberFormat.value(-0.004), "$0.00")
        XCTAssertEqual(NumberFormat.value(1234.567, vsCurrency: try vs("eur")), "€1,234.57")
        XCTAssertEqual(NumberFormat.value(1234.567, vsCurrency: try vs("chf")), "CHF 1,234.57")
        XCTAssertEqual(NumberFormat.value(1.5, vsCurrency: try vs("bits")), "BITS 1.50")
        XCTAssertEqual(NumberFormat.price(1.5, vsCurrency: try vs("bits")), "BITS 1.50")
        // §3's price examples are unchanged.
        XCTAssertEqual(NumberFormat.price(57000.123), "$57,000.123")
        XCTAssertEqual(NumberFormat.price(8.12e-06), "$0.00000812")
        XCTAssertEqual(NumberFormat.price(2.096e-09), "$0.000000002096")
        XCTAssertEqual(NumberFormat.price(0.000123456), "$0.0001235")
        XCTAssertEqual(NumberFormat.price(1.5), "$1.50")
    }

    func testYenPricesStartFromZeroDigitsAndShowFourSignificant() throws {
        XCTAssertEqual(NumberFormat.price(32.034, vsCurrency: try vs("jpy")), "¥32.03")
        XCTAssertEqual(NumberFormat.price(14_800_000, vsCurrency: try vs("jpy")), "¥14,800,000")
        XCTAssertEqual(NumberFormat.price(14_800_000.4, vsCurrency: try vs("jpy")), "¥14,800,000")
        XCTAssertEqual(NumberFormat.price(1234.5, vsCurrency: try vs("jpy")), "¥1,234")  // half to even
        XCTAssertEqual(NumberFormat.price(0.5, vsCurrency: try vs("jpy")), "¥0.5")
        XCTAssertEqual(NumberFormat.price(0.000123456, vsCurrency: try vs("jpy")), "¥0.0001235")
        XCTAssertEqual(NumberFormat.price(0, vsCurrency: try vs("jpy")), "¥0")
    }

    func testCryptoValuesAndPricesUseTwoToEightDigits() throws {
        let btc = try vs("btc")
        XCTAssertEqual(NumberFormat.value(2.5e-05, vsCurrency: btc), "₿0.000025")
        XCTAssertEqual(NumberFormat.value(0.5, vsCurrency: btc), "₿0.50")
        XCTAssertEqual(NumberFormat.value(1.23456789, vsCurrency: btc), "₿1.23456789")
        XCTAssertEqual(NumberFormat.value(3.3e-10, vsCurrency: btc), "₿0.00000000033")
        XCTAssertEqual(NumberFormat.value(0, vsCurrency: btc), "₿0.00")
        XCTAssertEqual(NumberFormat.value(1234.5, vsCurrency: btc), "₿1,234.50")
        XCTAssertEqual(NumberFormat.value(1.234567891, vsCurrency: btc), "₿1.23456789")
        XCTAssertEqual(NumberFormat.value(-2.5e-05, vsCurrency: btc), "-₿0.000025")
        XCTAssertEqual(NumberFormat.price(2.5e-05, vsCurrency: btc), "₿0.000025")
        XCTAssertEqual(NumberFormat.price(0.5, vsCurrency: btc), "₿0.50")
        XCTAssertEqual(NumberFormat.price(1.23456789, vsCurrency: btc), "₿1.23456789")
        XCTAssertEqual(NumberFormat.price(3.3e-10, vsCurrency: btc), "₿0.00000000033")
        XCTAssertEqual(NumberFormat.value(1.5, vsCurrency: try vs("eth")), "Ξ1.50")
        XCTAssertEqual(NumberFormat.value(0.000012345678, vsCurrency: try vs("ltc")), "LTC 0.00001235")
        XCTAssertEqual(NumberFormat.value(2.5e-05, vsCurrency: try vs("xau")), "XAU 0.000025")
        XCTAssertEqual(NumberFormat.price(0.12345678, vsCurrency: try vs("xag")), "XAG 0.12345678")
    }

    func testNoCryptoValueThatIsNotZeroPrintsAsZero() throws {
        let btc = try vs("btc")
        for value in [1e-9, 2.5e-8, 4.9e-9, 1e-12, 1.5e-300, 5e-324] {
            for text in [NumberFormat.value(value, vsCurrency: btc), NumberFormat.price(value, vsCurrency: btc)] {
                XCTAssertNotEqual(text, "₿0.00", "\(value)")
                XCTAssertTrue(text.contains { ("1"..."9").contains($0) }, "\(value) → \(text)")
            }
        }
    }

    func testNonFiniteValuesAreNotAvailable() throws {
        for code in ["usd", "jpy", "kwd", "btc", "xau"] {
            XCTAssertEqual(NumberFormat.value(.nan, vsCurrency: try vs(code)), "n/a")
            XCTAssertEqual(NumberFormat.value(.infinity, vsCurrency: try vs(code)), "n/a")
            XCTAssertEqual(NumberFormat.price(-.infinity, vsCurrency: try vs(code)), "n/a")
        }
    }

    func testCurrencyKeepsHonouringTheDigitsItIsGiven() throws {
        XCTAssertEqual(NumberFormat.currency(1234.56, vsCurrency: try vs("jpy")), "¥1,234.56")
        XCTAssertEqual(NumberFormat.currency(2.5e-05, vsCurrency: try vs("btc")), "₿0.00")
        XCTAssertEqual(
            NumberFormat.currency(1.2346, minimumFractionDigits: 0, maximumFractionDigits: 0, vsCurrency: try vs("kwd")), "KWD 1")
    }

    func testTheTableListsTheSpecCurrencies() throws {
        for code in ["btc", "eth", "ltc", "bch", "bnb", "eos", "xrp", "xlm", "link", "dot", "yfi", "sol"] {
            XCTAssertEqual(try vs(code).kind, .crypto, code)
        }
        for code in ["xau", "xag"] { XCTAssertEqual(try vs(code).kind, .metal, code) }
        for code in ["jpy", "krw", "vnd", "clp", "isk", "sats"] { XCTAssertEqual(try vs(code).kind, .fiat(minorUnit: 0), code) }
        for code in ["bhd", "kwd"] { XCTAssertEqual(try vs(code).kind, .fiat(minorUnit: 3), code) }
        for code in ["usd", "eur", "gbp", "chf", "bits", "xdr", "zzz"] { XCTAssertEqual(try vs(code).kind, .fiat(minorUnit: 2), code) }
        XCTAssertEqual(try vs("JPY").prefix, "¥")
        XCTAssertEqual(try vs("kwd").prefix, "KWD ")
        XCTAssertEqual(Set(CurrencyTable.entries.map(\.code)).count, CurrencyTable.entries.count, "one row per code")
    }
}
