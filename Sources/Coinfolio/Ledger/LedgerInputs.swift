import Foundation

/// Reads a transaction from a host's JSON: `{"portfolio","coin_id","kind","amount","price","fee",
/// "timestamp","note","external_id"}`. Numbers are read from their decimal text (a JSON number or
/// a string holding one), never through a binary double; `timestamp` is RFC 3339 (default: now);
/// `portfolio` defaults to "main", `fee` to 0; `note` null or left out is no note (null when read
/// back), `""` an empty one. Unknown keys are ignored.
enum TransactionInput {
    static func transaction(from json: String) throws -> Transaction {
        let object = try FlatJSONObject(Array(json.utf8))
        func invalid(_ key: Transaction.JSONKey, _ message: String) -> CoinfolioError {
            CoinfolioError(.invalidArgument, message, details: ["field": .string(key.rawValue)])
        }
        func decimal(_ key: Transaction.JSONKey) throws -> ExactDecimal? {
            switch object[key.rawValue] {
            case nil, .null?: return nil
            case .number(let text)?, .string(let text)?:
                guard let value = ExactDecimal(text) else {
                    throw invalid(
                        key,
                        "\(key.rawValue) must be a decimal number with at most 18 fraction digits, below 8.5e19, not \"\(text.prefix(64))\""
                    )
                }
                return value
            default: throw invalid(key, "\(key.rawValue) must be a number")
            }
        }
        func string(_ key: Transaction.JSONKey) throws -> String? {
            switch object[key.rawValue] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw invalid(key, "\(key.rawValue) must be a string")
            }
        }
        guard let coinID = try string(Transaction.JSONKey.coinID) else { throw invalid(Transaction.JSONKey.coinID, "coin_id is required") }
        guard let kindText = try string(Transaction.JSONKey.kind) else {
            throw invalid(Transaction.JSONKey.kind, "kind is required (buy, sell, transfer_in, transfer_out)")
        }
        guard let kind = TransactionKind(rawValue: kindText) else {
            throw invalid(Transaction.JSONKey.kind, "kind must be buy, sell, transfer_in or transfer_out, not \"\(kindText.prefix(64))\"")
        }
        guard let amount = try decimal(Transaction.JSONKey.amount) else { throw invalid(Transaction.JSONKey.amount, "amount is required") }
        var timestamp = LedgerTimestamp.now()
        if let text = try string(Transaction.JSONKey.timestamp) {
            guard let parsed = LedgerTimestamp.parse(text) else {
                throw invalid(
                    Transaction.JSONKey.timestamp, "timestamp must be RFC 3339 (2024-03-01T12:30:00Z), not \"\(text.prefix(64))\"")
            }
            timestamp = parsed
        }
        return Transaction(
            portfolio: try string(Transaction.JSONKey.portfolio) ?? Transaction.defaultPortfolio, coinID: coinID, kind: kind,
            amount: amount,
            price: try decimal(Transaction.JSONKey.price), fee: try decimal(Transaction.JSONKey.fee) ?? .zero, timestamp: timestamp,
            note: try string(Transaction.JSONKey.note),
            externalID: try string(Transaction.JSONKey.externalID))
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

/// `pnl` options: JSON `{"portfolio": "main", "method": "fifo"|"lifo"|"average"}`.
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

    /// Reads the JSON form. - Throws: `.invalidArgument` for an unknown method.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decodeIfPresent(String.self, forKey: .method) ?? "fifo"
        guard let method = CostBasisMethod(rawValue: text) else {
            throw CoinfolioError.invalid("method must be fifo, lifo or average, not \"\(text)\"")
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

/// `export_csv` options: JSON `{"portfolio": "main"}`.
public struct ExportQuery: Sendable, Decodable {
    /// The portfolio to export (default "main").
    public var portfolio: String

    /// A query for `portfolio`.
    public init(portfolio: String = Transaction.defaultPortfolio) { self.portfolio = portfolio }

    private enum CodingKeys: String, CodingKey { case portfolio }

    /// Reads the JSON form.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(portfolio: try c.decodeIfPresent(String.self, forKey: .portfolio) ?? Transaction.defaultPortfolio)
    }

    /// Reads the JSON form; nil means every default.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(ExportQuery.self, from: json, default: { ExportQuery() })
    }
}
