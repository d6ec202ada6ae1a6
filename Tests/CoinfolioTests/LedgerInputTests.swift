import XCTest

@testable import Coinfolio

/// SPEC §16's inputs read from a host's JSON and turned into rows, without a store: trades, moves,
/// income and fees in coins, and every bad field named in `details.field`.
final class LedgerInputTests: XCTestCase {
    private func e(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

    /// 0.5 BTC → 10 ETH, value 30,000 → sell 0.5 bitcoin @ 60,000 and buy 10 ethereum @ 3,000.
    func testASwapIsASellAndABuyPricedByItsValue() throws {
        let trade = try Trade(
            json:
                #"{"timestamp":"2024-05-01","sent":{"coin_id":"bitcoin","amount":0.5},"received":{"coin_id":"ethereum","amount":"10"},"value":30000,"external_id":"x-7"}"#
        )
        let legs = try trade.legs(prices: .none, vsCurrency: "usd")
        XCTAssertEqual(legs.map(\.kind), [.sell, .buy])
        XCTAssertEqual(legs.map(\.coinID), ["bitcoin", "ethereum"])
        XCTAssertEqual(legs.map(\.amount), [e("0.5"), e("10")])
        XCTAssertEqual(legs.map(\.price), [e("60000"), e("3000")])
        XCTAssertEqual(legs.map(\.priceSource), [.user, .user])
        XCTAssertEqual(legs.map(\.externalID), ["x-7", "x-7#2"])
        XCTAssertEqual(legs[0].timestamp, LedgerTimestamp.parse("2024-05-01"))
    }

    /// Without a value: the received coin's stored price × its amount, else the sent coin's, else
    /// both legs pending; a price found by division is rounded half-even to 18 fraction digits.
    func testATradeWithoutAValueTakesStoredPricesElsePending() throws {
        let trade = Trade(
            timestamp: 10, sent: .init(coinID: "bitcoin", amount: 3), received: .init(coinID: "ethereum", amount: 7))
        let pending = try trade.legs(prices: .none, vsCurrency: "usd")
        XCTAssertEqual(pending.map(\.price), [nil, nil])
        XCTAssertEqual(pending.map(\.priceSource), [.pending, .pending])
        let ethOnly = StoredPrices { coin, vs, _ in
            coin == "ethereum" && vs == "usd" ? StoredPrice(price: 2, source: .coingecko, at: 9) : nil
        }
        let fromReceived = try trade.legs(prices: ethOnly, vsCurrency: "usd")
        XCTAssertEqual(fromReceived.map(\.price), [e("4.666666666666666667"), e("2")], "14 ÷ 3, half-even at 18 digits")
        XCTAssertEqual(fromReceived.map(\.priceSource), [.coingecko, .coingecko])
        XCTAssertEqual(fromReceived.map(\.priceAt), [9, 9])
        let btcOnly = StoredPrices { coin, _, _ in coin == "bitcoin" ? StoredPrice(price: 7, source: .manual, at: 8) : nil }
        XCTAssertEqual(try trade.legs(prices: btcOnly, vsCurrency: "usd").map(\.price), [e("7"), e("3")])
    }

    func testATradesFeeGoesToTheReceivedLegAndItsFeeRowFollows() throws {
        let trade = try Trade(
            json:
                #"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"ethereum","amount":20},"value":60000,"fee":"0.5","fee_coin_id":"binancecoin","fee_price":600,"external_id":"t"}"#
        )
        let rows = LedgerGroup.rows(try trade.legs(prices: .none, vsCurrency: "usd"), prices: .none, vsCurrency: "usd")
        XCTAssertEqual(rows.map(\.kind), [.sell, .buy, .fee])
        XCTAssertEqual(rows[0].fee, .zero)
        XCTAssertEqual(rows[1].fee, e("0.5"))
        XCTAssertEqual(rows[1].feeCoinID, "binancecoin")
        XCTAssertEqual(rows[2].amount, e("0.5"))
        XCTAssertEqual(rows[2].price, 600)
        XCTAssertEqual(rows.map(\.externalID), ["t", "t#2", "t#3"])
    }

    func testAMoveIsATransferOutAndAReceivedTransferIn() throws {
        let move = try Move(
            json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":1.5,"received_amount":"1.4","timestamp":"2024-01-03"}"#)
        XCTAssertEqual(move.legs.map(\.kind), [.transferOut, .transferIn])
        XCTAssertEqual(move.legs.map(\.portfolio), ["main", "cold"])
        XCTAssertEqual(move.legs.map(\.amount), [e("1.5"), e("1.4")])
        XCTAssertEqual(try Move(json: #"{"from":"main","to":"cold","coin_id":"bitcoin","amount":2}"#).legs[1].amount, 2)
    }

    func testIncomeReadsItsType() throws {
        let income = try Transaction(json: #"{"coin_id":"ethereum","kind":"income","income_type":"staking","amount":"0.01","price":3000}"#)
        XCTAssertEqual(income.incomeType, .staking)
        XCTAssertEqual(income.priceSource, .user)
        let pending = try Transaction(json: #"{"coin_id":"ethereum","kind":"income","income_type":"airdrop","amount":5}"#)
        XCTAssertNil(pending.price)
        XCTAssertEqual(pending.priceSource, .pending)
        XCTAssertEqual(try Transaction(json: #"{"coin_id":"ethereum","kind":"buy","amount":5}"#).priceSource, .pending)
    }

    /// Every bad field of §16 is CF_INVALID_ARGUMENT naming it in details.field.
    func testEveryBadFieldIsNamed() {
        let transactions: [(String, String)] = [
            (#"{"coin_id":"ethereum","kind":"income","amount":1,"price":1}"#, "income_type"),
            (#"{"coin_id":"ethereum","kind":"income","income_type":"salary","amount":1}"#, "income_type"),
            (#"{"coin_id":"ethereum","kind":"buy","income_type":"staking","amount":1,"price":1}"#, "income_type"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":"binancecoin","fee_price":-1}"#, "fee_price"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"fee_price":2}"#, "fee_price"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":"a/b"}"#, "fee_coin_id"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":""}"#, "fee_coin_id"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":"BNB"}"#, "fee_coin_id"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":"usd"}"#, "fee_coin_id"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"fee":1,"fee_coin_id":7}"#, "fee_coin_id"),
            (#"{"coin_id":"ethereum","kind":"fee","amount":1,"fee":1}"#, "fee"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"price_currency":"xyz"}"#, "price_currency"),
            (#"{"coin_id":"ethereum","kind":"buy","amount":1,"price":1,"price_currency":"e$r"}"#, "price_currency"),
            (#"{"coin_id":"ethereum","kind":"transfer_in","amount":1,"price_currency":"eur"}"#, "price_currency"),
            (#"{"coin_id":"ethereum","kind":"transfer_in","amount":1,"price":1}"#, "price"),
        ]
        for (json, field) in transactions {
            let error = assertThrows(.invalidArgument) { try Transaction(json: json) }
            XCTAssertEqual(error?.details["field"], .string(field), json)
        }
        let trades: [(String, String)] = [
            (#"{"sent":{"coin_id":"usd","amount":100},"received":{"coin_id":"bitcoin","amount":1}}"#, "sent.coin_id"),
            (#"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"eur","amount":100}}"#, "received.coin_id"),
            (#"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"bitcoin","amount":1}}"#, "received.coin_id"),
            (#"{"sent":{"coin_id":"bitcoin","amount":0},"received":{"coin_id":"ethereum","amount":1}}"#, "sent.amount"),
            (#"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"ethereum"}}"#, "received.amount"),
            (#"{"sent":{"coin_id":"bitcoin","amount":1}}"#, "received"),
            (#"{"sent":[1],"received":{"coin_id":"ethereum","amount":1}}"#, "sent"),
            (#"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"ethereum","amount":1},"value":-5}"#, "value"),
            (
                #"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"ethereum","amount":1},"fee":1,"fee_coin_id":"x/y"}"#,
                "fee_coin_id"
            ),
            (
                #"{"sent":{"coin_id":"bitcoin","amount":1},"received":{"coin_id":"ethereum","amount":1},"fee_price":-1,"fee_coin_id":"tether"}"#,
                "fee_price"
            ),
        ]
        for (json, field) in trades {
            let error = assertThrows(.invalidArgument) { try Trade(json: json) }
            XCTAssertEqual(error?.details["field"], .string(field), json)
        }
        let moves: [(String, String)] = [
            (#"{"from":"main","to":"cold","coin_id":"bitcoin","amount":1,"received_amount":1.5}"#, "received_amount"),
            (#"{"from":"main","to":"cold","coin_id":"bitcoin","amount":1,"received_amount":0}"#, "received_amount"),
            (#"{"from":"main","to":"main","coin_id":"bitcoin","amount":1}"#, "to"),
            (#"{"from":"","to":"cold","coin_id":"bitcoin","amount":1}"#, "from"),
            (#"{"from":"main","coin_id":"bitcoin","amount":1}"#, "to"),
            (#"{"from":"main","to":"cold","coin_id":"bitcoin","amount":-1}"#, "amount"),
        ]
        for (json, field) in moves {
            let error = assertThrows(.invalidArgument) { try Move(json: json) }
            XCTAssertEqual(error?.details["field"], .string(field), json)
        }
    }

    /// A price found by division beyond the ledger's 8.5e19 is refused, never clamped.
    func testATradePriceBeyondTheLedgersRangeIsOutOfRange() {
        let trade = Trade(
            timestamp: 0, sent: .init(coinID: "bitcoin", amount: e("0.000000000000000001")), received: .init(coinID: "ethereum", amount: 1),
            value: e("80000000000000000000"))
        let error = assertThrows(.invalidArgument) { try trade.legs(prices: .none, vsCurrency: "usd") }
        XCTAssertEqual(error?.details["reason"], .string("out_of_range"))
        XCTAssertEqual(error?.details["field"], .string("value"))
    }
}
