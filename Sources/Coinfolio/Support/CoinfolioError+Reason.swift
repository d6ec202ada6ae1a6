extension CoinfolioError {
    /// Why a call failed, beyond its status: the value of `details["reason"]`, one word a program
    /// can branch on (never the message).
    ///
    /// This enum is the one list of reasons. `include/coinfolio.h` lists each value as a
    /// `CF_REASON_*` macro under the statuses, saying when it occurs, and the Python binding's
    /// `coinfolio.Reason` repeats it; `HeaderTests`, `test_header.c` and `test_header.py` hold
    /// the three equal (same values, same order).
    public enum Reason: String, CaseIterable, Sendable {
        /// `.invalidArgument`: a JSON input (a body, config, query, transaction or chart) is not
        /// RFC 8259 JSON; `details["offset"]` is the byte offset the message names.
        case malformedJSON = "malformed_json"
        /// `.invalidArgument`: a JSON string holds a `\uD800`–`\uDFFF` escape outside a
        /// high-low pair, which is no Unicode character; `details["offset"]` as above.
        case loneSurrogate = "lone_surrogate"
        /// `.invalidArgument`: a JSON number beyond ±1.8e308 (a double's range), wherever it
        /// stands, read or not; `details["offset"]` as above.
        case numberOutOfRange = "number_out_of_range"
        /// `.invalidArgument`: JSON nested deeper than 512 arrays and objects; `details["offset"]`.
        case tooDeep = "too_deep"
        /// `.invalidArgument`: an input's bytes are not UTF-8.
        case badUTF8 = "bad_utf8"
        /// `.invalidArgument`: a database path starting with `file:` (an SQLite URI).
        case sqliteURI = "sqlite_uri"
        /// `.invalidArgument`: a database string holding `://` that is no `postgresql://` (or
        /// `postgres://`) URL, never taken for a file path (`details["field"]` "database").
        case unsupportedURL = "unsupported_url"
        /// `.store`: a PostgreSQL URL whose user or password holds an unencoded `@`, `/` or `?`,
        /// refused before connecting.
        case ambiguousURL = "ambiguous_url"
        /// `.invalidArgument`: a PostgreSQL URL given to a build without the PostgreSQL trait
        /// (SPEC §21: an app build with only SQLite).
        case postgresDisabled = "postgres_disabled"
        /// `.invalidArgument`: a holding's coin id with a `,` (held ids are sent comma-joined).
        case comma
        /// `.invalidArgument`: a CSV number with a thousands separator (`"11,426.20"`).
        case thousandsSeparator = "thousands_separator"
        /// `.invalidArgument`: a CSV number with a decimal comma (`"1,5"`).
        case decimalComma = "decimal_comma"
        /// `.invalidArgument`: a CSV number whose one comma could be either (`"1,234"`).
        case ambiguousComma = "ambiguous_comma"
        /// `.invalidArgument`: a ledger change after which an amount, price or sum would pass the
        /// ledger's ±8.5e19 (`details["field"]`).
        case outOfRange = "out_of_range"
        /// `.invalidArgument`: a move between portfolios of different currencies, or a realized or
        /// performance report over every portfolio (`"portfolio": null`) when they differ.
        case currency
        /// `.invalidArgument`: a `vs_currency` or `price_currency` CoinGecko does not price in
        /// (not one of `/simple/supported_vs_currencies`; `details["field"]`).
        case unknownCurrency = "unknown_currency"
        /// `.invalidArgument` from an import (SPEC §18): a file whose header (after the preamble
        /// lines its format may have) is none of the known formats' (or not the asked format's);
        /// `details["header"]` its cells, `details["formats"]` the formats tried.
        case unknownFormat = "unknown_format"
        /// `.invalidArgument` from an import (SPEC §18): symbols that name no one coin (unknown, or
        /// shared by several coins of the snapshot); `details["symbols"]` lists every one
        /// `{"symbol","candidates"}`; nothing was written.
        case unknownSymbols = "unknown_symbols"
        /// `.invalidArgument`: a call from a progress function that would wait for the call
        /// reporting to it (a refresh, load, price update, import or chart download).
        case reentrant
        /// `.decode` (refresh) or `.invalidArgument` (load): a first `/coins/markets` page with
        /// no coin (`[]`, or every row skipped); the previous snapshot is kept.
        case noCoins = "no_coins"
        /// `.store`: the database did not answer within `database_timeout`; `.network`: no
        /// complete HTTP answer within `timeout_ms`.
        case timeout
        /// `.network`: a client call's answer could not be decoded within the call's time bound.
        case deadline
        /// `.http`: an answer body larger than `max_body_bytes` (`details["max_body_bytes"]`),
        /// counted after decompression.
        case bodyTooLarge = "body_too_large"
        /// `.unauthorized`: CoinGecko's error 10012, history beyond the plan's 365 days;
        /// `.noData` from `price_at`: no price stored and the time is beyond the plan's 365 days.
        case historyLimit = "history_limit"
        /// `.noData` from `price_at`: CoinGecko does not know the coin (its range request got 404).
        case unknownCoin = "unknown_coin"
        /// `.noData` from `price_at`: no point that UTC day, stored or sent by CoinGecko (a future
        /// time, or a coin without trades that day).
        case noPoint = "no_point"
        /// `.network`: a proxy variable would carry a loopback request (`details["variable"]`,
        /// `details["sent"]` false); nothing was sent.
        case proxy
        /// `.network`: the host refused the connection.
        case connectionRefused = "connection_refused"
        /// `.network`: the host name could not be resolved.
        case dns
        /// `.network`: the connection closed before a complete answer.
        case connectionLost = "connection_lost"
        /// `.network`: the machine is not connected to a network.
        case offline
        /// `.network`: the TLS handshake or the server's certificate failed.
        case tls
        /// `.network`: the answer ended before its declared length.
        case truncated
        /// `.network`: any other transfer failure (`details["url_error"]`, the URLError code,
        /// when the system gave one).
        case other
    }

    /// An error of `code` whose `details["reason"]` is `reason`, with further details.
    init(_ code: Code, _ message: String, reason: Reason, details: [DetailKey: Detail] = [:]) {
        var details = details
        details[.reason] = .string(reason.rawValue)
        self.init(code, message, details: details)
    }

    /// `details["reason"]` as a `Reason`; nil when the error carries none.
    public var reason: Reason? {
        guard case .string(let text)? = details[.reason] else { return nil }
        return Reason(rawValue: text)
    }
}
