extension CoinfolioError {
    /// The keys of an error's `details` object: what each holds and which errors carry it.
    ///
    /// This enum is the one list of detail keys. Every writer in Coinfolio names a detail only
    /// through it (`CoinfolioError(code, message, details: [.field: …])`,
    /// `error.details[.coinID] = …`), and so does every reader (`DetailKeyTests` refuses a string
    /// key in `Sources/`). `include/coinfolio.h` lists each key as a `CF_DETAIL_*` macro saying
    /// what it holds, and the Python binding's `coinfolio.DetailKey` repeats it; `DetailKeyTests`
    /// and `test_header.py` hold the three equal (same keys, same order), and `test_header.c`
    /// checks the keys the library returns are the header's. The error's JSON writes the keys
    /// sorted, whatever this order.
    public enum DetailKey: String, CaseIterable, Sendable, WireKeys {
        /// A `Reason` (string): why the call failed, beyond its status; errors without one have none.
        case reason
        /// A string: the input the error is said of (`"markets_body"`, `"global_body"`, …); the
        /// message starts with it, spaced.
        case input
        /// A number: the byte offset in a JSON input the message names (`malformed_json`,
        /// `lone_surrogate`, `number_out_of_range`, `too_deep`).
        case offset
        /// A string: the input field (JSON key, option or CSV column) that is wrong, on
        /// `.invalidArgument` (and `out_of_range`, `unknown_currency`, `unsupported_url`).
        case field
        /// A string: the corrected coin id of an id with capitals or spaces (`"bitcoin"` for
        /// `" Bitcoin"`), on `.invalidArgument`.
        case suggestion
        /// A number: the 0-based position of the entry in a list input (holdings, points, moves)
        /// that is wrong, on `.invalidArgument`.
        case index
        /// A string: the coin id the error is about (a holding, a sale short of coins, a coin
        /// detail or price that is missing).
        case coinID = "coin_id"
        /// A string: the `vs_currency` with no market snapshot (`.noData`) or no price.
        case vsCurrency = "vs_currency"
        /// A string: the ISO 8601 time of the transaction or price point the error is about.
        case timestamp
        /// A number: how many coins a sale or move lacks (`.invalidArgument`, an amount beyond
        /// the holding).
        case shortBy = "short_by"
        /// A string: the portfolio named (`.notFound` for an unknown one, `.invalidArgument` for
        /// a name taken or a portfolio still holding transactions).
        case portfolio
        /// A number: how many transactions a portfolio that cannot be deleted still holds.
        case transactions
        /// A string: the transaction id not found (`.notFound`).
        case id
        /// A string: the portfolio currency a move or trade leaves (`currency` reason).
        case fromCurrency = "from_currency"
        /// A string: the portfolio currency a move or trade enters (`currency` reason).
        case toCurrency = "to_currency"
        /// A number: the 1-based line of a CSV file the error is on (`.invalidArgument`).
        case line
        /// A string: the CSV column the error is in, by its header name.
        case column
        /// A number: the 0-based field of a CSV record with a syntax error.
        case fieldIndex = "field_index"
        /// An array of strings: an import file's header cells (`unknown_format`).
        case header
        /// An array of strings: the import formats tried (`unknown_format`).
        case formats
        /// An array of `{"symbol","candidates"}` objects: the import's symbols that name no one
        /// coin (`unknown_symbols`).
        case symbols
        /// A number: the HTTP status of CoinGecko's answer (`.http`, `.notFound`,
        /// `.unauthorized`, `.rateLimited`).
        case httpStatus = "http_status"
        /// A number: CoinGecko's own error code from its body (10002, 10005, 10010, 10011, 10012).
        case errorCode = "error_code"
        /// A number: seconds to wait before the next request (`.rateLimited`: Retry-After, or
        /// what is left of a remembered one).
        case retryAfterS = "retry_after_s"
        /// A boolean, only ever false: no request went out (`.rateLimited` refused before
        /// sending, `proxy`).
        case sent
        /// A number: the largest answer body taken, in bytes (`body_too_large`).
        case maxBodyBytes = "max_body_bytes"
        /// A string: the proxy environment variable that would carry a loopback request (`proxy`).
        case variable
        /// A number: the system's URLError code of a transfer failure (`.network`, when given).
        case urlError = "url_error"
        /// A number: SQLite's result code (`.store`, when SQLite failed; 5 is SQLITE_BUSY).
        case sqliteCode = "sqlite_code"
        /// A string: PostgreSQL's SQLSTATE (`.store`, when the server gave one).
        case sqlstate
        /// The number 1: the PostgreSQL connection was lost during the call (`.store`); the next
        /// call reconnects.
        case connectionLost = "connection_lost"
    }

    /// `keyed` as the string-keyed form `details` holds.
    static func details(_ keyed: [DetailKey: Detail]) -> [String: Detail] {
        Dictionary(uniqueKeysWithValues: keyed.map { ($0.key.rawValue, $0.value) })
    }
}

extension Dictionary where Key == String, Value == CoinfolioError.Detail {
    /// The detail under `key` (`error.details[.field]`): how Coinfolio reads and writes details.
    public subscript(key: CoinfolioError.DetailKey) -> CoinfolioError.Detail? {
        get { self[key.rawValue] }
        set { self[key.rawValue] = newValue }
    }
}
