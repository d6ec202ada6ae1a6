import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §18's detection, lenient number and time forms, external ids and symbol resolution —
/// the pure parts of `Import/`, without a database.
final class ImportFormatTests: XCTestCase {
    private func d(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

    /// What the header of `csv` is detected as.
    private func detect(_ csv: String, format: ImportFormat? = nil) throws -> ImportDetection.Found {
        let bytes = Array(csv.utf8)
        return try bytes.withUnsafeBytes { buffer in
            var reader = CSVReader(bytes: buffer)
            return try ImportDetection.detect(&reader, format: format)
        }
    }

    private func header(_ csv: String, format: ImportFormat? = nil) throws -> ImportHeader {
        guard case .exchange(let header) = try detect(csv, format: format) else {
            throw CoinfolioError(.internalError, "coinfolio detected")
        }
        return header
    }

    // MARK: detection

    func testEveryVariantIsDetectedFromItsHeader() throws {
        let headers: [(String, ImportFormat, String)] = [
            (
                "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes",
                .coinbase, "v4"
            ),
            (
                "Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes",
                .coinbase, "v3"
            ),
            (
                "Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees),Fees,Notes",
                .coinbase, "v2"
            ),
            (
                "Timestamp,Transaction Type,Asset,Quantity Transacted,EUR Spot Price at Transaction,EUR Subtotal,EUR Total (inclusive of fees),EUR Fees,Notes",
                .coinbase, "v1"
            ),
            ("Date(UTC),Pair,Side,Price,Executed,Amount,Fee", .binance, "trade_history"),
            ("Date(UTC),Market,Type,Price,Amount,Total,Fee,Fee Coin", .binance, "trade_history_old"),
            ("User_ID,UTC_Time,Account,Operation,Coin,Change,Remark", .binance, "statement"),
            (#""txid","refid","time","type","subtype","aclass","asset","amount","fee","balance""#, .kraken, "ledgers"),
            (#""txid","refid","time","type","subtype","aclass","asset","wallet","amount","fee","balance""#, .kraken, "ledgers_wallet"),
            (#""Type","Buy","Cur.","Sell","Cur.","Fee","Cur.","Exchange","Group","Comment","Date""#, .cointracking, "default"),
            (
                "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash",
                .koinly, "universal"
            ),
        ]
        for (line, format, variant) in headers {
            let found = try header(line + "\n")
            XCTAssertEqual(found.variant.format, format, line)
            XCTAssertEqual(found.variant.name, variant, line)
            XCTAssertEqual(found.unreadColumns, [], line)
            // Asked for by name, the same.
            XCTAssertEqual(try header(line + "\n", format: format).variant.name, variant, line)
        }
        // Every variant of the list above, and no other.
        XCTAssertEqual(ImportDetection.variants.count, headers.count)
    }

    func testCoinfolioHeadersAreTheLedgerFormat() throws {
        guard case .coinfolio = try detect("timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n") else {
            return XCTFail("not coinfolio")
        }
        guard case .coinfolio = try detect("kind,coin_id,amount,timestamp,fee_coin_id\n") else { return XCTFail("not coinfolio") }
    }

    /// Newer columns (Coinbase's addresses, Kraken's subclass and amountusd) are the same variant;
    /// an unknown extra column is read as the variant with a warning about that column.
    func testNewerColumnsAreTheSameVariant() throws {
        let coinbase = try header(
            "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes,Sender Address,Recipient Address\n"
        )
        XCTAssertEqual(coinbase.variant.name, "v4")
        XCTAssertEqual(coinbase.unreadColumns, [])
        let kraken = try header(
            #""txid","refid","time","type","subtype","aclass","subclass","asset","wallet","amount","fee","balance","amountusd""# + "\n")
        XCTAssertEqual(kraken.variant.name, "ledgers_wallet")
        XCTAssertEqual(kraken.unreadColumns, [])
        XCTAssertEqual(
            try header(#""txid","refid","time","type","subtype","aclass","asset","amount","fee","balance","amountusd""# + "\n").variant
                .name, "ledgers")
        let extra = try header("Date(UTC),Pair,Side,Price,Executed,Amount,Fee,Fee Rebate\n")
        XCTAssertEqual(extra.variant.name, "trade_history")
        XCTAssertEqual(extra.unreadColumns, ["Fee Rebate"])
    }

    func testDateColumnStatesItsOffset() throws {
        XCTAssertEqual(try header("Date(UTC+8),Pair,Side,Price,Executed,Amount,Fee\n").utcOffsetMilliseconds, 8 * 3_600_000)
        XCTAssertEqual(try header("Date(UTC-5),Pair,Side,Price,Executed,Amount,Fee\n").utcOffsetMilliseconds, -5 * 3_600_000)
        XCTAssertEqual(try header("Date(UTC+05:30),Market,Type,Price,Amount,Total,Fee,Fee Coin\n").utcOffsetMilliseconds, 19_800_000)
        XCTAssertEqual(try header("Date(UTC),Pair,Side,Price,Executed,Amount,Fee\n").utcOffsetMilliseconds, 0)
        for bad in ["Date(UTC+15)", "Date(UTC8)", "Date(UTC+8:61)", "Date(GMT+8)"] {
            XCTAssertThrowsError(try header("\(bad),Pair,Side,Price,Executed,Amount,Fee\n"), bad)
        }
    }

    /// Coinbase v1–v4 find their header after preamble lines; the header's line counts them.
    func testPreambleLinesBeforeTheHeader() throws {
        let csv =
            "\"A report, written for a test.\"\n\nTransactions\nUser,someone,1\n\n"
            + "Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees),Fees,Notes\n"
        let found = try header(csv)
        XCTAssertEqual(found.variant.name, "v2")
        XCTAssertEqual(found.line, 6)
        // v4's files start with `Transactions` and `User,…` lines too (a line of commas before them).
        let v4 = try header(
            ",,,,,,,,,,\nTransactions\nUser,someone,1\n"
                + "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,"
                + "Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n")
        XCTAssertEqual(v4.variant.name, "v4")
        XCTAssertEqual(v4.line, 4)
        // A format without a preamble must start with its header.
        let error = assertThrows(.invalidArgument) { try header("Report\nDate(UTC),Pair,Side,Price,Executed,Amount,Fee\n") }
        XCTAssertEqual(error?.reason, .unknownFormat)
    }

    /// An unknown header: CF_INVALID_ARGUMENT, reason unknown_format, the header's cells and
    /// every format's name.
    func testUnknownHeaderListsItsCellsAndTheFormats() {
        let error = assertThrows(.invalidArgument) { try detect("Date,Coin,Amount\n2024-01-01,BTC,1\n") }
        XCTAssertEqual(error?.reason, .unknownFormat)
        XCTAssertEqual(error?.details["header"], .array([.string("Date"), .string("Coin"), .string("Amount")]))
        XCTAssertEqual(
            error?.details["formats"],
            .array(["coinfolio", "coinbase", "binance", "kraken", "cointracking", "koinly"].map { .string($0) }))
        // A known header of another format than the one asked for.
        let asked = assertThrows(.invalidArgument) { try detect("Date(UTC),Pair,Side,Price,Executed,Amount,Fee\n", format: .kraken) }
        XCTAssertEqual(asked?.reason, .unknownFormat)
        XCTAssertEqual(
            asked?.details["header"], .array(["Date(UTC)", "Pair", "Side", "Price", "Executed", "Amount", "Fee"].map { .string($0) }))
        let empty = assertThrows(.invalidArgument) { try detect("") }
        XCTAssertEqual(empty?.details["header"], .array([]))
    }

    /// A header written with ';': the coinfolio format refuses it itself (line 1); an exchange's
    /// is refused saying the separator must be a comma.
    func testSemicolonHeaders() throws {
        guard case .coinfolio = try detect("timestamp;coin_id;kind;amount\n") else { return XCTFail("not coinfolio") }
        let error = assertThrows(.invalidArgument) { try detect("Date(UTC);Pair;Side;Price;Executed;Amount;Fee\n") }
        XCTAssertEqual(error?.details["line"], .number(1))
        XCTAssertTrue(error?.message.contains("must be a comma") == true)
        // Quoted cells: the ';' after a closing quote says the same, for either format.
        for quoted in ["\"timestamp\";\"coin_id\";\"kind\";\"amount\"\n", "\"Date(UTC)\";\"Pair\";\"Side\"\n"] {
            let refused = assertThrows(.invalidArgument) { try detect(quoted) }
            XCTAssertEqual(refused?.message, "line 1: the separator must be a comma, not \";\" (text after a closing quote)")
            XCTAssertEqual(refused?.details["field_index"], .number(0))
        }
        // A ';' header that is no known header even split: the usual refusal, naming the ';' (it
        // said nothing of it: a new user's finding).
        // A title line that ';' splits in two is no header: no hint (a breaker's finding).
        let title = assertThrows(.invalidArgument) { try detect("Report; of every transaction\nhello\n") }
        XCTAssertEqual(title?.message.contains(";\" where"), false)
        let unknown = assertThrows(.invalidArgument) { try detect("Date (UTC);Sent Amount;Sent Currency\n") }
        XCTAssertEqual(unknown?.details["reason"], .string("unknown_format"))
        XCTAssertEqual(
            unknown?.message,
            "the header \"Date (UTC);Sent Amount;Sent Currency\" is no format Coinfolio reads "
                + "(coinfolio, coinbase, binance, kraken, cointracking, koinly); its cells are separated by \";\" where a comma belongs")
    }

    /// A CSV syntax error in an exchange file's row names the header's column of its field, as in
    /// Coinfolio's own format (one mapping for both, `LedgerCSVRows.record`).
    func testASyntaxErrorInAnExchangeRowNamesItsColumn() throws {
        let csv = "Date(UTC),Pair,Side,Price,Executed,Amount,Fee\n2024-01-02 10:00:00,BTCUSDT,BUY,\"40000\"x,1,40000,0\n"
        let bytes = Array(csv.utf8)
        let refused = assertThrows(.invalidArgument) {
            try bytes.withUnsafeBytes { buffer in
                var reader = CSVReader(bytes: buffer)
                guard case .exchange(let header) = try ImportDetection.detect(&reader, format: nil) else { return }
                _ = try ImportReader.read(&reader, header: header)
            }
        }
        XCTAssertEqual(refused?.message, "line 2, column Price: text after a closing quote")
        XCTAssertEqual(refused?.details["column"], .string("Price"))
        XCTAssertEqual(refused?.details["line"], .number(2))
        XCTAssertEqual(refused?.details["field_index"], .number(3))
    }

    // MARK: numbers

    private func number(_ text: String, _ form: NumberForm, suffixes: [String] = []) -> ImportNumber.Read? {
        try? ImportNumber.read(text, form, suffixes: suffixes)
    }

    func testBinanceAssetSuffixesAndThousands() throws {
        let btc = try XCTUnwrap(number("0.0528450000BTC", [.thousands, .assetSuffix], suffixes: ["BTC", "USDT"]))
        XCTAssertEqual(btc.value, d("0.052845"))
        XCTAssertEqual(btc.suffix, "BTC")
        let usdt = try XCTUnwrap(number("11,426.20USDT", [.thousands, .assetSuffix], suffixes: ["BTC", "USDT"]))
        XCTAssertEqual(usdt.value, d("11426.2"))
        XCTAssertEqual(usdt.suffix, "USDT")
        // A code that starts with a digit is kept apart by the pair's assets.
        let inch = try XCTUnwrap(number("12.00000000001INCH", [.assetSuffix], suffixes: ["1INCH", "USDT"]))
        XCTAssertEqual(inch.value, d("12"))
        XCTAssertEqual(inch.suffix, "1INCH")
        // Without a known code, the letters after the digits.
        XCTAssertEqual(number("0.001BNB", [.assetSuffix])?.suffix, "BNB")
        XCTAssertEqual(number("11,426.20", [.thousands])?.value, d("11426.2"))
        XCTAssertEqual(number("1,234,567.891", [.thousands])?.value, d("1234567.891"))
        XCTAssertEqual(number("1,234", [.thousands])?.value, d("1234"))  // where a format writes separators
        XCTAssertEqual(number("-1,234.5", [.thousands, .signed])?.value, d("-1234.5"))
    }

    /// A money cell's sign against the row's price currency: signs that name theirs are checked,
    /// anything else is the row's currency.
    func testACurrencySignMustBeTheRowsCurrency() {
        for (cell, currency) in [
            ("$430.00", "USD"), ("-$225.00", "USD"), ("$-2", "CAD"), ("€90.00", "EUR"), ("-€2.00", "EUR"), ("£5", "GBP"),
            ("¥500", "JPY"), ("¥500", "CNY"), ("CA$3", "CAD"), ("A$3", "AUD"), ("R$3", "BRL"), ("1,234.50", "EUR"), ("XY$3", "EUR"),
            ("CHF3", "EUR"),
        ] {
            XCTAssertNil(CurrencySign.contradiction(cell, currency: currency), "\(cell) \(currency)")
        }
        XCTAssertEqual(CurrencySign.contradiction("€100", currency: "USD"), "\"€100\" is in EUR, and the row's price currency is USD")
        XCTAssertEqual(CurrencySign.contradiction("-£1", currency: "EUR"), "\"-£1\" is in GBP, and the row's price currency is EUR")
        XCTAssertEqual(CurrencySign.contradiction("$100", currency: "EUR"), "\"$100\" is in dollars, and the row's price currency is EUR")
        XCTAssertEqual(CurrencySign.contradiction("CA$3", currency: "USD"), "\"CA$3\" is in CAD, and the row's price currency is USD")
        XCTAssertEqual(CurrencySign.contradiction("¥5", currency: "USD"), "\"¥5\" is in CNY or JPY, and the row's price currency is USD")
    }

    func testCommasOnlyWhereAFormatWritesThem() {
        // Strict columns refuse a thousands separator, and every form refuses a decimal comma.
        XCTAssertNil(number("11,426.20", []))
        XCTAssertNil(number("1,5", [.thousands]))
        XCTAssertNil(number("12,34", [.thousands]))
        XCTAssertNil(number("1,234,56", [.thousands]))
        XCTAssertNil(number("1,234.5,6", [.thousands]))
        XCTAssertThrowsError(try ImportNumber.read("1,5", [.thousands])) { error in
            XCTAssertTrue((error as? ImportNumber.Refusal)?.message.contains("decimal comma") == true)
            XCTAssertEqual((error as? ImportNumber.Refusal)?.reason, .decimalComma)
        }
        // A thousands separator where the format writes none says so, as the ledger's CSV does.
        XCTAssertThrowsError(try ImportNumber.read("11,426.20", [])) { error in
            XCTAssertEqual((error as? ImportNumber.Refusal)?.reason, .thousandsSeparator)
        }
    }

    func testCoinbaseCurrencySignsAndOutflows() {
        let money: NumberForm = [.signed, .thousands, .currencySign]
        XCTAssertEqual(number("$430.00", money)?.value, d("430"))
        XCTAssertEqual(number("-$1,240.00", money)?.value, d("-1240"))
        XCTAssertEqual(number("$-5", money)?.value, d("-5"))
        XCTAssertEqual(number("€1.5", money)?.value, d("1.5"))
        XCTAssertEqual(number("-£2", money)?.value, d("-2"))
        XCTAssertEqual(number("CA$3.10", money)?.value, d("3.1"))
        XCTAssertEqual(number("¥1,000", money)?.value, d("1000"))
        XCTAssertEqual(number("12", money)?.value, d("12"))
        // Signs only where a format writes them.
        XCTAssertNil(number("$430.00", [.signed, .thousands]))
        XCTAssertNil(number("-1", []))
        XCTAssertNil(number("--1", money))
        XCTAssertNil(number("-$-1", money))
        XCTAssertNil(number("$", money))
        XCTAssertNil(number("USD 5", money))
    }

    /// Money cells as Coinbase writes them are read in place (`plainMoney`); every other form by
    /// the general reading. Both give these values and refusals, as the general reading alone did.
    func testMoneyCellsReadInPlaceAsBefore() {
        let money: NumberForm = [.signed, .thousands, .currencySign]
        XCTAssertEqual(number("$1,234", money)?.value, d("1234"))
        XCTAssertEqual(number("$12,345,678.901", money)?.value, d("12345678.901"))
        XCTAssertEqual(number("-$0.00", money)?.value, d("0"))
        XCTAssertEqual(number("$-1,234.50", money)?.value, d("-1234.5"))
        XCTAssertEqual(number("$.5", money)?.value, d("0.5"))
        XCTAssertEqual(number("$5.", money)?.value, d("5"))
        XCTAssertEqual(number("1,234.5", money)?.value, d("1234.5"))
        XCTAssertEqual(number("$0.000000000000000001", money)?.value, d("0.000000000000000001"))
        func refusal(_ text: String, _ form: NumberForm) -> String? {
            do { _ = try ImportNumber.read(text, form) } catch { return error.message }
            return nil
        }
        XCTAssertEqual(refusal("-$5", [.thousands, .currencySign]), "\"-$5\" is negative; this column holds amounts of 0 or more")
        XCTAssertEqual(refusal("$5", [.signed, .thousands]), "\"$5\" is not a number")
        XCTAssertEqual(refusal("$ 5", money), "\"$ 5\" is not a number")
        XCTAssertEqual(refusal("$1.2.3", money), "\"$1.2.3\" is not a number")
        XCTAssertEqual(refusal("$0.0000000000000000001", money), "\"$0.0000000000000000001\" has more than 18 fraction digits")
        // A number too large for the ledger says so, with reason out_of_range (a Koinly cell of 30
        // digits was "not a number": a new user's finding).
        for (text, form) in [("123456789012345678901234567890", NumberForm()), ("$90,000,000,000,000,000,000", money), ("1e20", [])] {
            do {
                _ = try ImportNumber.read(text, form)
                XCTFail(text)
            } catch {
                XCTAssertEqual(error.message, "\"\(text)\" is beyond what the ledger keeps exactly (±8.5e19)")
                XCTAssertEqual(error.reason, .outOfRange)
            }
        }
        XCTAssertEqual(number("84999999999999999999", [])?.value, d("84999999999999999999"))
        // Within range but too precise is about the fraction digits, not the range; so is an
        // exponent below 10⁻¹⁸ (a breaker's findings). The bound is 8.5e19 exactly.
        for text in ["84999999999999999999.99999999999999999999", "85000000000000000000.0000000000000000001", "1e-400"] {
            XCTAssertEqual(refusal(text, []), "\"\(text)\" has more than 18 fraction digits", text)
        }
        XCTAssertEqual(number("85000000000000000000", [])?.value, d("85000000000000000000"))
        XCTAssertEqual(refusal("85000000000000000001", []), "\"85000000000000000001\" is beyond what the ledger keeps exactly (±8.5e19)")
        for text in ["0x10", "1_000", "inf", ".e5", "1e", "e5"] { XCTAssertEqual(refusal(text, []), "\"\(text)\" is not a number", text) }
        XCTAssertEqual(
            refusal("$1,234", [.signed, .currencySign]),
            "\"1,234\" has a comma: write 1234 if it separates thousands, or 1.234 if it is a decimal comma")
        XCTAssertEqual(refusal("$1,5", money), "\"1,5\" has a decimal comma: the decimal mark is a point (1.5)")
        XCTAssertEqual(refusal("$1,234.5,6", money), "\"$1,234.5,6\" has a comma: this column writes numbers with a decimal point")
        XCTAssertEqual(
            refusal("$99,999,999,999,999,999,999.00", money),
            "\"$99,999,999,999,999,999,999.00\" is beyond what the ledger keeps exactly (±8.5e19)")
    }

    func testCoinTrackingDashIsEmpty() throws {
        XCTAssertNil(try ImportNumber.read("-", [.dashIsEmpty]))
        XCTAssertNil(try ImportNumber.read("", []))
        XCTAssertThrowsError(try ImportNumber.read("-", []))
        XCTAssertEqual(number("0.50000000", [.dashIsEmpty])?.value, d("0.5"))
    }

    func testExactDigitsAndTheirLimit() {
        XCTAssertEqual(number("0.123456789012345678", [])?.value, d("0.123456789012345678"))
        XCTAssertEqual(number("1.000000000000000000000", [])?.value, d("1"))
        XCTAssertThrowsError(try ImportNumber.read("0.1234567890123456789", [])) { error in
            XCTAssertTrue((error as? ImportNumber.Refusal)?.message.contains("18 fraction digits") == true)
        }
        XCTAssertNil(number("NaN", [.signed]))
        XCTAssertNil(number("1e400", []))
        XCTAssertNil(number("0x10", []))
    }

    // MARK: times

    func testTimeForms() {
        // 2024-01-05T10:00:00Z
        let t: Int64 = 1_704_448_800_000
        XCTAssertEqual(ImportTime.parse("2024-01-05 10:00:00 UTC", .iso), t)
        XCTAssertEqual(ImportTime.parse("2024-01-05T10:00:00Z", .iso), t)
        XCTAssertEqual(ImportTime.parse("2024-01-05 10:00:00", .iso), t)
        XCTAssertNil(ImportTime.parse("2024-02-30 10:00:00", .iso))
        XCTAssertNil(ImportTime.parse("2024-01-05 10:60:00 UTC", .iso))
        XCTAssertEqual(ImportTime.parse("2024-01-05 10:00 UTC", .iso), t)
        XCTAssertEqual(ImportTime.parse("2024-01-05 10:00:00.1234", .iso), t + 123)
        XCTAssertEqual(ImportTime.parse("2024-01-05T12:00:00+02:00", .iso), t)
        XCTAssertEqual(ImportTime.parse("05.01.2024 10:00:00", .dayMonthYear), t)
        XCTAssertEqual(ImportTime.parse("05.01.2024 10:00", .dayMonthYear), t)
        // A header offset applies to a time without a zone: 18:00 at UTC+8 is 10:00 UTC.
        XCTAssertEqual(ImportTime.parse("2024-01-05 18:00:00", .iso, offset: 8 * 3_600_000), t)
        XCTAssertEqual(ImportTime.parse("2024-01-05 18:00:00 UTC", .iso, offset: 8 * 3_600_000), t + 8 * 3_600_000)
        // Each form only where a format writes it.
        XCTAssertNil(ImportTime.parse("05.01.2024 10:00:00", .iso))
        XCTAssertNil(ImportTime.parse("2024-01-05 10:00:00", .dayMonthYear))
        XCTAssertNil(ImportTime.parse("31.02.2024 10:00:00", .dayMonthYear))
        XCTAssertNil(ImportTime.parse("2024-01-05 25:00:00", .iso))
        XCTAssertNil(ImportTime.parse("01/05/2024 10:00", .iso))
        XCTAssertNil(ImportTime.parse("", .iso))
    }

    // MARK: external ids

    /// `"<format>:"` + the first 32 hex digits of SHA-256 over the cells joined by U+001F (worked
    /// with Python's hashlib); the same row again in one file hashes its count too.
    func testHashedExternalIDs() {
        var ids = ImportExternalID(format: .binance)
        let cells = ["2021-03-01 10:00:00", "BTCUSDT", "BUY", "45,000.00", "0.0100000000BTC", "450.00000000USDT", "0.0000100000BTC"]
        XCTAssertEqual(ids.hashed([cells]), "binance:3d9d7b39b3ab3969199933df5647c1f6")
        let second = ids.hashed([cells])
        XCTAssertNotEqual(second, "binance:3d9d7b39b3ab3969199933df5647c1f6")
        XCTAssertTrue(second.hasPrefix("binance:"))
        XCTAssertEqual(second.count, "binance:".count + 32)
        // A new file counts afresh: the same ids again.
        var again = ImportExternalID(format: .binance)
        XCTAssertEqual(again.hashed([cells]), "binance:3d9d7b39b3ab3969199933df5647c1f6")
        XCTAssertEqual(again.hashed([cells]), second)
        XCTAssertEqual(ImportExternalID(format: .kraken).own("TRADE1-AAAAA-BBBBBB"), "kraken:TRADE1-AAAAA-BBBBBB")
    }

    /// An import's group ids: lower-case version-4 UUIDs, all different, in order.
    func testImportGroupIDsAreOrderedUUIDs() {
        var ids = ImportGroupIDs()
        let made = (0..<300).map { _ in ids.next() }
        XCTAssertEqual(Set(made).count, 300)
        XCTAssertEqual(made, made.sorted())
        for id in made.prefix(3) {
            XCTAssertNotNil(UUID(uuidString: id), id)
            XCTAssertEqual(id, id.lowercased())
            XCTAssertEqual(Array(id)[14], "4")
        }
        var other = ImportGroupIDs()
        XCTAssertNotEqual(other.next(), made[0])
        // The text is Foundation's UUID text of the same bits, lower-cased: 8-4-4-4-12 hex digits.
        let bits: [(UInt64, UInt64)] = [(0, 0), (.max, .max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210), (0xA, 0x3FFF_FFFF_FFFF_FFFE)]
        for (high, low) in bits {
            var ids = ImportGroupIDs(high: high, low: low)
            let id = ids.next()
            XCTAssertEqual(id.utf8.count, 36, id)
            XCTAssertEqual(UUID(uuidString: id)?.uuidString.lowercased(), id)
        }
        var known = ImportGroupIDs(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        XCTAssertEqual(known.next(), "01234567-89ab-4def-bedc-ba9876543211")
    }

    // MARK: symbols

    func testResolutionOrder() {
        let snapshot: [String: [String]] = ["bond": ["barnbridge", "bond-protocol"], "grt": ["the-graph"], "ape": ["apecoin"]]
        let resolver = SymbolResolver(chosen: ["bond": "barnbridge", "BTC": "wrapped-bitcoin"], currencies: ["usd", "btc2"]) {
            snapshot[$0] ?? []
        }
        // The option first (even over the table), case-insensitively.
        XCTAssertEqual(try resolver.resolve("BOND").get(), .coin("barnbridge"))
        XCTAssertEqual(try resolver.resolve("BTC").get(), .coin("wrapped-bitcoin"))
        // Money: ISO 4217 and the engine's currencies.
        XCTAssertEqual(try resolver.resolve("EUR").get(), .money("eur"))
        XCTAssertEqual(try resolver.resolve("BTC2").get(), .money("btc2"))
        XCTAssertEqual(try resolver.resolve("MNT").get(), .money("mnt"))  // Mongolia's tugrik, not Mantle
        // The table, then a symbol one snapshot coin has.
        XCTAssertEqual(try resolver.resolve("ETH").get(), .coin("ethereum"))
        XCTAssertEqual(try resolver.resolve("USDT").get(), .coin("tether"))
        XCTAssertEqual(try resolver.resolve("APE").get(), .coin("apecoin"))
        let plain = SymbolResolver(chosen: [:], currencies: ["usd"]) { snapshot[$0] ?? [] }
        let (resolved, unresolved) = plain.resolveAll(["BOND", "ETH", "NOPE", "BOND"])
        XCTAssertEqual(resolved, ["ETH": .coin("ethereum")])
        XCTAssertEqual(
            unresolved,
            [.init(symbol: "BOND", candidates: ["barnbridge", "bond-protocol"]), .init(symbol: "NOPE", candidates: [])])
        // WETH is shared on CoinGecko, so the table leaves it out.
        XCTAssertNil(SymbolTable.coinID(for: "WETH"))
    }

    func testKrakenCodes() {
        XCTAssertEqual(SymbolTable.krakenTicker("XXBT"), "BTC")
        XCTAssertEqual(SymbolTable.krakenTicker("XBT.M"), "BTC")
        XCTAssertEqual(SymbolTable.krakenTicker("XETH"), "ETH")
        XCTAssertEqual(SymbolTable.krakenTicker("ETH2.S"), "ETH")
        XCTAssertEqual(SymbolTable.krakenTicker("XXDG"), "DOGE")
        XCTAssertEqual(SymbolTable.krakenTicker("ZEUR"), "EUR")
        XCTAssertEqual(SymbolTable.krakenTicker("ZUSD"), "USD")
        XCTAssertEqual(SymbolTable.krakenTicker("USD.HOLD"), "USD")
        XCTAssertEqual(SymbolTable.krakenTicker("DOT.S"), "DOT")
        XCTAssertEqual(SymbolTable.krakenTicker("DOT28.S"), "DOT")
        for suffix in [".S", ".F", ".M", ".B", ".P"] { XCTAssertEqual(SymbolTable.krakenTicker("SOL\(suffix)"), "SOL", suffix) }
        XCTAssertEqual(SymbolTable.krakenTicker("ADA"), "ADA")
        XCTAssertEqual(SymbolTable.coinID(for: SymbolTable.krakenTicker("XXDG")), "dogecoin")
        XCTAssertEqual(SymbolTable.coinID(for: SymbolTable.krakenTicker("XXBT")), "bitcoin")
    }
}
