import Foundation

/// One ledger row: `{"id","portfolio","coin_id","kind","amount","price","fee","timestamp","note",
/// "external_id","group_id","income_type","fee_coin_id","fee_price","price_source","price_at",
/// "original_price","price_currency"}`.
///
/// Amounts are coin units; `price` (per unit) and `fee` are in the portfolio's quote currency —
/// except that with `fee_coin_id` the fee is in units of that coin. All are exact decimals. The
/// timestamp is milliseconds since 1970-01-01T00:00:00Z (UTC), written as RFC 3339 in JSON.
public struct Transaction: Hashable, Sendable {
    /// The stored id (nil before the transaction is stored); a string in JSON.
    public var id: Int64?
    /// The portfolio's name (default `"main"`).
    public var portfolio: String
    /// CoinGecko coin id.
    public var coinID: String
    /// buy, sell, transfer_in, transfer_out, fee or income.
    public var kind: TransactionKind
    /// Coin units, > 0.
    public var amount: ExactDecimal
    /// Price per unit in the portfolio's currency, ≥ 0; nil for transfers, and for a buy, sell,
    /// fee or income whose price is pending (SPEC §17).
    public var price: ExactDecimal?
    /// Fee, ≥ 0: in the portfolio's currency, or in units of `feeCoinID` when that is set.
    public var fee: ExactDecimal
    /// The coin the fee was paid in (nil: the portfolio's currency). The engine writes the fee as
    /// a linked `fee` row of that coin in the same group (SPEC §16).
    public var feeCoinID: String?
    /// The fee coin's price per unit in the portfolio's currency at the transaction's time, ≥ 0,
    /// as the user gave it (nil: not given; the fee row then takes another price or is pending).
    public var feePrice: ExactDecimal?
    /// The kind of income; required for `income`, nil for every other kind.
    public var incomeType: IncomeType?
    /// The group of rows one call wrote together (a trade's legs, a fee row, a move's two
    /// sides); nil for a row written alone. Deleting any row of a group deletes the group.
    public var groupID: String?
    /// Where `price` came from: `user`, `pending` (price nil), `coingecko` or `manual`; nil for
    /// transfers.
    public var priceSource: PriceSource?
    /// The time of the stored price point `price` was taken from (ms since the epoch, UTC); nil
    /// for a price the user gave and for a pending one. For a price converted from
    /// `priceCurrency`, the time of the point in the portfolio's currency the conversion used.
    public var priceAt: Int64?
    /// The currency the user gave the price, fee and fee price in when it is not the portfolio's
    /// (SPEC §17); nil when they were given in the portfolio's currency. The engine converts them
    /// with the coin's own prices in both currencies on the transaction's UTC day (price ×
    /// p_portfolio ÷ p_given); until both points exist the price is pending and `fee` and
    /// `feePrice` are still in this currency.
    public var priceCurrency: String?
    /// The price per unit as given, in `priceCurrency`; nil without one.
    public var originalPrice: ExactDecimal?
    /// Milliseconds since the Unix epoch, UTC.
    public var timestamp: Int64
    /// Free text (at most `Transaction.maximumNoteBytes` bytes of UTF-8); nil for no note (JSON
    /// `null`, kept apart from an empty note `""`).
    public var note: String?
    /// An id from the place the row came from (an exchange export); unique per portfolio, so that
    /// importing the same row again skips it.
    public var externalID: String?

    /// The default portfolio's name.
    public static let defaultPortfolio = "main"
    /// The longest note, in UTF-8 bytes.
    public static let maximumNoteBytes = 65_536
    /// The longest external id, in UTF-8 bytes.
    public static let maximumExternalIDBytes = 256

    /// A transaction; call `validate()` (the engine does) before storing it. `priceSource`
    /// defaults to `user` when a price is given, `pending` when a buy, sell, fee or income has
    /// none, nil for transfers.
    public init(
        id: Int64? = nil, portfolio: String = Transaction.defaultPortfolio, coinID: String, kind: TransactionKind,
        amount: ExactDecimal, price: ExactDecimal? = nil, fee: ExactDecimal = .zero, timestamp: Int64, note: String? = nil,
        externalID: String? = nil, feeCoinID: String? = nil, feePrice: ExactDecimal? = nil, incomeType: IncomeType? = nil,
        groupID: String? = nil, priceSource: PriceSource? = nil, priceAt: Int64? = nil, priceCurrency: String? = nil,
        originalPrice: ExactDecimal? = nil
    ) {
        self.id = id
        self.portfolio = portfolio
        self.coinID = coinID
        self.kind = kind
        self.amount = amount
        self.price = price
        self.fee = fee
        self.timestamp = timestamp
        self.note = note
        self.externalID = externalID
        self.feeCoinID = feeCoinID
        self.feePrice = feePrice
        self.incomeType = incomeType
        self.groupID = groupID
        self.priceSource = priceSource ?? (kind.hasPrice ? (price == nil ? .pending : .user) : nil)
        self.priceAt = priceAt
        self.priceCurrency = priceCurrency
        self.originalPrice = originalPrice
    }

    /// A transaction's keys: what the ledger writes and, but for those the engine sets (`id`, `group_id`, `price_source`, `price_at`,
    /// `original_price`), what `add_transaction` reads.
    enum JSONKey: String, WireKeys {
        case id
        case portfolio
        case coinID = "coin_id"
        case kind
        case amount
        case price
        case fee
        case timestamp
        case note
        case externalID = "external_id"
        case groupID = "group_id"
        case incomeType = "income_type"
        case feeCoinID = "fee_coin_id"
        case feePrice = "fee_price"
        case priceSource = "price_source"
        case priceAt = "price_at"
        case originalPrice = "original_price"
        case priceCurrency = "price_currency"
    }

    /// The transaction's JSON object members, in `JSONKey`'s order: written as one run of bytes,
    /// each `"key":` a literal (the text `JSONWriter.key` writes; `TransactionJSONTests` ties the
    /// literals to `JSONKey`), strings quoted and escaped as `JSONWriter.string`, numbers and
    /// `null` without making a `String`.
    func writeJSON(to w: inout JSONWriter) {
        w.rawBytes { b in
            func literal(_ text: StaticString) { JSONWriter.append(literal: text, to: &b) }
            func string(_ value: String?) {
                if let value { JSONWriter.appendQuoted(value, to: &b) } else { literal("null") }
            }
            func decimal(_ value: ExactDecimal?) {
                if let value { value.appendText(to: &b) } else { literal("null") }
            }
            literal(#""id":"#)
            if let id {
                b.append(UInt8(ascii: "\""))
                JSONWriter.appendInteger(id, to: &b)
                b.append(UInt8(ascii: "\""))
            } else {
                literal("null")
            }
            literal(#","portfolio":"#); string(portfolio)
            literal(#","coin_id":"#); string(coinID)
            literal(#","kind":"#); string(kind.rawValue)
            literal(#","amount":"#); decimal(amount)
            literal(#","price":"#); decimal(price)
            literal(#","fee":"#); decimal(fee)
            // `LedgerTimestamp.format`'s text (no escapes), appended without making a String.
            literal(#","timestamp":""#)
            LedgerTimestamp.append(timestamp, to: &b)
            b.append(UInt8(ascii: "\""))
            literal(#","note":"#); string(note)
            literal(#","external_id":"#); string(externalID)
            literal(#","group_id":"#); string(groupID)
            literal(#","income_type":"#); string(incomeType?.rawValue)
            literal(#","fee_coin_id":"#); string(feeCoinID)
            literal(#","fee_price":"#); decimal(feePrice)
            literal(#","price_source":"#); string(priceSource?.rawValue)
            literal(#","price_at":"#)
            if let priceAt { JSONWriter.appendInteger(Int64(priceAt), to: &b) } else { literal("null") }
            literal(#","original_price":"#); decimal(originalPrice)
            literal(#","price_currency":"#); string(priceCurrency)
        }
    }

    /// `{"id","portfolio","coin_id","kind","amount","price","fee","timestamp","note","external_id",
    /// "group_id","income_type","fee_coin_id","fee_price","price_source","price_at","original_price",
    /// "price_currency"}` (`price_at` in t_ms)
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); writeJSON(to: &w); w.endObject()
        return w.bytes
    }
}

extension JSONWriter {
    /// An exact decimal as a JSON number (its shortest text), or null.
    mutating func decimal(_ value: ExactDecimal?) {
        guard let value else { null(); return }
        rawBytes { value.appendText(to: &$0) }
    }
}
