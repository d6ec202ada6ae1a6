import Foundation

/// What a ledger transaction does to a holding (SPEC §12).
public enum TransactionKind: String, Sendable, CaseIterable {
    /// Units bought at `price` per unit; the fee adds to the lot's cost.
    case buy
    /// Units sold at `price` per unit; the fee reduces the proceeds.
    case sell
    /// Units arriving from elsewhere, of unknown cost (no price).
    case transferIn = "transfer_in"
    /// Units leaving to elsewhere; removes lots like a sell and realizes nothing (no price).
    case transferOut = "transfer_out"

    /// Whether the kind adds units (buy, transfer_in).
    public var adds: Bool { self == .buy || self == .transferIn }
    /// Whether the kind carries a price (buy, sell).
    public var isTrade: Bool { self == .buy || self == .sell }

    /// The kind whose name is `utf8` (a database column read in place, without a `String`), or
    /// nil for any other text.
    init?(utf8: UnsafeBufferPointer<UInt8>) {
        guard let kind = Self.allCases.first(where: { $0.rawValue.utf8.elementsEqual(utf8) }) else { return nil }
        self = kind
    }
}

/// One ledger row: `{"id","portfolio","coin_id","kind","amount","price","fee","timestamp","note","external_id"}`.
///
/// Amounts are coin units; `price` (per unit) and `fee` are in the portfolio's quote currency.
/// All three are exact decimals. The timestamp is milliseconds since 1970-01-01T00:00:00Z (UTC),
/// written as RFC 3339 in JSON.
public struct Transaction: Hashable, Sendable {
    /// The stored id (nil before the transaction is stored); a string in JSON.
    public var id: Int64?
    /// The portfolio's name (default `"main"`).
    public var portfolio: String
    /// CoinGecko coin id.
    public var coinID: String
    /// buy, sell, transfer_in or transfer_out.
    public var kind: TransactionKind
    /// Coin units, > 0.
    public var amount: ExactDecimal
    /// Price per unit in the portfolio's currency, ≥ 0; required for buy and sell, nil for transfers.
    public var price: ExactDecimal?
    /// Fee in the portfolio's currency, ≥ 0.
    public var fee: ExactDecimal
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

    /// A transaction; call `validate()` (the engine does) before storing it.
    public init(
        id: Int64? = nil, portfolio: String = Transaction.defaultPortfolio, coinID: String, kind: TransactionKind,
        amount: ExactDecimal, price: ExactDecimal? = nil, fee: ExactDecimal = .zero, timestamp: Int64, note: String? = nil,
        externalID: String? = nil
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
    }

    /// Checks the rules of SPEC §12: a valid coin id and portfolio name, amount > 0, price ≥ 0
    /// and present exactly for buy and sell, fee ≥ 0, a note of at most 64 KiB without NUL, an
    /// external id of 1…256 bytes without control characters.
    /// - Throws: `.invalidArgument` with `details.field` naming the offending field.
    public func validate() throws {
        try Transaction.validatePortfolioName(portfolio)
        do {
            try CoinID.validateHeldAsListable(coinID)
            // Plain lower-case ASCII ids (nearly all) need no upper-case or spacing suggestion.
            let plain = coinID.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !(0x41...0x5A).contains($0) }
            if plain { try CoinID.validate(coinID) } else { try CoinID.validateHolding(coinID) }
        } catch var error as CoinfolioError {
            error.details["field"] = .string("coin_id")
            throw error
        }
        func refuse(_ field: String, _ message: String) -> CoinfolioError {
            CoinfolioError(.invalidArgument, message, details: ["field": .string(field)])
        }
        guard !amount.isNegative, !amount.isZero else { throw refuse("amount", "amount must be above 0, not \(amount)") }
        if kind.isTrade {
            guard let price else { throw refuse("price", "a \(kind.rawValue) needs a price per unit") }
            guard !price.isNegative else { throw refuse("price", "price must be 0 or more, not \(price)") }
        } else if price != nil {
            throw refuse("price", "a \(kind.rawValue) has no price: its cost is unknown (leave price out or null)")
        }
        guard !fee.isNegative else { throw refuse("fee", "fee must be 0 or more, not \(fee)") }
        if let note {
            guard note.utf8.count <= Transaction.maximumNoteBytes else {
                throw refuse("note", "note is \(note.utf8.count) bytes; at most \(Transaction.maximumNoteBytes) are kept")
            }
            guard !note.utf8.contains(0) else { throw refuse("note", "note contains a NUL character") }
        }
        if let externalID {
            guard !externalID.isEmpty, externalID.utf8.count <= Transaction.maximumExternalIDBytes else {
                throw refuse("external_id", "external_id must be 1 to \(Transaction.maximumExternalIDBytes) bytes")
            }
            guard !externalID.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw refuse("external_id", "external_id contains a control character")
            }
        }
        guard timestamp >= Transaction.earliestTimestamp, timestamp <= Transaction.latestTimestamp else {
            throw refuse("timestamp", "timestamp must be between years 1 and 9999")
        }
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in milliseconds.
    static let earliestTimestamp: Int64 = -62_135_596_800_000
    static let latestTimestamp: Int64 = 253_402_300_799_999

    /// A portfolio name: 1…128 bytes of UTF-8 without control characters or surrounding spaces.
    /// - Throws: `.invalidArgument` with `details.field` = "portfolio".
    public static func validatePortfolioName(_ name: String) throws {
        // Fast path: printable ASCII without a space at either end.
        let bytes = name.utf8
        if !bytes.isEmpty, bytes.count <= 128, bytes.first != 0x20, bytes.last != 0x20, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return
        }
        let bad =
            name.isEmpty || name.utf8.count > 128
            || name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            || name.first?.isWhitespace == true || name.last?.isWhitespace == true
        guard !bad else {
            throw CoinfolioError(
                .invalidArgument, "portfolio name must be 1 to 128 characters, without control characters or surrounding spaces",
                details: ["field": .string("portfolio")])
        }
    }

    /// A transaction's keys: what the ledger writes and what `add_transaction` reads (all but `id`).
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
    }

    /// The transaction's JSON object members.
    func writeJSON(to w: inout JSONWriter) {
        w.key(JSONKey.id); w.string(id.map { String($0) })
        w.key(JSONKey.portfolio); w.string(portfolio)
        w.key(JSONKey.coinID); w.string(coinID)
        w.key(JSONKey.kind); w.string(kind.rawValue)
        w.key(JSONKey.amount); w.decimal(amount)
        w.key(JSONKey.price); w.decimal(price)
        w.key(JSONKey.fee); w.decimal(fee)
        w.key(JSONKey.timestamp); w.string(LedgerTimestamp.format(timestamp))
        w.key(JSONKey.note); w.string(note)
        w.key(JSONKey.externalID); w.string(externalID)
    }

    /// `{"id","portfolio","coin_id","kind","amount","price","fee","timestamp","note","external_id"}`
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
