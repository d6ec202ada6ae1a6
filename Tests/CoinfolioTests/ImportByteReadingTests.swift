import XCTest

@testable import Coinfolio

/// The byte-level readings of the Coinbase importer give what the Character-level ones they
/// replaced give: a Convert's Notes split into words, and a money cell's currency sign checked.
final class ImportByteReadingTests: XCTestCase {
    func testNotesWordsAreTheCharacterSplit() {
        let notes = [
            "", " ", "   ", "Converted 0.5 BTC to 10 ETH", "  Converted  0.5 BTC to  10 ETH  ", "Converted 1,000.5 USDC to 0.01 BTC",
            "Bought 1 BTC", "a", " a", "a ", "\t Converted 1 A to 2 B", "Converted 1 A to 2 B\r\n", "x\r\n y",
            "Converted 0.5 BTC to 10 ÉTH", "Converted 0.5 BTC to 10 E\u{301}TH", "a \u{301}b c", "über alles", "日本 語",
            String(repeating: "word ", count: 40),
        ]
        for note in notes {
            XCTAssertEqual(CoinbaseImporter.words(note), note.split(separator: " ", omittingEmptySubsequences: true), note)
        }
    }

    func testSignCheckWithTheRowsOwnSignIsTheSame() {
        let cells = [
            "", "-", "$", "-$", "$1.00", "-$1.00", "$-1.00", "1.00", "-1.00", "€1.00", "-€1.00", "£2", "¥3", "CA$3", "-CA$3",
            "US$1", "A$1", "R$1", "XY$1", "ABCD$1", "EUR", "abc", "€", "₹1", "\u{301}1", "-\u{301}1",
        ]
        let currencies = [
            "USD", "EUR", "GBP", "JPY", "CNY", "CAD", "AUD", "BRL", "INR", "XYZ", "", "usd", "\u{212A}RW", "KRW", "ILS", "€", "EURO",
        ]
        for currency in currencies {
            XCTAssertEqual(CurrencySign.hasOwnSign(currency), CurrencySign.ownSign.contains(currency), currency)
            for cell in cells {
                let plain = CurrencySign.contradiction(cell, currency: currency)
                let told = CurrencySign.contradiction(cell, currency: currency, ownSign: CurrencySign.hasOwnSign(currency))
                XCTAssertEqual(plain, told, "\(cell) \(currency)")
            }
        }
        XCTAssertNil(CurrencySign.contradiction("$1.00", currency: "USD"))
        XCTAssertNotNil(CurrencySign.contradiction("$1.00", currency: "EUR"))
        XCTAssertNotNil(CurrencySign.contradiction("-€1.00", currency: "USD"))
        XCTAssertNil(CurrencySign.contradiction("-1.00", currency: "EUR"))
    }
}
