import Foundation
import XCTest

@testable import Coinfolio

/// Every format and variant of SPEC §18 on a sample file written for these tests
/// (Tests/fixtures/imports, made from the headers, copied from nowhere), each with the ledger rows
/// it plans written out: one string per row, `kind coin amount @price fee F [coin] type`, groups
/// in file order. No database: `ImportEngineTests` writes the same files through the engine.
final class ImportSampleTests: XCTestCase {
    static let folder = Repository.root.appendingPathComponent("Tests/fixtures/imports")

    /// What a planned file became.
    struct Planned {
        var file: ImportedFile
        /// Each entry's rows as text, groups in order.
        var groups: [[String]]
        /// Each written row's external id.
        var ids: [String]
        var ignored: [Int]
        var warnings: [Int]
        /// Each written row's `price_currency`.
        var currencies: [String?] = []
    }

    /// `kind coin amount @price fee F[ coin][ type]` (price `pending` when null).
    static func describe(_ t: Transaction) -> String {
        var text = "\(t.kind.rawValue) \(t.coinID) \(t.amount)"
        if t.kind.hasPrice { text += " @" + (t.price.map { "\($0)" } ?? "pending") }
        if !t.fee.isZero { text += " fee \(t.fee)" + (t.feeCoinID.map { " \($0)" } ?? "") }
        if let type = t.incomeType { text += " \(type.rawValue)" }
        return text
    }

    /// An exchange file's bytes read into the row model (detected, as `auto` does).
    static func read(_ bytes: [UInt8]) throws -> ImportedFile {
        try bytes.withUnsafeBytes { buffer in
            var reader = CSVReader(bytes: buffer)
            guard case .exchange(let header) = try ImportDetection.detect(&reader, format: nil) else {
                throw CoinfolioError(.internalError, "the coinfolio format, not an exchange's")
            }
            return try ImportReader.read(&reader, header: header)
        }
    }

    /// Reads and plans a sample file into a portfolio of `currency`.
    static func plan(_ name: String, currency: String = "usd", symbols: [String: String] = [:]) throws -> Planned {
        let file = try read(Array(Data(contentsOf: folder.appendingPathComponent(name))))
        let snapshot = ["1inch": ["1inch"]]
        let resolver = SymbolResolver(chosen: symbols, currencies: [currency]) { snapshot[$0] ?? [] }
        var symbols: [String] = []
        for entry in file.entries { entry.forEachSymbol { symbols.append($0) } }
        let (resolved, unresolved) = resolver.resolveAll(symbols)
        XCTAssertEqual(unresolved, [], name)
        var plan = ImportPlan(portfolio: "main", currency: currency, resolutions: resolved, prices: .none)
        var planned = Planned(file: file, groups: [], ids: [], ignored: file.ignored.map(\.line), warnings: file.warnings.map(\.line))
        for entry in file.entries {
            switch try plan.outcome(entry) {
            case .rows(let rows, let warning):
                planned.groups.append(rows.map(describe))
                planned.ids += rows.map { $0.externalID ?? "" }
                planned.currencies += rows.map(\.priceCurrency)
                if warning != nil { planned.warnings.append(entry.line) }
            case .ignored: planned.ignored.append(entry.line)
            case .unresolved: XCTFail("unresolved in \(name)")
            }
        }
        planned.ignored.sort()
        planned.warnings.sort()
        return planned
    }

    /// A Coinbase Convert becomes a trade from its Notes (and from two rows with one ID); outflows
    /// and currency signs are read; a fiat deposit is ignored; an unknown type is a warning.
    func testCoinbaseV4() throws {
        let planned = try Self.plan("coinbase-v4.csv")
        XCTAssertEqual(planned.file.variant, "v4")
        XCTAssertEqual(
            planned.groups,
            [
                ["buy bitcoin 0.01 @43000 fee 6.5"],
                ["buy ethereum 2 @2250 fee 18"],
                ["sell ethereum 1 @2400", "buy bitcoin 0.048 @50000"],
                ["sell bitcoin 0.005 @48000 fee 4"],
                ["income ethereum 0.01 @3400 staking"],
                ["transfer_out bitcoin 0.02"],
                ["income the-graph 10 @0.3 reward"],
                ["sell bitcoin 0.001 @65000", "buy usd-coin 65 @1"],
            ])
        XCTAssertEqual(
            planned.ids,
            [
                "coinbase:cb4-0001", "coinbase:cb4-0002", "coinbase:cb4-0003", "coinbase:cb4-0003#2", "coinbase:cb4-0004",
                "coinbase:cb4-0005", "coinbase:cb4-0006", "coinbase:cb4-0008", "coinbase:cb4-0009", "coinbase:cb4-0009#2",
            ])
        XCTAssertEqual(planned.ignored, [8])  // the USD deposit
        XCTAssertEqual(planned.warnings, [12])  // Retail Staking Transfer
    }

    func testCoinbaseV3AfterItsPreamble() throws {
        let planned = try Self.plan("coinbase-v3.csv")
        XCTAssertEqual(planned.file.variant, "v3")
        XCTAssertEqual(
            planned.groups,
            [["buy bitcoin 0.02 @17000 fee 4.99"], ["income stellar 5 @0.08 reward"], ["sell bitcoin 0.01 @23000 fee 3.5"]])
        XCTAssertTrue(planned.ids.allSatisfy { $0.hasPrefix("coinbase:") && $0.count == "coinbase:".count + 32 })
        XCTAssertEqual(planned.file.entries.map(\.line), [7, 8, 9])
    }

    func testCoinbaseV2() throws {
        let planned = try Self.plan("coinbase-v2.csv")
        XCTAssertEqual(planned.file.variant, "v2")
        XCTAssertEqual(
            planned.groups,
            [["buy ethereum 0.5 @2600 fee 19.9"], ["income ethereum 0.001 @2500 reward"], ["transfer_out ethereum 0.2"]])
    }

    /// v1's currency is its columns' prefix: in a EUR portfolio its prices are the file's; in a
    /// USD one they are the file's too, with `price_currency` eur (the fee with them), for the
    /// engine to convert (SPEC §17; `ImportFillPricesTests` converts them).
    func testCoinbaseV1CurrencyFromItsColumns() throws {
        let eur = try Self.plan("coinbase-v1.csv", currency: "eur")
        XCTAssertEqual(eur.file.variant, "v1")
        XCTAssertEqual(eur.groups, [["buy bitcoin 0.1 @11500 fee 17.25"], ["income usd-coin 0.35 @0.828571428571428571 interest"]])
        XCTAssertEqual(eur.currencies, [nil, nil])
        let usd = try Self.plan("coinbase-v1.csv", currency: "usd")
        XCTAssertEqual(usd.groups, eur.groups)
        XCTAssertEqual(usd.currencies, ["eur", "eur"])
        XCTAssertEqual(usd.warnings, [])
    }

    /// A price in a currency CoinGecko does not price in (ISK) cannot be converted: the row is
    /// pending, its fee left out, both said in a warning. A fee in another currency than the
    /// price's is left out with a warning; a pending row takes its fee's currency.
    func testPricesAndFeesInOtherCurrencies() throws {
        let header =
            "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,"
            + "Net Worth Amount,Net Worth Currency,Label,Description,TxHash\n"
        let text =
            header + "2024-01-01 00:00:00 UTC,1000,ISK,1,ETH,,,,,,,\n"
            + "2024-01-02 00:00:00 UTC,100,EUR,1,ETH,1,GBP,,,,,\n"
            + "2024-01-03 00:00:00 UTC,,,0.5,ETH,0.1,EUR,,,staking,,\n"
        let file = try Self.read(Array(text.utf8))
        let resolver = SymbolResolver(chosen: [:], currencies: ["usd"]) { _ in [] }
        var symbols: [String] = []
        for entry in file.entries { entry.forEachSymbol { symbols.append($0) } }
        var plan = ImportPlan(portfolio: "main", currency: "usd", resolutions: resolver.resolveAll(symbols).resolved, prices: .none)
        var described: [String] = []
        var warnings: [Int] = []
        for entry in file.entries {
            guard case .rows(let rows, let warning) = try plan.outcome(entry) else { return XCTFail("no rows at \(entry.line)") }
            described += rows.map { Self.describe($0) + ($0.priceCurrency.map { " in \($0)" } ?? "") }
            if warning != nil { warnings.append(entry.line) }
        }
        XCTAssertEqual(
            described, ["buy ethereum 1 @pending", "buy ethereum 1 @100 in eur", "income ethereum 0.5 @pending fee 0.1 staking in eur"])
        XCTAssertEqual(warnings, [2, 3])
    }

    func testBinanceTradeHistory() throws {
        let planned = try Self.plan("binance-trade-history.csv")
        XCTAssertEqual(planned.file.variant, "trade_history")
        XCTAssertEqual(
            planned.groups,
            [
                ["sell tether 450 @pending", "buy bitcoin 0.01 @pending fee 0.00001 bitcoin", "fee bitcoin 0.00001 @pending"],
                ["sell bitcoin 0.006 @pending", "buy tron 5000 @pending fee 0.0045 binancecoin", "fee binancecoin 0.0045 @pending"],
                ["sell tether 48 @pending", "buy 1inch 12 @pending fee 0.012 tether", "fee tether 0.012 @pending"],
                ["sell bitcoin 0.002 @pending", "buy tether 92.201 @pending fee 0.092201 tether", "fee tether 0.092201 @pending"],
            ])
        XCTAssertEqual(planned.ids[0], "binance:3d9d7b39b3ab3969199933df5647c1f6")
        XCTAssertEqual(planned.ids[1], "binance:3d9d7b39b3ab3969199933df5647c1f6#2")
        XCTAssertEqual(planned.ids[2], "binance:3d9d7b39b3ab3969199933df5647c1f6#3")
    }

    func testBinanceTradeHistoryOld() throws {
        let planned = try Self.plan("binance-trade-history-old.csv")
        XCTAssertEqual(planned.file.variant, "trade_history_old")
        XCTAssertEqual(
            planned.groups,
            [
                ["sell bitcoin 0.03 @pending", "buy binancecoin 10 @pending fee 0.0075 binancecoin", "fee binancecoin 0.0075 @pending"],
                ["sell ethereum 1 @pending", "buy bitcoin 0.03 @pending fee 0.00003 bitcoin", "fee bitcoin 0.00003 @pending"],
            ])
    }

    /// A statement trade split over Buy/Sell/Fee rows of one time is one group with a BNB fee row;
    /// a withdrawal's fee row joins its group; Simple Earn interest, staking and launchpool are
    /// income; a fiat deposit and moves between Binance's accounts are ignored; an unknown
    /// operation is a warning.
    func testBinanceStatement() throws {
        let planned = try Self.plan("binance-statement.csv")
        XCTAssertEqual(planned.file.variant, "statement")
        XCTAssertEqual(
            planned.groups,
            [
                ["transfer_in tether 1000"],
                ["transfer_in binancecoin 1"],
                ["sell tether 470 @pending", "buy bitcoin 0.01 @pending fee 0.00075 binancecoin", "fee binancecoin 0.00075 @pending"],
                ["sell bitcoin 0.004 @pending", "buy tether 190 @pending fee 0.19 tether", "fee tether 0.19 @pending"],
                ["income tether 0.05 @pending interest"],
                ["income ethereum 0.001 @pending staking"],
                ["transfer_out bitcoin 0.005 fee 0.0005 bitcoin", "fee bitcoin 0.0005 @pending"],
                ["income solana 0.2 @pending airdrop"],
            ])
        XCTAssertEqual(planned.ignored, [14, 15, 16])
        XCTAssertEqual(planned.warnings, [18])
    }

    /// A Kraken trade's two rows sharing a refid are one exchange; XXBT/ZEUR are bitcoin and eur;
    /// DOT.S staking is income staking; the pending deposit row and a fiat deposit are ignored.
    func testKrakenLedgers() throws {
        let planned = try Self.plan("kraken-ledgers.csv", currency: "eur")
        XCTAssertEqual(planned.file.variant, "ledgers")
        XCTAssertEqual(
            planned.groups,
            [
                ["buy bitcoin 0.0125 @40000 fee 0.8"],
                ["income polkadot 0.1 @pending staking"],
                ["transfer_out bitcoin 0.005 fee 0.0001 bitcoin", "fee bitcoin 0.0001 @pending"],
            ])
        XCTAssertEqual(
            planned.ids,
            ["kraken:TRADE1-AAAAA-BBBBBB", "kraken:STAKE1-AAAAA-BBBBBB", "kraken:WDRAW1-AAAAA-BBBBBB", "kraken:WDRAW1-AAAAA-BBBBBB#2"])
        XCTAssertEqual(planned.ignored, [2, 3, 8])  // pending row, EUR deposit, spot → staking
        XCTAssertEqual(planned.warnings, [9])  // margin
        XCTAssertEqual(planned.file.entries[1].timestamp, 1_704_276_000_123)  // 2024-01-03T10:00:00.123Z
    }

    func testKrakenLedgersWithWallet() throws {
        let planned = try Self.plan("kraken-ledgers-wallet.csv")
        XCTAssertEqual(planned.file.variant, "ledgers_wallet")
        XCTAssertEqual(
            planned.groups,
            [
                ["transfer_in ethereum 2"],
                ["sell ethereum 1 @pending", "buy tether 2795 @pending fee 5.59 tether", "fee tether 5.59 @pending"],
                ["income ethereum 0.001 @pending staking"],
            ])
        XCTAssertEqual(planned.ignored, [6])
    }

    func testCoinTracking() throws {
        let planned = try Self.plan("cointracking.csv")
        XCTAssertEqual(planned.file.variant, "default")
        XCTAssertEqual(
            planned.groups,
            [
                ["transfer_in bitcoin 1.5"],
                ["sell bitcoin 1 @pending", "buy ethereum 15 @pending fee 0.001 bitcoin", "fee bitcoin 0.001 @pending"],
                ["income ethereum 0.5 @pending staking"],
                ["buy bitcoin 0.1 @17000 fee 5"],
                ["sell ethereum 0.5 @pending"],
                ["transfer_out bitcoin 0.1"],
            ])
        XCTAssertEqual(planned.ignored, [5])
        XCTAssertEqual(planned.warnings, [9])
        // 06.01.2023 18:45:10 is 2023-01-06T18:45:10Z.
        XCTAssertEqual(planned.file.entries[5].timestamp, 1_673_030_710_000)
    }

    func testKoinlyUniversal() throws {
        let planned = try Self.plan("koinly.csv")
        XCTAssertEqual(planned.file.variant, "universal")
        XCTAssertEqual(
            planned.groups,
            [
                ["transfer_in ethereum 2"],
                ["sell ethereum 1 @1800", "buy usd-coin 1800 @1 fee 0.002 ethereum", "fee ethereum 0.002 @1800"],
                ["income ethereum 0.01 @1800 staking"],
                ["income arbitrum 5 @1.5 airdrop"],
                ["transfer_out ethereum 0.5"],
                ["income usd-coin 20 @1 interest"],
            ])
        XCTAssertEqual(planned.ignored, [7])
        XCTAssertEqual(planned.warnings, [9])
    }

    /// A Convert written as two rows of one ID, both with the Notes: one trade, the second row
    /// ignored as its other side.
    func testCoinbaseConvertWithNotesOnBothRows() throws {
        let header =
            "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n"
        let csv =
            header + "c1,2024-03-05 12:00:00 UTC,Convert,ETH,-1,USD,$3000,$3000,$3000,$0,Converted 1 ETH to 3000 USDC\n"
            + "c1,2024-03-05 12:00:00 UTC,Convert,USDC,3000,USD,$1,$3000,$3000,$0,Converted 1 ETH to 3000 USDC\n"
        let file = try Self.read(Array(csv.utf8))
        XCTAssertEqual(file.entries.count, 1)
        XCTAssertEqual(file.ignored.map(\.line), [3])
        XCTAssertEqual(file.entries.first?.externalID, "coinbase:c1")
    }

    /// `Date(UTC+8)`: the file's 18:00 is 10:00 UTC.
    func testBinanceOffsetHeader() throws {
        let csv = "Date(UTC+8),Pair,Side,Price,Executed,Amount,Fee\n2024-01-05 18:00:00,BTCUSDT,BUY,40000,0.001BTC,40USDT,0.04USDT\n"
        let file = try Self.read(Array(csv.utf8))
        XCTAssertEqual(file.entries.first?.timestamp, 1_704_448_800_000)
    }
}
