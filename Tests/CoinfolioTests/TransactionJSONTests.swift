import Foundation
import XCTest

@testable import Coinfolio

/// `Transaction.writeJSON` writes its members as literals and bytes; these tie it to the key by key
/// `JSONWriter` text it replaced (kept here as `reference`), and the Binance statement's byte
/// matching of operations to the text matching it replaced.
final class TransactionJSONTests: XCTestCase {
    /// The members as `JSONWriter`'s keys and values write them (the writer before the literals).
    private func reference(_ t: Transaction) -> String {
        typealias Key = Transaction.JSONKey
        var w = JSONWriter()
        w.beginObject()
        w.key(Key.id); w.string(t.id.map { String($0) })
        w.key(Key.portfolio); w.string(t.portfolio)
        w.key(Key.coinID); w.string(t.coinID)
        w.key(Key.kind); w.string(t.kind.rawValue)
        w.key(Key.amount); w.decimal(t.amount)
        w.key(Key.price); w.decimal(t.price)
        w.key(Key.fee); w.decimal(t.fee)
        w.key(Key.timestamp); w.string(LedgerTimestamp.format(t.timestamp))
        w.key(Key.note); w.string(t.note)
        w.key(Key.externalID); w.string(t.externalID)
        w.key(Key.groupID); w.string(t.groupID)
        w.key(Key.incomeType); w.string(t.incomeType?.rawValue)
        w.key(Key.feeCoinID); w.string(t.feeCoinID)
        w.key(Key.feePrice); w.decimal(t.feePrice)
        w.key(Key.priceSource); w.string(t.priceSource?.rawValue)
        w.key(Key.priceAt); w.number(t.priceAt.map { Int($0) })
        w.key(Key.originalPrice); w.decimal(t.originalPrice)
        w.key(Key.priceCurrency); w.string(t.priceCurrency)
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    private func decimal(_ text: String) throws -> ExactDecimal { try XCTUnwrap(ExactDecimal(text)) }

    func testMembersAreTheKeyByKeyText() throws {
        let full = Transaction(
            id: 9_223_372_036_854_775_807, portfolio: "cold \"wallet\"\n", coinID: "bitcoin", kind: .income,
            amount: try decimal("0.000000000000000001"), price: try decimal("-12345678901234.5"), fee: try decimal("3.10"),
            timestamp: -62_135_596_800_000, note: "tab\there \u{1}\u{7F} é ✓ \\", externalID: "binance:abc",
            feeCoinID: "binancecoin", feePrice: try decimal("600"), incomeType: .staking, groupID: "G-1",
            priceSource: .coingecko, priceAt: -1, priceCurrency: "eur", originalPrice: try decimal("7"))
        let bare = Transaction(coinID: "ethereum", kind: .transferIn, amount: try decimal("10"), timestamp: 1_704_067_200_123)
        var others = [full, bare]
        others.append(Transaction(id: 0, coinID: "x", kind: .buy, amount: .zero, price: .zero, timestamp: 0, priceAt: 0))
        others.append(Transaction(id: 1, coinID: "", kind: .fee, amount: try decimal("1"), timestamp: 253_402_300_799_999, note: ""))
        for t in others {
            XCTAssertEqual(t.json, reference(t))
        }
        let group = TransactionGroup(groupID: "g", transactions: [full, bare])
        XCTAssertEqual(group.json, #"{"group_id":"g","transactions":["# + reference(full) + "," + reference(bare) + "]}")
        XCTAssertEqual(TransactionGroup(groupID: nil, transactions: []).json, #"{"group_id":null,"transactions":[]}"#)
    }

    func testBinanceOperationBytesMatchTheText() {
        typealias Operation = BinanceStatementImporter.Operation
        var names = [
            "Buy", "Sell", "Fee", "Deposit", "Withdraw", "Withdrawal", "Transaction Buy", "Transaction Spend",
            "Transaction Revenue", "Transaction Sold", "Transaction Fee", "Binance Convert", "Staking Rewards",
            "Simple Earn Flexible Interest", "Simple Earn Flexible Subscription", "Launchpool Interest", "Distribution",
            "Airdrop Assets", "Savings Interest", "Transfer Between Main and Funding Wallet", "Redemption", "Purchase",
            "", " ", "buy ", "BUY", "bUy", "FEE", "stakingX", "xxinterestxx", "simple  earn", "Small Assets Exchange BNB",
            "Staking Purchase", "ETH 2.0 Staking", "[", "@Z", "Z@", String(repeating: "interest", count: 9),
        ]
        // Every byte of ASCII, alone and around a name.
        for byte in UInt8(0)..<0x80 {
            let c = String(decoding: [byte], as: UTF8.self)
            names += [c, c + "fee", "staking" + c, "Trans" + c + "fer"]
        }
        for name in names {
            var text = name
            let bytes = text.withUTF8 { Operation(ascii: $0) }
            if name.utf8.count <= 64 {
                XCTAssertEqual(bytes, Operation(text: name), name.debugDescription)
            } else {
                XCTAssertNil(bytes, name.debugDescription)
            }
            XCTAssertEqual(Operation(name), Operation(text: name), name.debugDescription)
        }
        // The rules' order: an exact name first, then the first word group a cell contains.
        let expected: [(String, Operation)] = [
            ("Transaction Fee", .fee), ("WITHDRAWAL", .withdraw), ("Binance Convert", .trade), ("Staking Purchase", .ownAccounts),
            ("ETH 2.0 Staking", .income(.staking)), ("Launchpool Interest", .income(.airdrop)),
            ("Simple Earn Flexible Interest", .income(.interest)), ("Simple Earn Flexible Subscription", .ownAccounts),
            ("Small Assets Exchange BNB", .unknown), ("Buy ", .unknown), ("Stakİng", .unknown),
        ]
        for (name, operation) in expected { XCTAssertEqual(Operation(name), operation, name) }
        // Cells with other bytes keep the text path.
        for name in ["Staking Rewards é", "Ｂuy", "İnterest", "Buy\u{301}", "fee\u{0}é"] {
            var text = name
            XCTAssertNil(text.withUTF8 { Operation(ascii: $0) })
            XCTAssertEqual(Operation(name), Operation(text: name), name.debugDescription)
        }
    }
}
