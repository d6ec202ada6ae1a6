/// The one error type of Coinfolio: a stable `code` (the C status), a human message, and details.
///
/// Every throwing API in Coinfolio throws `CoinfolioError`; the C ABI turns it into
/// `{"status":N,"code":"…","message":"…","details":{…}}` unchanged.
public struct CoinfolioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stable status code, equal to the C ABI's `CF_*` constant. Codes are never reused.
    ///
    /// Each code's number is written once, in its static below, and its name once, in `names`;
    /// `StatusTableTests` holds both equal to the `CF_*` list of include/coinfolio.h.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The C status number.
        public let rawValue: Int32
        /// A code from its C status number.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `CF_OK`: success. No error carries it; the C ABI returns it when nothing was thrown.
        @_spi(ABI) public static let ok = Code(rawValue: 0)
        /// `CF_INVALID_ARGUMENT`: NULL, bad UTF-8, malformed JSON, a non-finite number, a bad id.
        public static let invalidArgument = Code(rawValue: 1)
        /// `CF_NOT_FOUND`: HTTP 404 or an unknown coin id.
        public static let notFound = Code(rawValue: 2)
        /// `CF_NETWORK`: connect, DNS or TLS failure, or a timeout.
        public static let network = Code(rawValue: 3)
        /// `CF_HTTP`: any other non-2xx answer; `details[.httpStatus]` holds the status.
        public static let http = Code(rawValue: 4)
        /// `CF_RATE_LIMITED`: HTTP 429; `details[.retryAfterS]` holds Retry-After when sent. Also
        /// a call refused before sending while a remembered Retry-After runs (`details["sent"]`
        /// false, `retry_after_s` the seconds left).
        public static let rateLimited = Code(rawValue: 5)
        /// `CF_UNAUTHORIZED`: HTTP 401, or CoinGecko error codes 10002, 10005, 10010, 10011, 10012.
        public static let unauthorized = Code(rawValue: 6)
        /// `CF_DECODE`: a 2xx body (or an input body) that is JSON but not the expected shape.
        public static let decode = Code(rawValue: 7)
        /// `CF_STORE`: the database (SQLite or PostgreSQL) failed; the message is the database's own
        /// (without a password), `details["sqlite_code"]` or `details["sqlstate"]` when it gave one.
        public static let store = Code(rawValue: 8)
        /// `CF_NO_DATA`: there is no market snapshot yet; or no price of a coin at a time
        /// (`priceAt`: `details["reason"]` "history_limit", "unknown_coin" or "no_point").
        public static let noData = Code(rawValue: 9)
        /// `CF_INTERNAL`: a defect in Coinfolio.
        public static let internalError = Code(rawValue: 10)

        /// Every code with its snake_case name (the header's `"code"` string), in status order.
        static let names: KeyValuePairs<Code, String> = [
            .ok: "ok",
            .invalidArgument: "invalid_argument",
            .notFound: "not_found",
            .network: "network",
            .http: "http",
            .rateLimited: "rate_limited",
            .unauthorized: "unauthorized",
            .decode: "decode",
            .store: "store",
            .noData: "no_data",
            .internalError: "internal",
        ]

        /// The snake_case name used in error JSON (`"invalid_argument"`, …); `"internal"` for a
        /// number that is no code.
        public var name: String {
            Self.names.first { $0.key == self }?.value ?? "internal"
        }

        /// The snake_case name.
        public var description: String { name }
    }

    /// A detail value: a number, a string, a boolean, or an array or object of details (for
    /// example `symbols: [{symbol, candidates: […]}]`). The error's JSON writes each as that JSON
    /// value, an object's members sorted by key.
    public enum Detail: Equatable, Sendable {
        case number(Double)
        case string(String)
        /// A JSON `true`/`false` (for example `sent: false` when no request went out).
        case bool(Bool)
        /// A JSON array of details.
        case array([Detail])
        /// A JSON object of details, written with its keys sorted.
        case object([String: Detail])

        /// This detail with `transform` applied to every string in it, nested ones included.
        func mappingStrings(_ transform: (String) -> String) -> Detail {
            switch self {
            case .number, .bool: return self
            case .string(let text): return .string(transform(text))
            case .array(let items): return .array(items.map { $0.mappingStrings(transform) })
            case .object(let members): return .object(members.mapValues { $0.mappingStrings(transform) })
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// One sentence for a person; never contains an API key.
    public var message: String
    /// Machine-readable extras under the keys `DetailKey` lists: `reason` (a `Reason`),
    /// `http_status`, `retry_after_s`, `sqlite_code`, `index`, …; read one as `details[.field]`.
    public var details: [String: Detail]

    /// An error of `code` with a message for people and machine-readable details.
    public init(_ code: Code, _ message: String, details: [DetailKey: Detail] = [:]) {
        self.code = code
        self.message = message
        self.details = Self.details(details)
    }

    /// "code: message".
    public var description: String { "\(code.name): \(message)" }

    /// Seconds CoinGecko asked us to wait (`Retry-After`), for `.rateLimited` errors.
    public var retryAfter: Double? {
        if case .number(let value)? = details[.retryAfterS] { return value }
        return nil
    }

    /// The HTTP status of the answer, for `.http` (and most network-classified) errors.
    public var httpStatus: Int? {
        if case .number(let value)? = details[.httpStatus] { return Int(exactly: value) }
        return nil
    }

    static func invalid(_ message: String) -> CoinfolioError {
        CoinfolioError(.invalidArgument, message)
    }

    /// Bytes that are not UTF-8 in the C-string argument `input` (`"coin_id"`, `"body"`): the
    /// message "\(input) is not valid UTF-8", details `{"reason":"bad_utf8","input":input}`.
    @_spi(ABI) public static func badUTF8(input: String) -> CoinfolioError {
        CoinfolioError(
            .invalidArgument, "\(input) is not valid UTF-8",
            details: [.reason: .string(Reason.badUTF8.rawValue), .input: .string(input)])
    }

    /// `"portfolio": null` given to a call that works on one portfolio. Null means every
    /// portfolio of the owner in every call (SPEC §16, §19), never "main": a call that cannot
    /// take them all refuses it (`details.field` "portfolio").
    /// - Parameter call: the call, for the message ("a transaction", "pnl").
    static func everyPortfolioRefused(_ call: String) -> CoinfolioError {
        CoinfolioError(
            .invalidArgument,
            "portfolio null means every portfolio, which \(call) does not take: name one (or leave portfolio out for \"main\")",
            details: [.field: .string("portfolio")])
    }
}

extension CoinfolioError {
    /// This error, said of the input named `input` (`"markets_body"`): `details["input"]` holds
    /// the name and the message starts with it, spaced ("markets body: malformed JSON").
    func about(input: String) -> CoinfolioError {
        var named = self
        named.message = "\(Self.label(input)): \(message)"
        named.details[.input] = .string(input)
        return named
    }

    /// The message without the input name `details["input"]` puts before it ("malformed JSON"
    /// for "markets body: malformed JSON"); the whole message when the error names no input.
    public var messageWithoutInput: String {
        guard case .string(let input)? = details[.input] else { return message }
        let prefix = "\(Self.label(input)): "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    private static func label(_ input: String) -> String { input.replacingOccurrences(of: "_", with: " ") }
}
