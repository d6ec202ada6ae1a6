import Foundation

/// Reads a transaction from a host's JSON: `{"portfolio","coin_id","kind","amount","price","fee",
/// "fee_coin_id","fee_price","income_type","timestamp","note","external_id"}`. Numbers are read
/// from their decimal text (a JSON number or a string holding one), never through a binary
/// double; `timestamp` is RFC 3339 (default: now); `portfolio` defaults to "main", `fee` to 0;
/// `note` null or left out is no note (null when read back), `""` an empty one. `price_currency`
/// (SPEC §17) says price, fee and fee_price are in that currency (lower-cased; null: the
/// portfolio's). Keys the engine writes (`id`, `group_id`, `price_source`, `price_at`,
/// `original_price`) and unknown keys are ignored. The keys are `Transaction.JSONKey`'s, the
/// list the writer writes.
enum TransactionInput {
    static func transaction(from json: String) throws -> Transaction {
        let read = LedgerJSONFields(try FlatJSONObject(json))
        typealias Key = Transaction.JSONKey
        guard let coinID = try read.string(Key.coinID) else { throw read.invalid(Key.coinID, "coin_id is required") }
        guard let kindText = try read.string(Key.kind) else { throw read.invalid(Key.kind, "kind is required (\(TransactionKind.list))") }
        guard let kind = TransactionKind(rawValue: kindText) else {
            throw read.invalid(Key.kind, "kind must be \(TransactionKind.list), not \"\(kindText.prefix(64))\"")
        }
        guard let amount = try read.decimal(Key.amount) else { throw read.invalid(Key.amount, "amount is required") }
        var incomeType: IncomeType?
        if let text = try read.string(Key.incomeType) {
            guard let type = IncomeType(rawValue: text) else {
                throw read.invalid(Key.incomeType, "income_type must be \(IncomeType.list), not \"\(text.prefix(64))\"")
            }
            incomeType = type
        }
        if read.object["portfolio"] == .null { throw CoinfolioError.everyPortfolioRefused("a transaction") }
        return Transaction(
            portfolio: try read.string(Key.portfolio) ?? Transaction.defaultPortfolio, coinID: coinID, kind: kind, amount: amount,
            price: try read.decimal(Key.price), fee: try read.decimal(Key.fee) ?? .zero, timestamp: try read.timestamp(),
            note: try read.string(Key.note), externalID: try read.string(Key.externalID), feeCoinID: try read.string(Key.feeCoinID),
            feePrice: try read.decimal(Key.feePrice), incomeType: incomeType,
            priceCurrency: try read.string(Key.priceCurrency)?.lowercased())
    }
}

/// The typed fields of a ledger input object (a transaction, a trade, a move), each refused with
/// `details.field` naming its key (a dotted path inside a nested object: `"sent.amount"`).
struct LedgerJSONFields {
    let object: FlatJSONObject
    /// The path of `object` inside the input ("" at the top, "sent." inside "sent").
    var prefix = ""

    init(_ object: FlatJSONObject, prefix: String = "") {
        self.object = object
        self.prefix = prefix
    }

    /// The object member `key` (`"sent":{…}`), nil when absent or null.
    func object(_ key: String) throws -> LedgerJSONFields? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let members)?: return LedgerJSONFields(members, prefix: prefix + key + ".")
        default: throw invalid(key, "\(prefix + key) must be an object")
        }
    }

    func invalid(_ key: String, _ message: String) -> CoinfolioError {
        CoinfolioError(.invalidArgument, message, details: [.field: .string(prefix + key)])
    }

    /// An exact decimal (a JSON number, or a string whose whole content is one by JSON's
    /// grammar: not "+1", "1.", ".5" or "01"), nil when absent or null.
    func decimal(_ key: String) throws -> ExactDecimal? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?, .string(let text)?:
            guard NumberText.spellsNumber(text), let value = ExactDecimal(text) else {
                throw invalid(
                    key,
                    "\(prefix + key) must be a decimal number with at most 18 fraction digits, at most 8.5e19, not \"\(text.prefix(64))\"")
            }
            return value
        default: throw invalid(key, "\(prefix + key) must be a number")
        }
    }

    /// A string, nil when absent or null.
    func string(_ key: String) throws -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw invalid(key, "\(prefix + key) must be a string")
        }
    }

    /// A key of a shape's list (`Transaction.JSONKey.amount`) read as above.
    func decimal<Key: WireKeys>(_ key: Key) throws -> ExactDecimal? { try decimal(key.rawValue) }
    func string<Key: WireKeys>(_ key: Key) throws -> String? { try string(key.rawValue) }
    func invalid<Key: WireKeys>(_ key: Key, _ message: String) -> CoinfolioError { invalid(key.rawValue, message) }

    /// `timestamp` as RFC 3339 (ms since the epoch, UTC); now when absent or null.
    func timestamp() throws -> Int64 {
        guard let text = try string("timestamp") else { return LedgerTimestamp.now() }
        guard let parsed = LedgerTimestamp.parse(text) else {
            throw invalid("timestamp", "timestamp must be RFC 3339 (2024-03-01T12:30:00Z), not \"\(text.prefix(64))\"")
        }
        return parsed
    }

    /// `price_currency` must be absent or null: prices are in the portfolio's currency.
    func refuseOtherCurrency() throws {
        guard try string("price_currency") == nil else {
            throw invalid(
                "price_currency", "prices in another currency are not converted yet: give price and fee in the portfolio's currency")
        }
    }
}

extension Transaction {
    /// Reads the JSON form a host sends to `add_transaction` (see `TransactionInput`) and checks it.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad field (`details.field`).
    public init(json: String) throws {
        self = try TransactionInput.transaction(from: json)
        try validate()
    }
}

/// `pnl` options: JSON `{"portfolio": "main", "method": "fifo"|"lifo"|"hifo"|"lofo"|"average"}`.
public struct PnLOptions: Sendable, Decodable {
    /// The portfolio (default "main").
    public var portfolio: String
    /// The cost basis method (default fifo).
    public var method: CostBasisMethod

    /// Options; defaults "main" and fifo.
    public init(portfolio: String = Transaction.defaultPortfolio, method: CostBasisMethod = .fifo) {
        self.portfolio = portfolio
        self.method = method
    }

    private enum CodingKeys: String, CodingKey { case portfolio, method }

    /// Reads the JSON form. - Throws: `.invalidArgument` for an unknown method, and (field
    ///   `portfolio`) for `"portfolio": null`: null is every portfolio in every call that takes a
    ///   portfolio (SPEC §16, §19), and pnl does not yet report them together — never "main".
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.portfolio), try c.decodeNil(forKey: .portfolio) {
            throw CoinfolioError.everyPortfolioRefused("pnl")
        }
        let text = try c.decodeIfPresent(String.self, forKey: .method) ?? "fifo"
        guard let method = CostBasisMethod(rawValue: text) else {
            throw CoinfolioError(
                .invalidArgument, "method must be \(CostBasisMethod.list), not \"\(text)\"", details: [.field: .string("method")])
        }
        self.init(portfolio: try c.decodeIfPresent(String.self, forKey: .portfolio) ?? Transaction.defaultPortfolio, method: method)
    }

    /// Reads the JSON form; nil means every default.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(PnLOptions.self, from: json, default: { PnLOptions() })
    }
}

/// A portfolio: `{"name","vs_currency"}`.
public struct PortfolioInfo: Hashable, Sendable, Decodable {
    /// Its name.
    public var name: String
    /// Its quote currency: prices and fees of its transactions are in it.
    public var vsCurrency: String

    /// A portfolio description.
    public init(name: String, vsCurrency: String) {
        self.name = name
        self.vsCurrency = vsCurrency
    }

    /// A portfolio's keys, read and written.
    enum JSONKey: String, CodingKey, WireKeys {
        case name
        case vsCurrency = "vs_currency"
    }

    /// The key of the portfolios answer.
    enum AnswerKey: String, WireKeys {
        case portfolios
    }

    /// Reads `{"name", "vs_currency"}`; `vs_currency` may be absent (the engine's is used).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        guard let name = try c.decodeIfPresent(String.self, forKey: .name) else { throw CoinfolioError.invalid("name is required") }
        self.init(name: name, vsCurrency: try c.decodeIfPresent(String.self, forKey: .vsCurrency) ?? "")
    }
}

extension Array where Element == PortfolioInfo {
    /// `{"portfolios":[{"name","vs_currency"}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(PortfolioInfo.AnswerKey.portfolios); w.beginArray()
        for portfolio in self {
            w.beginObject()
            w.key(PortfolioInfo.JSONKey.name); w.string(portfolio.name)
            w.key(PortfolioInfo.JSONKey.vsCurrency); w.string(portfolio.vsCurrency)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}

/// A page of transactions: `{"transactions":[…],"total":n}`.
public struct TransactionPage: Sendable {
    /// The page, in ledger order (timestamp, then insertion).
    public var transactions: [Transaction]
    /// How many matched before limit and offset.
    public var total: Int

    /// The keys of a page.
    enum JSONKey: String, WireKeys {
        case transactions
        case total
    }

    /// `{"transactions":[{"id","portfolio","coin_id","kind","amount","price","fee","timestamp","note","external_id"}…],"total":n}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: transactions.count * 220 + 32)
        w.beginObject()
        w.key(JSONKey.transactions); w.beginArray()
        for transaction in transactions { w.beginObject(); transaction.writeJSON(to: &w); w.endObject() }
        w.endArray()
        w.key(JSONKey.total); w.number(total)
        w.endObject()
        return w.bytes
    }
}

/// What a CSV import did: `{"imported":n,"skipped":n}`.
public struct ImportSummary: Hashable, Sendable {
    /// Rows stored.
    public var imported: Int
    /// Rows whose external_id the portfolio already had (not stored again).
    public var skipped: Int

    /// The keys of the summary.
    enum JSONKey: String, WireKeys {
        case imported
        case skipped
    }

    /// `{"imported":n,"skipped":n}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.imported); w.number(imported)
        w.key(JSONKey.skipped); w.number(skipped)
        w.endObject()
        return w.bytes
    }
}

/// `export_csv` options: JSON `{"portfolio": "main"}`; `"portfolio": null` exports every portfolio
/// of the owner in one file (a move's two sides then stay one group through an import).
public struct ExportQuery: Sendable, Decodable {
    /// The portfolio to export (default "main"); nil: every portfolio.
    public var portfolio: String?

    /// A query for `portfolio` (nil: every portfolio).
    public init(portfolio: String? = Transaction.defaultPortfolio) { self.portfolio = portfolio }

    private enum CodingKeys: String, CodingKey { case portfolio }

    /// Reads the JSON form: a missing `portfolio` is "main", a null one every portfolio.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.contains(.portfolio) else {
            self.init()
            return
        }
        self.init(portfolio: try c.decodeNil(forKey: .portfolio) ? nil : try c.decode(String.self, forKey: .portfolio))
    }

    /// Reads the JSON form; nil means every default.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(ExportQuery.self, from: json, default: { ExportQuery() })
    }
}
