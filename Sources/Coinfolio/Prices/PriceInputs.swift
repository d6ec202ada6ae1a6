/// The host inputs of the price calls (SPEC §17), read strictly (`FlatJSONObject`: RFC 8259, numbers
/// from their decimal text). Every bad field is `.invalidArgument` with `details.field` naming it;
/// nothing is read from the store or the network before the input is whole.
///
/// Shared rules: `coin_id` follows `CoinID` (no `/`, no control characters, 1–128 bytes);
/// `timestamp` is RFC 3339 text (`LedgerTimestamp`: an offset is normalized to UTC, no zone is UTC,
/// a date alone is 00:00:00Z) within 1970-01-01 … 9999-12-31 (CoinGecko's times are UNIX time);
/// `vs_currency` is one CoinGecko prices in (`CurrencyTable.coinGeckoCodes`; `details.reason`
/// "unknown_currency" otherwise); a price is an exact decimal ≥ 0 with at most 18 fraction digits,
/// at most 8.5e19 (a JSON number or a string holding one: never NaN or infinite).
struct PriceInput {
    let object: FlatJSONObject

    /// - Throws: `.invalidArgument` for input that is not RFC 8259 JSON (`JSONSyntax.checkStrict`:
    ///   a number beyond ±1.8e308 or a lone surrogate anywhere, read or not) or not an object.
    init(json: String) throws {
        let bytes = Array(json.utf8)
        try bytes.withUnsafeBytes { try JSONSyntax.checkStrict($0) }
        object = try FlatJSONObject(bytes)
    }

    static func invalid(_ field: String, _ message: String) -> CoinfolioError {
        CoinfolioError(.invalidArgument, message, details: [.field: .string(field)])
    }

    func string(_ key: String) throws -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw Self.invalid(key, "\(key) must be a string")
        }
    }

    func coinID() throws -> String {
        guard let id = try string("coin_id") else { throw Self.invalid("coin_id", "coin_id is required") }
        try Self.validate(coinID: id)
        return id
    }

    static func validate(coinID id: String) throws {
        do { try CoinID.validate(id) } catch var error as CoinfolioError {
            error.details[.field] = .string("coin_id")
            throw error
        }
    }

    /// `timestamp` in ms; nil when absent or null.
    func time(_ key: String = "timestamp") throws -> Int64? {
        guard let text = try string(key) else { return nil }
        guard let time = LedgerTimestamp.parse(text) else {
            throw Self.invalid(key, "\(key) must be RFC 3339 (2024-03-01T12:30:00Z), not \"\(text.prefix(64))\"")
        }
        try Self.validate(time: time, field: key)
        return time
    }

    static func validate(time: Int64, field: String = "timestamp") throws {
        guard time >= 0, time <= UTCDay.latestMilliseconds else {
            throw invalid(field, "\(field) must be between 1970-01-01 and 9999-12-31 (UTC): prices are in UNIX time")
        }
    }

    func vsCurrency() throws -> VsCurrency? {
        guard let code = try string("vs_currency") else { return nil }
        let currency: VsCurrency
        do { currency = try VsCurrency(code) } catch var error as CoinfolioError {
            error.details[.field] = .string("vs_currency")
            throw error
        }
        try currency.requireCoinGeckoQuote()
        return currency
    }

    /// A price; nil when absent or null.
    func price(_ key: String = "price") throws -> ExactDecimal? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?, .string(let text)?:
            guard NumberText.spellsNumber(text), let value = ExactDecimal(text) else {
                throw Self.invalid(
                    key, "\(key) must be a decimal number with at most 18 fraction digits, at most 8.5e19, not \"\(text.prefix(64))\"")
            }
            try Self.validate(price: value, field: key)
            return value
        default: throw Self.invalid(key, "\(key) must be a number")
        }
    }

    static func validate(price: ExactDecimal, field: String = "price") throws {
        guard !price.isNegative else { throw invalid(field, "\(field) must be 0 or more, not \(price)") }
    }

    /// A whole number within `range`; nil when absent or null.
    func wholeNumber(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let value = Int(text), range.contains(value) else {
                throw Self.invalid(key, "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        default: throw Self.invalid(key, "\(key) must be a whole number")
        }
    }
}

/// `price_at`'s question: `{"coin_id","timestamp","vs_currency"}` (vs_currency optional: the
/// engine's).
public struct PriceQuery: Hashable, Sendable {
    /// The coin.
    public var coinID: String
    /// The moment, ms since 1970-01-01T00:00:00Z.
    public var time: Int64
    /// The quote currency; nil for the engine's `vs_currency`.
    public var vsCurrency: VsCurrency?

    /// A question.
    /// - Throws: `.invalidArgument` (`details.field`) for a bad id, a time outside 1970…9999 or a
    ///   currency CoinGecko does not price in (`details.reason` "unknown_currency").
    public init(coinID: String, time: Int64, vsCurrency: VsCurrency? = nil) throws {
        try PriceInput.validate(coinID: coinID)
        try PriceInput.validate(time: time)
        try vsCurrency?.requireCoinGeckoQuote()
        self.coinID = coinID
        self.time = time
        self.vsCurrency = vsCurrency
    }

    /// Reads the JSON form; `coin_id` and `timestamp` are required.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad field (`details.field`).
    public init(json: String) throws {
        let input = try PriceInput(json: json)
        let coinID = try input.coinID()
        guard let time = try input.time() else { throw PriceInput.invalid("timestamp", "timestamp is required") }
        try self.init(coinID: coinID, time: time, vsCurrency: try input.vsCurrency())
    }
}

/// `set_price`'s input: `{"coin_id","vs_currency","timestamp","price"}`. A timestamp makes a
/// historical point (for that moment; `price_at` takes it for its whole UTC day); without one it
/// is the coin's current price (for a coin the snapshot does not have). A null or absent price
/// removes the manual price.
public struct PriceSetting: Hashable, Sendable {
    /// The coin.
    public var coinID: String
    /// The quote currency; nil for the engine's `vs_currency`.
    public var vsCurrency: VsCurrency?
    /// The moment (ms since 1970) of a historical point; nil for the current price.
    public var time: Int64?
    /// The price of one unit (≥ 0, exact); nil removes it.
    public var price: ExactDecimal?

    /// A setting.
    /// - Throws: `.invalidArgument` (`details.field`) for a bad id, time or currency, or a
    ///   negative price.
    public init(coinID: String, vsCurrency: VsCurrency? = nil, time: Int64?, price: ExactDecimal?) throws {
        try PriceInput.validate(coinID: coinID)
        if let time { try PriceInput.validate(time: time) }
        if let price { try PriceInput.validate(price: price) }
        try vsCurrency?.requireCoinGeckoQuote()
        self.coinID = coinID
        self.vsCurrency = vsCurrency
        self.time = time
        self.price = price
    }

    /// Reads the JSON form; `coin_id` is required.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad field (`details.field`).
    public init(json: String) throws {
        let input = try PriceInput(json: json)
        try self.init(coinID: try input.coinID(), vsCurrency: try input.vsCurrency(), time: try input.time(), price: try input.price())
    }
}

/// `fill_prices`' options: `{"portfolio": name | null (every portfolio of the owner),
/// "max_requests": 20 (0…1000: range requests this call may send)}`.
public struct FillOptions: Hashable, Sendable {
    /// The portfolio whose pending prices to fill; nil for every portfolio of the owner.
    public var portfolio: String?
    /// The most range requests the call sends; rows that would need more stay pending with the
    /// reason "max_requests".
    public var maxRequests: Int

    /// The default bound of requests.
    public static let defaultMaxRequests = 20
    /// The largest bound accepted.
    public static let largestMaxRequests = 1000

    /// The defaults: every portfolio, at most 20 requests.
    public init() {
        portfolio = nil
        maxRequests = Self.defaultMaxRequests
    }

    /// Options.
    /// - Throws: `.invalidArgument` for a bad portfolio name or a bound outside 0…1000.
    public init(portfolio: String?, maxRequests: Int) throws {
        if let portfolio { try Transaction.validatePortfolioName(portfolio) }
        guard (0...Self.largestMaxRequests).contains(maxRequests) else {
            throw PriceInput.invalid("max_requests", "max_requests must be a whole number from 0 to \(Self.largestMaxRequests)")
        }
        self.portfolio = portfolio
        self.maxRequests = maxRequests
    }

    /// Reads the JSON form; nil means every default.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad field (`details.field`).
    public init(json: String?) throws {
        guard let json else {
            self.init()
            return
        }
        let input = try PriceInput(json: json)
        try self.init(
            portfolio: try input.string("portfolio"),
            maxRequests: try input.wholeNumber("max_requests", in: 0...Self.largestMaxRequests) ?? Self.defaultMaxRequests)
    }
}
