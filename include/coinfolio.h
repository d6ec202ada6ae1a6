/**
 * @file
 * coinfolio.h — the C ABI of Coinfolio, a crypto portfolio engine.
 *
 * Coinfolio downloads market data from the CoinGecko API v3, keeps the user's holdings in a
 * durable SQLite file or on a PostgreSQL server, and computes what a tracker's home, portfolio
 * and coin detail screens show.
 * JSON crosses this boundary in both directions.
 *
 * Conventions
 * -----------
 * - Every fallible function returns an int status (CF_OK, 0, on success) and takes
 *   `char **out_error` as its last argument. out_error may be NULL. On failure *out_error receives
 *   a JSON object {"status":N,"code":"…","message":"…","details":{…}}; on success it is set to NULL.
 * - Outputs (`char **out_json`, handles) are set to NULL on entry and filled only on CF_OK.
 * - Every string the library returns is owned by the caller and must be released with
 *   cf_string_free() — never free(). cf_version() is the one exception: it is static.
 * - Input strings are UTF-8 and borrowed for the duration of the call. JSON inputs are top-level
 *   objects; unknown keys are ignored. A key given twice in one object reads as its later member
 *   (as JavaScript's JSON.parse and Python's json do), in every input and every CoinGecko body.
 *   Output objects only ever gain keys.
 * - Unknown values are JSON null (never 0; JSON has no NaN). Prices and values are in the
 *   configured vs_currency; percentages are in percent units (1.5 means 1.5 %); durations in
 *   seconds unless the name says otherwise.
 * - Handles (cf_store, cf_client, cf_engine) may be used from any thread; each serializes
 *   internally. *_close(NULL) is a no-op. As with sqlite3_close, a handle must not be used once
 *   *_close has been called, and *_close must not race with other calls on the same handle: the
 *   host ends its own calls before it closes. Functions that may use the network say so; they
 *   block, bounded by the configured timeouts and retries.
 * - Besides the statuses each function lists, every fallible function returns
 *   CF_INVALID_ARGUMENT for a NULL handle or output pointer, and CF_INTERNAL for a defect.
 * - No input can crash the host process: bad input returns CF_INVALID_ARGUMENT with a message.
 */
#ifndef COINFOLIO_H
#define COINFOLIO_H

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this ABI. Incompatible changes add a `_v2` function and keep the old one. */
#define CF_ABI_VERSION 1

/** @name Status codes
 * Status codes: stable, never reused. The "code" string of an error object is given beside each.
 * Every JSON input (bodies, configs, queries, transactions, charts) is read by one strict reader
 * (RFC 8259), in members nobody reads too; a malformed one gets CF_INVALID_ARGUMENT with
 * details.reason "malformed_json" (or "lone_surrogate", "number_out_of_range", "too_deep") and
 * details.offset, the byte offset named in the message.
 */
/** @{ */
#define CF_OK               0  /**< "ok" */
#define CF_INVALID_ARGUMENT 1  /**< "invalid_argument": NULL, bad UTF-8, malformed JSON, NaN/Inf, bad id */
#define CF_NOT_FOUND        2  /**< "not_found": HTTP 404, unknown coin id */
#define CF_NETWORK          3  /**< "network": connect/DNS/TLS failure, timeout */
#define CF_HTTP             4  /**< "http": any other non-2xx answer; details.http_status */
#define CF_RATE_LIMITED     5  /**< "rate_limited": HTTP 429; details.retry_after_s when known; or refused unsent (details.sent false) while a remembered Retry-After runs */
#define CF_UNAUTHORIZED     6  /**< "unauthorized": 401, API error codes 10002/10005/10010/10011/10012 */
#define CF_DECODE           7  /**< "decode": a 2xx body that is not the expected CoinGecko JSON */
#define CF_STORE            8  /**< "store": the database (SQLite or PostgreSQL) failed; the message is the database's own, without a password */
#define CF_NO_DATA          9  /**< "no_data": no market snapshot in the engine's vs_currency yet (refresh or load first); or no price at a time (cf_engine_price_at: details.reason) */
#define CF_INTERNAL         10 /**< "internal": a bug in Coinfolio; please report it */
/** @} */

/** @name Reasons
 * details.reason: one word saying why a call failed, beyond its status, for a program to branch
 * on (never branch on the message). These are every value it takes; an error without one has no
 * "reason" key. Each is given with the status it comes with and when it occurs.
 */
/** @{ */
#define CF_REASON_MALFORMED_JSON     "malformed_json"     /**< CF_INVALID_ARGUMENT: a JSON input (body, config, query, transaction, chart) is not RFC 8259 JSON; details.offset is the byte offset the message names */
#define CF_REASON_LONE_SURROGATE     "lone_surrogate"     /**< CF_INVALID_ARGUMENT: a JSON string escapes a surrogate (U+D800…U+DFFF) outside a high-low pair: no Unicode character; details.offset */
#define CF_REASON_NUMBER_OUT_OF_RANGE "number_out_of_range" /**< CF_INVALID_ARGUMENT: a JSON number beyond ±1.8e308, wherever it stands, read or not; details.offset */
#define CF_REASON_TOO_DEEP           "too_deep"           /**< CF_INVALID_ARGUMENT: JSON nested deeper than 512 arrays and objects; details.offset */
#define CF_REASON_BAD_UTF8           "bad_utf8"           /**< CF_INVALID_ARGUMENT: an input's bytes are not UTF-8 (a C-string argument: details.input names it, "transaction_json", "coin_id", "body", …; a field of a CSV file: details.line and details.column say where) */
#define CF_REASON_SQLITE_URI         "sqlite_uri"         /**< CF_INVALID_ARGUMENT: a database path starting with "file:" (an SQLite URI) */
#define CF_REASON_UNSUPPORTED_URL    "unsupported_url"    /**< CF_INVALID_ARGUMENT: a database string holding :// that is no postgresql:// (or postgres://) URL, never taken for a file path (details.field "database") */
#define CF_REASON_AMBIGUOUS_URL      "ambiguous_url"      /**< CF_STORE: a PostgreSQL URL whose user or password holds an unencoded '@', '/' or '?', refused before connecting */
#define CF_REASON_POSTGRES_DISABLED "postgres_disabled" /**< CF_INVALID_ARGUMENT: a postgresql:// URL given to a library built without its PostgreSQL trait (SQLite only) */
#define CF_REASON_COMMA              "comma"              /**< CF_INVALID_ARGUMENT: a holding's coin id with a ',' */
#define CF_REASON_THOUSANDS_SEPARATOR "thousands_separator" /**< CF_INVALID_ARGUMENT: a CSV number with a thousands separator ("11,426.20") */
#define CF_REASON_DECIMAL_COMMA      "decimal_comma"      /**< CF_INVALID_ARGUMENT: a CSV number with a decimal comma ("1,5") */
#define CF_REASON_AMBIGUOUS_COMMA    "ambiguous_comma"    /**< CF_INVALID_ARGUMENT: a CSV number whose one comma could be either ("1,234") */
#define CF_REASON_OUT_OF_RANGE       "out_of_range"       /**< CF_INVALID_ARGUMENT: a ledger change after which an amount, price or sum would pass the ledger's ±8.5e19, 8.5e19 itself kept (details.field). A sum is one of stored values: a coin's running amount, a file's or trade's fees; derived money (a lot's cost amount × price, proceeds, P&L) is not bounded by it and is kept to 38 significant digits as cf_engine_pnl says */
#define CF_REASON_CURRENCY           "currency"           /**< CF_INVALID_ARGUMENT: a move between portfolios of different currencies (details.from_currency, details.to_currency), or a realized or performance report over every portfolio ("portfolio": null) when they differ */
#define CF_REASON_UNKNOWN_CURRENCY   "unknown_currency"   /**< CF_INVALID_ARGUMENT: a vs_currency or price_currency CoinGecko does not price in (details.field) */
#define CF_REASON_UNKNOWN_FORMAT     "unknown_format"     /**< CF_INVALID_ARGUMENT (cf_engine_import): the header, after the preamble lines a format may have, is none of the known formats' (or not the asked format's); details.header its cells, details.formats the formats tried */
#define CF_REASON_UNKNOWN_SYMBOLS    "unknown_symbols"    /**< CF_INVALID_ARGUMENT (cf_engine_import): symbols that name no one coin; details.symbols lists each {"symbol","candidates"}; nothing was written */
#define CF_REASON_REENTRANT          "reentrant"          /**< CF_INVALID_ARGUMENT: called from a progress function, a call that would wait for the call reporting to it */
#define CF_REASON_NO_COINS           "no_coins"           /**< CF_DECODE (cf_engine_refresh) or CF_INVALID_ARGUMENT (cf_engine_load): a first /coins/markets page with no coin; the snapshot is kept */
#define CF_REASON_TIMEOUT            "timeout"            /**< CF_STORE: the database did not answer within database_timeout; CF_NETWORK: no complete HTTP answer within timeout_ms */
#define CF_REASON_DEADLINE           "deadline"           /**< CF_NETWORK: an answer could not be decoded within the call's time bound */
#define CF_REASON_BODY_TOO_LARGE     "body_too_large"     /**< CF_HTTP: an answer body larger than max_body_bytes, counted after decompression (details.max_body_bytes) */
#define CF_REASON_HISTORY_LIMIT      "history_limit"      /**< CF_UNAUTHORIZED: CoinGecko's error 10012, history beyond the plan's 365 days; CF_NO_DATA (cf_engine_price_at): nothing stored and the time is beyond the plan's 365 days */
#define CF_REASON_UNKNOWN_COIN       "unknown_coin"       /**< CF_NO_DATA (cf_engine_price_at): CoinGecko does not know the coin */
#define CF_REASON_NO_POINT           "no_point"           /**< CF_NO_DATA (cf_engine_price_at): no point that UTC day, stored or sent (a future time, a coin without trades that day) */
#define CF_REASON_PROXY              "proxy"              /**< CF_NETWORK: a proxy variable would carry a loopback request (details.variable; details.sent false): nothing was sent */
#define CF_REASON_CONNECTION_REFUSED "connection_refused" /**< CF_NETWORK: the host refused the connection */
#define CF_REASON_DNS                "dns"                /**< CF_NETWORK: the host name could not be resolved */
#define CF_REASON_CONNECTION_LOST    "connection_lost"    /**< CF_NETWORK: the connection closed before a complete answer */
#define CF_REASON_OFFLINE            "offline"            /**< CF_NETWORK: the machine is not connected to a network */
#define CF_REASON_TLS                "tls"                /**< CF_NETWORK: the TLS handshake or the server's certificate failed */
#define CF_REASON_TRUNCATED          "truncated"          /**< CF_NETWORK: the answer ended before its declared length */
#define CF_REASON_OTHER              "other"              /**< CF_NETWORK: any other transfer failure (details.url_error: the system's error code, when it gave one) */
/** @} */
/** @name Detail keys
 * The keys of an error's "details" object, each with what it holds and which errors carry it.
 * These are every key it has; an error carries only those that apply (often none).
 */
/** @{ */
#define CF_DETAIL_REASON          "reason" /**< string: a CF_REASON_* value saying why the call failed, beyond its status; absent when there is none */
#define CF_DETAIL_INPUT           "input" /**< string: the input the error is said of ("markets_body", "global_body", or the C-string argument of CF_REASON_BAD_UTF8, "options_json", …); the message starts with it, spaced */
#define CF_DETAIL_OFFSET          "offset" /**< number: the byte offset in a JSON input the message names (CF_REASON_MALFORMED_JSON, _LONE_SURROGATE, _NUMBER_OUT_OF_RANGE, _TOO_DEEP) */
#define CF_DETAIL_FIELD           "field" /**< string: the input field (JSON key, option or CSV column) that is wrong (CF_INVALID_ARGUMENT) */
#define CF_DETAIL_SUGGESTION      "suggestion" /**< string: the corrected coin id of an id with capitals or spaces ("bitcoin" for " Bitcoin"; CF_INVALID_ARGUMENT) */
#define CF_DETAIL_INDEX           "index" /**< number: the 0-based position of the wrong entry in a list input (holdings, points, moves; CF_INVALID_ARGUMENT) */
#define CF_DETAIL_COIN_ID         "coin_id" /**< string: the coin id the error is about (a holding, a sale short of coins, a missing coin detail or price) */
#define CF_DETAIL_VS_CURRENCY     "vs_currency" /**< string: the vs_currency without a market snapshot or price (CF_NO_DATA) */
#define CF_DETAIL_TIMESTAMP       "timestamp" /**< string: the ISO 8601 time of the transaction or price point the error is about */
#define CF_DETAIL_SHORT_BY        "short_by" /**< number: how many coins a sale or move lacks (CF_INVALID_ARGUMENT) */
#define CF_DETAIL_PORTFOLIO       "portfolio" /**< string: the portfolio named (CF_NOT_FOUND: unknown; CF_INVALID_ARGUMENT: name taken, or still holding transactions) */
#define CF_DETAIL_TRANSACTIONS    "transactions" /**< number: how many transactions a portfolio that cannot be deleted still holds (CF_INVALID_ARGUMENT) */
#define CF_DETAIL_ID              "id" /**< string: the transaction id not found (CF_NOT_FOUND) */
#define CF_DETAIL_FROM_CURRENCY   "from_currency" /**< string: the portfolio currency a move or trade leaves (CF_REASON_CURRENCY) */
#define CF_DETAIL_TO_CURRENCY     "to_currency" /**< string: the portfolio currency a move or trade enters (CF_REASON_CURRENCY) */
#define CF_DETAIL_LINE            "line" /**< number: the 1-based line of a CSV file the error is on (CF_INVALID_ARGUMENT) */
#define CF_DETAIL_COLUMN          "column" /**< string: the CSV column the error is in, by its header name (CF_INVALID_ARGUMENT) */
#define CF_DETAIL_FIELD_INDEX     "field_index" /**< number: the 0-based field of a CSV record with a syntax error (CF_INVALID_ARGUMENT) */
#define CF_DETAIL_HEADER          "header" /**< array of strings: an import file's header cells (CF_REASON_UNKNOWN_FORMAT) */
#define CF_DETAIL_FORMATS         "formats" /**< array of strings: the import formats tried (CF_REASON_UNKNOWN_FORMAT) */
#define CF_DETAIL_SYMBOLS         "symbols" /**< array of {"symbol","candidates"}: the import's symbols that name no one coin (CF_REASON_UNKNOWN_SYMBOLS) */
#define CF_DETAIL_HTTP_STATUS     "http_status" /**< number: the HTTP status of CoinGecko's answer (CF_HTTP, CF_NOT_FOUND, CF_UNAUTHORIZED, CF_RATE_LIMITED) */
#define CF_DETAIL_ERROR_CODE      "error_code" /**< number: CoinGecko's own error code from its body (10002, 10005, 10010, 10011, 10012) */
#define CF_DETAIL_RETRY_AFTER_S   "retry_after_s" /**< number: seconds to wait before the next request (CF_RATE_LIMITED: Retry-After, or what is left of a remembered one) */
#define CF_DETAIL_SENT            "sent" /**< boolean, only ever false: no request went out (CF_RATE_LIMITED refused before sending, CF_REASON_PROXY) */
#define CF_DETAIL_MAX_BODY_BYTES  "max_body_bytes" /**< number: the largest answer body taken, in bytes (CF_REASON_BODY_TOO_LARGE) */
#define CF_DETAIL_VARIABLE        "variable" /**< string: the proxy environment variable that would carry a loopback request (CF_REASON_PROXY) */
#define CF_DETAIL_URL_ERROR       "url_error" /**< number: the system's URLError code of a transfer failure (CF_NETWORK, when it gave one) */
#define CF_DETAIL_SQLITE_CODE     "sqlite_code" /**< number: SQLite's result code (CF_STORE from SQLite; 5 is SQLITE_BUSY) */
#define CF_DETAIL_SQLSTATE        "sqlstate" /**< string: PostgreSQL's SQLSTATE (CF_STORE, when the server gave one) */
#define CF_DETAIL_CONNECTION_LOST "connection_lost" /**< number 1: the PostgreSQL connection was lost during the call (CF_STORE); the next call reconnects */
/** @} */

typedef struct cf_store cf_store;   /**< the portfolio store: one SQLite file or PostgreSQL database */
typedef struct cf_client cf_client; /**< a CoinGecko API v3 client */
typedef struct cf_engine cf_engine; /**< the tracker engine: store + client + market snapshot */

/** @name Library
 */
/** @{ */

/** Returns CF_ABI_VERSION as the library was built. Compare it with the header's at start-up. */
int cf_abi_version(void);

/** Returns the library's version, e.g. "0.1.0". Static storage: do not free. */
const char *cf_version(void);

/** Frees a string returned by this library. s may be NULL. */
void cf_string_free(char *s);

/** @} */

/** @name Formatting
 * Formatting. Locale pinned to en_US, rounding half-to-even on the shortest decimal form of the
 * value, no negative zero, "n/a" for NaN and ±Inf. vs_currency is a CoinGecko quote currency code
 * (case-insensitive; 1–16 ASCII letters or digits). NULL means "usd".
 * Each returns a new string (free with cf_string_free), or NULL for invalid arguments
 * (a bad vs_currency, fraction digits outside 0…18 or min > max). Never blocks.
 *
 * One currency table (Sources/Coinfolio/Formatting/CurrencyTable.swift) decides, per vs_currency:
 * - the prefix: usd "$", eur "€", gbp "£", jpy "¥", btc "₿", eth "Ξ"; any other currency its
 *   upper-case code and a space ("CHF 1,234.56", "KWD 1.235", "SATS 12,345");
 * - the kind and fraction digits:
 *   fiat: its ISO 4217 minor unit — 0 for jpy, krw, vnd, clp, isk and the other 0-digit codes,
 *     4 for clf and uyw, 3 for bhd, kwd, iqd, jod, lyd, omr, tnd, 2 for the rest (and for
 *     unknown codes);
 *     sats counts as a 0-digit fiat, bits as a 2-digit one;
 *   crypto (btc, eth, ltc, bch, bnb, eos, xrp, xlm, link, dot, yfi, sol) and metal (xau, xag):
 *     2 to 8 digits, trailing zeros past 2 dropped, and below 0.0001 as many as 4 significant
 *     digits need — a value that is not zero never prints as zero.
 * Every money value in engine output (statistics, detail lists) follows cf_format_value or
 * cf_format_price; none is printed with a fixed two digits.
 */
/** @{ */

/** Currency with grouping and between min and max fraction digits (trailing zeros past min are
 * dropped), whatever the currency's own minor unit: (1234.56, 2, 2, "usd") → "$1,234.56";
 * (-1234.5, 2, 2, "usd") → "-$1,234.50"; (12.3456, 2, 6, "usd") → "$12.3456";
 * (1234.56, 2, 2, "jpy") → "¥1,234.56". */
char *cf_format_currency(double value, int min_fraction_digits, int max_fraction_digits,
                         const char *vs_currency);

/** A money value (a total, a holding's value) in the currency's own precision (see above):
 * (123400, "jpy") → "¥123,400"; (148064.07, "jpy") → "¥148,064"; (1.2346, "kwd") → "KWD 1.235";
 * (1234.5, "usd") → "$1,234.50"; (2.5e-05, "btc") → "₿0.000025"; (0.5, "btc") → "₿0.50";
 * (1.23456789, "btc") → "₿1.23456789"; (3.3e-10, "btc") → "₿0.00000000033". */
char *cf_format_value(double value, const char *vs_currency);

/** A price: grouping, never exponent form, fraction digits by the currency's kind:
 * 2-digit fiat: 2 to 6, or more where needed to show 4 significant digits, trailing zeros past 2
 * dropped: 8.12e-06 → "$0.00000812", 0.000123456 → "$0.0001235", 57000.123 → "$57,000.123";
 * other fiat: its minor unit, more only where needed to show 4 significant digits:
 * (32.034, "jpy") → "¥32.03", (14800000, "jpy") → "¥14,800,000", (12345, "sats") → "SATS 12,345";
 * crypto and metal: as cf_format_value. */
char *cf_format_price(double value, const char *vs_currency);

/** Two fraction digits, no grouping: 1.2345 → "1.23". */
char *cf_format_number(double value);

/** cf_format_number plus "%"; the value is already in percent units: 1.2345 → "1.23%". */
char *cf_format_percent(double value);

/** Sign, then Tr (≥1e12), Bn (≥1e9), M (≥1e6), K (≥1e3) with two fraction digits; a value that
 * rounds up to the next unit moves up: 1234 → "1.23K", 999999 → "1.00M", 12 → "12.00". */
char *cf_format_abbreviated(double value);

/** @} */

/** @name Models
 * Models: a raw CoinGecko response body in, normalized model JSON out. Decoding is tolerant:
 * only id is required of a coin (a string that passes the id rule of Store); symbol and name
 * read as "" when missing or not strings; every other field may be null or missing. A number
 * sent as a JSON string whose whole content is a JSON number ("0.0421", "-1.5", "4.2e17") reads
 * as that number; any other string ("12abc", "", " 1", "NaN", "Infinity", "0x10") and any other
 * wrong type reads as null. Never blocks.
 *
 * A coin object has CoinGecko's /coins/markets keys, each present, null when unknown:
 *   id, symbol, name, image, current_price, market_cap, market_cap_rank, fully_diluted_valuation,
 *   total_volume, high_24h, low_24h, price_change_24h, price_change_percentage_24h,
 *   market_cap_change_24h, market_cap_change_percentage_24h, circulating_supply, total_supply,
 *   max_supply, ath, ath_change_percentage, ath_date, atl, atl_change_percentage, atl_date,
 *   roi ({"times","currency","percentage"} or null), last_updated,
 *   sparkline_in_7d ({"price":[…]} or null; any length, 7 days of prices oldest first),
 *   price_change_percentage_{1h,24h,7d,14d,30d,200d,1y}_in_currency.
 * Dates are kept as CoinGecko sent them (ISO-8601, with or without milliseconds).
 */
/** @{ */

/** Decodes a GET /coins/markets body (a JSON array).
 * out_json: {"coins":[coin…],"skipped":[{"index":i,"reason":"…"}],
 *            "warnings":[{"index":i,"id":"…","field":"…","reason":"…"}]}.
 * One bad element (not an object, no usable id) is skipped and reported, never the whole list;
 * an id seen twice keeps the later row (the earlier one is reported in skipped).
 * warnings lists each field of a kept coin read as null (or "") because of its type: index is
 * the element's position in the body, id its coin id, field the CoinGecko key as a path
 * ("current_price", "roi.times", "sparkline_in_7d.price[3]"), reason one of "not a number",
 * "not a whole number" (market_cap_rank), "not a string", "missing" (symbol or name absent or
 * null), "not an object" (roi, sparkline_in_7d), "not an array" (sparkline_in_7d.price).
 * Missing or null optional fields are not warnings. cf_decode_global and cf_decode_coin_detail
 * (and the client outputs of the same shapes) carry the same list.
 * Returns CF_OK; CF_INVALID_ARGUMENT for NULL, bad UTF-8 or malformed JSON; CF_DECODE when the
 * body is JSON but not an array (for example a CoinGecko error object). */
int cf_decode_markets(const char *body, char **out_json, char **out_error);

/** Decodes a GET /global body ({"data":{…}}).
 * out_json: {"market_data":{"total_market_cap":{currency:x},"total_volume":{currency:x},
 * "market_cap_percentage":{coin:percent},"market_cap_change_percentage_24h_usd":x,
 * "active_cryptocurrencies":n,"markets":n,"updated_at":unix_seconds} (each may be null),
 * "warnings":[…]}: as for cf_decode_markets, with index and id null and field a path
 * ("total_market_cap.eur", "markets").
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL, bad UTF-8, malformed JSON) or CF_DECODE (not an
 * object, or an object with neither "data" nor "total_market_cap"). */
int cf_decode_global(const char *body, char **out_json, char **out_error);

/** Decodes a GET /coins/{id} body.
 * out_json: {"detail":{"id","symbol","name","block_time_in_minutes","hashing_algorithm",
 * "description" (description.en as plain text: tags removed, entities decoded),
 * "homepage" (first non-empty links.homepage), "subreddit_url","genesis_date","categories":[…]},
 * "warnings":[…]}: as for cf_decode_markets, with index null, id the coin's, and field a path
 * ("block_time_in_minutes", "description.en", "categories[1]").
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL, bad UTF-8, malformed JSON) or CF_DECODE (not an
 * object, or no id/symbol/name). */
int cf_decode_coin_detail(const char *body, char **out_json, char **out_error);

/** Decodes a GET /coins/{id}/market_chart body.
 * out_json: {"prices":[[t_ms,v|null]…],"market_caps":[…],"total_volumes":[…],
 * "warnings":[{"series":"prices","index":i,"reason":"…"}…]}; t_ms is milliseconds since 1970
 * (UTC), values are in the request's vs_currency. A null or non-numeric value is kept as a gap
 * (null, never 0); a string holding a JSON number reads as that number; a point without a usable
 * time is left out and reported in warnings, as is every value read as a gap because of its
 * type. A missing series is []; an empty series is valid.
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL, bad UTF-8, malformed JSON) or CF_DECODE (not an
 * object, or a series that is not an array). Never blocks. */
int cf_decode_market_chart(const char *body, char **out_json, char **out_error);

/** @} */

/** @name Store
 * Store: the user's holdings, one row per owner and CoinGecko coin id, in a SQLite file (WAL
 * journal, synchronous=FULL) or on a PostgreSQL server (database "postgresql://…" or
 * "postgres://…", through libpq). Every CF_OK write is committed and durable. Several threads and
 * processes may write one database at once; lock waits are absorbed (busy timeout and retries)
 * and no write is lost.
 *
 * Owners: every ledger row (portfolios, transactions, manual prices, settings) belongs to an
 * owner (default "default"); a store or engine sees, changes, counts and deletes only its own
 * owner's rows, on both backends. Market data is shared (SPEC §20): snapshots with sparklines,
 * coin details, charts, price points and the coins list are stored once per database and
 * vs_currency, whichever owner's engine saved them, so an owner more costs its ledger rows, not a
 * snapshot. A refresh prices every owner's held coins; an owner sees listed only the top
 * coin_limit coins and its own held ones. Schema step 10 moved a database written before to this
 * form: the newest snapshot of each vs_currency and the newest detail of each coin are kept, no
 * owner's ledger row changes.
 *
 * Connection poolers (SPEC §20): every call works through pgbouncer in transaction pooling mode
 * with the same URL as a direct connection. No session state outlives a transaction: locks are
 * transaction-scoped, and a statement is named (prepared) only when it is sent again within one
 * transaction and deallocated with its COMMIT or ROLLBACK. The URL option "prepare=false" (also
 * 0, no, off; "true", 1, yes, on is the default; taken out before libpq sees the URL; another
 * value is CF_INVALID_ARGUMENT, details.field "database") names no statement at all.
 *
 * Read replicas (SPEC §20): "read_database" (a postgresql:// URL of a hot standby of database)
 * sends reads there and writes to database. After its own write a handle reads from the primary
 * until the standby has replayed that write (pg_last_wal_replay_lsn(), one round trip on the
 * standby before each read meanwhile), so it always sees what it wrote. When the standby cannot
 * be reached, reads go to the primary (the standby is tried again 5 s later); a call fails with
 * CF_STORE only when the primary fails too. read_database when database is not a PostgreSQL
 * server (a SQLite file or ":memory:"), or not a postgresql:// URL, is CF_INVALID_ARGUMENT,
 * details.field "read_database".
 *
 * PostgreSQL: errors are CF_STORE with the server's message (details.sqlstate when the server
 * gave one); the password never appears in any message. A URL is shown as
 * "postgresql://…@host…", never with anything between "//" and the host. A password holding an
 * unencoded '@' or '/' (libpq would read part of it as a host or parameter) is refused before
 * connecting (CF_STORE, details.reason "ambiguous_url"): percent-encode it (%40, %2F; an '@' in
 * a query value after a user part too). libpq's complaints about a URL it cannot read pass
 * through the same redaction as the API key: no 6 characters of the password survive. A connection lost mid-call (server
 * restart) fails that call with CF_STORE (details.connection_lost 1) and the next call
 * reconnects; a handle that was idle while the server restarted reconnects on its next call.
 * When it is the COMMIT that gets no answer (no SQLSTATE, or class 08 or 57), the message says
 * that whether the write was committed is unknown: read before writing it again.
 * Calls block on the server, which may be on the network, but never longer than the config's
 * "database_timeout" (seconds, default 30) per round trip: connecting or reconnecting (the URL's
 * connect_timeout bounds connecting when shorter), preparing, running a statement, BEGIN, COMMIT,
 * ROLLBACK. A server that does not answer in time (a frozen process, a lock held by another
 * connection) fails the call with CF_STORE, a message naming the timeout in seconds and
 * details {"reason":"timeout"}: the query is cancelled (the cancel request is waited for at
 * most 2 s more), the connection dropped and the next call reconnects. The transaction of a call
 * that timed out wrote nothing — except when the timeout fell on its COMMIT, which the server
 * may have applied before it stopped answering. A host name's DNS lookup is not bounded (libpq
 * resolves names synchronously): give an address, or a host name the system resolves locally.
 *
 * SQLite: "database_timeout" is the busy timeout: a write waits at most that long for another
 * connection's lock, then fails with CF_STORE (details.sqlite_code 5, SQLITE_BUSY); nothing is
 * written.
 *
 * One handle runs one call at a time. A call that finds its handle busy with a call from another
 * thread waits for it, and that wait counts in its "database_timeout" (both backends): it waits
 * at most that long (then CF_STORE, details {"reason":"timeout"}, a message saying another call
 * kept the handle busy), and its first round trip or busy wait after it ends when the bound does.
 * So calls queued on a frozen server each give up after one bound, not one per call ahead.
 *
 * A coin id is 1–128 bytes of UTF-8 without control characters or '/', and not "." or "..".
 * A holding's id also has no upper-case letters and no surrounding white space (no real
 * CoinGecko id has either), and no ',' (held ids are sent comma-joined to /simple/price; no
 * CoinGecko id has one): cf_store_set_holding refuses it with CF_INVALID_ARGUMENT,
 * details.reason "comma". Ids are stored and compared byte for byte.
 */
/** @{ */

/** Opens (creating and migrating as needed) the store at path; ":memory:" for a private one.
 * A file it creates is mode 0600 (owner only) whatever the umask, and so are its -wal and -shm;
 * an existing file keeps its mode. A symbolic link at path is followed; when it dangles, its
 * target is created the same way (0600). *out_store receives the handle; close it with cf_store_close.
 * A path starting with "file:" is an SQLite URI, which is refused (details.reason "sqlite_uri"):
 * give "./file:…" for a file of that name. Any other path holding "://" that is not a
 * postgresql:// or postgres:// URL ("postgresql+psycopg2://…", "jdbc:postgresql://…", a space
 * before the scheme) is refused too, never taken for a file (details.reason "unsupported_url",
 * details.field "database"; the message shows it without anything between "//" and the host).
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL, empty or bad UTF-8 path, an SQLite URI, an
 * unsupported URL) or CF_STORE
 * (cannot open, not a database, newer schema than this library knows). Touches the disk; never
 * the network. */
int cf_store_open(const char *path, cf_store **out_store, char **out_error);

/** Opens (creating and migrating as needed) the store config_json names, for one owner:
 *   {"database": path | ":memory:" | "postgresql://user[:password]@host[:port]/db[?params]",
 *    "owner": "default" (1–256 bytes, no control characters),
 *    "database_timeout": 30 (seconds, a positive finite number: the bound of each PostgreSQL
 *    round trip, or SQLite's busy timeout; see Store),
 *    "read_database": null | "postgresql://…" (a hot standby that reads go to; see Store)};
 * database is required.
 * cf_store_open(path) is cf_store_open_v2 with {"database": path}.
 * *out_store receives the handle; close it with cf_store_close.
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL, malformed JSON, missing or empty database, a
 * database starting with "file:" (an SQLite URI, as cf_store_open) or holding "://" without
 * being a postgresql:// URL (details.reason "unsupported_url", as cf_store_open), bad owner,
 * a database_timeout that is not a positive number: details.field "database_timeout"; a bad
 * prepare option: details.field "database"; a read_database that is no PostgreSQL URL or beside
 * a SQLite database: details.field "read_database")
 * or CF_STORE (cannot open or connect: the server's message without the password; not a
 * database; newer schema; no answer within database_timeout: details.reason "timeout").
 * Blocks on the PostgreSQL server when database is a URL, at most database_timeout per round trip. */
int cf_store_open_v2(const char *config_json, cf_store **out_store, char **out_error);

/** Closes the store. NULL is a no-op. */
void cf_store_close(cf_store *store);

/** Sets the amount (units of the coin) of coin_id held in the "main" portfolio by recording a
 * transfer_in or transfer_out of the difference, now, in the ledger (see Ledger below).
 * amount > 0 sets the holding; amount <= 0 empties it (never inserts). The double is taken at its
 * shortest round-trip decimal text (0.1 is 0.1), rounded half to even to 18 fraction digits, the
 * ledger's unit (1.5e-18 holds 2e-18, 1.23456789e-12 holds 1.234568e-12); a transaction's
 * amount sent as text is exact instead.
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL handle or id, bad id, NaN or ±Inf amount, an amount
 * below 1e-18 or above 8.5e19, a decrease that would leave a
 * later-dated sell short: nothing is written; for an id with upper-case letters or surrounding
 * spaces, "Bitcoin" or " bitcoin", details.suggestion holds the corrected id, "bitcoin") or
 * CF_STORE (the database's message; nothing is written). A holding such an id left behind by an older
 * version can still be emptied (amount <= 0). */
int cf_store_set_holding(cf_store *store, const char *coin_id, double amount, char **out_error);

/** Sets several holdings in one durable transaction: all are written, or none.
 * holdings_json: {"holdings":[{"coin_id":"bitcoin","amount":0.5},…]} (borrowed for the call;
 * unknown keys ignored); each entry follows cf_store_set_holding's rules (amount > 0 inserts or
 * updates, <= 0 deletes), and an id may appear once. An empty list writes nothing.
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL handle or JSON, malformed JSON, "holdings" missing or
 * not an array, an entry without a string coin_id and a number amount, a bad id, a repeated id:
 * details.index is the entry's position and details.coin_id its id; nothing is written) or
 * CF_STORE (the database's message; nothing is written). Never blocks on the network. */
int cf_store_set_holdings(cf_store *store, const char *holdings_json, char **out_error);

/** out_json: {"holdings":[{"coin_id":"bitcoin","amount":0.5}…]} sorted by coin_id (bytewise).
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL handle) or CF_STORE. */
int cf_store_holdings(cf_store *store, char **out_json, char **out_error);

/** @} */

/** @name Client
 * Client: CoinGecko API v3 over HTTPS (plain http only without a key, or to a host that is a
 * loopback address: 127.0.0.0/8 parsed as an IP, ::1, localhost). Redirects are not followed.
 * config_json (every key optional):
 *   {"base_url": "https://api.coingecko.com/api/v3" (plan pro: https://pro-api.coingecko.com/api/v3),
 *    "plan": "public" | "demo" | "pro",  "api_key": "…" (sent as x-cg-demo-api-key or
 *    x-cg-pro-api-key; no run of 6 of its characters is ever in an error or log),
 *    "timeout_ms": 15000 (per attempt, 1…3600000), "max_retries": 2 (0…10; on 429, 5xx and
 *    network failures), "max_retry_wait_s": 60 (0…86400; a longer Retry-After returns
 *    CF_RATE_LIMITED at once), "max_body_bytes": 33554432 (1…4294967296; the largest answer
 *    body, counted after decompression while libcurl decompresses it, so a gzip or deflate
 *    bomb costs about this much memory; a larger one is CF_HTTP with details.reason
 *    "body_too_large")}
 * A network call blocks at most timeout_ms × (max_retries + 1) plus the Retry-After waits it
 * chose plus about a second (attempts, backoff and decoding together), whatever max_body_bytes
 * is (a decode still running then is left to finish on its own thread, its result dropped).
 * A request to a loopback address never goes through a proxy: when the environment's proxy
 * variables (http_proxy, https_proxy/HTTPS_PROXY, all_proxy/ALL_PROXY, as libcurl reads them)
 * would send it through one and no_proxy/NO_PROXY does not list it, the call returns CF_NETWORK
 * with details.reason "proxy", details.variable naming the variable and details.sent = false;
 * nothing is sent (add the address to no_proxy). Retry-After is read only
 * as decimal seconds or an HTTP date. After a 429 whose Retry-After was not waited out (longer
 * than max_retry_wait_s, or no retry left) the handle remembers it: until it has passed, every
 * call that would send fails at once with CF_RATE_LIMITED, details.retry_after_s = seconds left
 * and details.sent = false, and nothing is sent.
 * Network calls may return CF_NETWORK, CF_HTTP (details.http_status; a 403 without a key error
 * code, e.g. a CDN block page, is CF_HTTP), CF_RATE_LIMITED (details.retry_after_s),
 * CF_UNAUTHORIZED (401, or details.error_code 10002/10005/10010/10011/10012), CF_NOT_FOUND or
 * CF_DECODE; details.error_code is CoinGecko's code whenever the body has one, in any of its three
 * shapes: {"status":{"error_code":…}}, {"error":{"status":{"error_code":…}}} and the top-level
 * {"timestamp":…,"error_code":…,"error_message":…} (a demo key sent to the pro host, or the
 * reverse: 400 with 10010 or 10011). A 10012 answer (a time range the plan refuses) also carries
 * details.reason "history_limit".
 */
/** @{ */

/** Opens a client. config_json may be NULL (all defaults).
 * Returns CF_OK or CF_INVALID_ARGUMENT (malformed JSON, unknown plan, bad URL, a number outside
 * its range, demo or pro without a key, a key with a non-loopback http URL). Never blocks. */
int cf_client_open(const char *config_json, cf_client **out_client, char **out_error);

/** Closes the client. NULL is a no-op. */
void cf_client_close(cf_client *client);

/** GET /coins/markets. request_json (may be NULL; every key optional):
 *   {"vs_currency":"usd","ids":["bitcoin",…] (more than 250 are split into several calls and
 *    merged; with ids every id is asked for and per_page/page are ignored),
 *    "per_page":250 (1…250),"page":1,"sparkline":true}
 * out_json has the shape of cf_decode_markets. Blocks on the network. */
int cf_client_markets(cf_client *client, const char *request_json, char **out_json,
                      char **out_error);

/** GET /global. out_json has the shape of cf_decode_global. Blocks on the network. */
int cf_client_global(cf_client *client, char **out_json, char **out_error);

/** GET /coins/{id} (without tickers, market, community or developer data). coin_id is checked by
 * the id rule above and percent-encoded as one path segment. out_json has the shape of
 * cf_decode_coin_detail. Blocks on the network. */
int cf_client_coin_detail(cf_client *client, const char *coin_id, char **out_json,
                          char **out_error);

/** GET /coins/{id}/market_chart. coin_id follows the id rule above. request_json (may be NULL;
 * every key optional): {"vs_currency":"usd","days":7 (a whole number 1…36500) | "max",
 * "interval":"daily" | null (null: CoinGecko picks 5-minute, hourly or daily points from days)}.
 * The client sends days as given: beyond 365 days on the public and demo plans CoinGecko answers
 * 401 with error code 10012, returned as CF_UNAUTHORIZED (details.error_code 10012, details.reason
 * "history_limit"; the message says the plan allows at most 365 days). cf_engine_chart clamps instead.
 * out_json has the shape of cf_decode_market_chart. Blocks on the network. Returns CF_OK,
 * CF_INVALID_ARGUMENT (NULL or bad id, malformed request) or a network status. */
int cf_client_market_chart(cf_client *client, const char *coin_id, const char *request_json,
                           char **out_json, char **out_error);

/** GET /coins/{id}/market_chart/range?vs_currency=…&from=…&to=…&precision=full: one coin's
 * points between two times. coin_id follows the id rule above. request_json (required):
 * {"vs_currency":"usd" (optional),"from":…,"to":…}, each time whole UNIX seconds
 * (0…253402300799, years 1970…9999) or RFC 3339 text ("2024-03-01", "2024-03-01T12:30:00+02:00";
 * no zone is UTC, never the host's); sent as UNIX seconds (a text time with milliseconds widens
 * the range to whole seconds); from may not be after to. CoinGecko spaces the points by the
 * range: 5 minutes within a day of now, hourly up to 90 days, daily (00:00 UTC) beyond. On the
 * public and demo plans a range reaching back more than 365 days is answered 401 with error code
 * 10012: CF_UNAUTHORIZED, details.error_code 10012.
 * out_json has the shape of cf_decode_market_chart. Blocks on the network. Returns CF_OK,
 * CF_INVALID_ARGUMENT (NULL handle, id or request, bad id, malformed request, a time missing or
 * out of range or from after to: details.field names it; nothing is sent), CF_NOT_FOUND (a coin
 * CoinGecko does not know) or a network status. */
int cf_client_market_chart_range(cf_client *client, const char *coin_id, const char *request_json,
                                 char **out_json, char **out_error);

/** GET /simple/price with include_24hr_change and include_last_updated_at. request_json
 * (required): {"ids":["bitcoin",…],"vs_currency":"usd"}; more than 250 ids (or about 6 KB of
 * them) are asked in several requests and merged; an empty list makes no request. Ids follow the
 * id rule above and may not contain a comma.
 * out_json: {"prices":{"bitcoin":{"price":x|null,"change_24h":percent|null,
 * "last_updated_at":unix_seconds|null}…}} with every asked id; an id CoinGecko answers with {}
 * or leaves out has null values (not an error). Blocks on the network. Returns CF_OK,
 * CF_INVALID_ARGUMENT (NULL, malformed request, bad id) or a network status. */
int cf_client_simple_price(cf_client *client, const char *request_json, char **out_json,
                           char **out_error);

/** @} */

/** @name Engine
 * Engine: the tracker's view-model logic over a store, a client and a market snapshot that is
 * saved in the same database (SQLite file or PostgreSQL). config_json (may be NULL; every key optional):
 *   {"database": ":memory:" | path | "postgresql://…" (see Store), "owner": "default"
 *    (whose rows the engine sees; see Store), "database_timeout": 30 (seconds, positive: the
 *    bound of each PostgreSQL round trip, or SQLite's busy timeout; see Store; a call past it
 *    returns CF_STORE, details.reason "timeout"), "read_database": null | "postgresql://…" (a hot
 *    standby that reads go to; see Store), "refresh_max_age_s": 0 (seconds, 0…31536000: see
 *    cf_engine_refresh), "vs_currency": "usd", "coin_limit": 250 (1…5000),
 *    "detail_ttl_s": 600, "stale_after_s": 600, "chart_ttl_s": 300 (seconds a chart stays
 *    cached), "price_change_percentage": ["24h"] (the windows a refresh asks for, each of 1h,
 *    24h, 7d, 14d, 30d, 200d, 1y; they fill price_change_percentage_<w>_in_currency),
 *    "api": {client config as above}}
 *
 * Coins in engine output are coin objects (see Models) plus "price_available" (current_price is
 * known); portfolio coins add "current_holdings" (units), "current_holdings_value"
 * (current_holdings × current_price, null when the price is unknown or the product overflows a
 * double; such a coin is left out of totals) and "price_source" ("coingecko": the snapshot's
 * current_price; "manual": the owner's manual current price in the engine's vs_currency, set by
 * cf_engine_set_price without a timestamp, which values a coin the snapshot does not have and is
 * then its current_price; null without a price).
 * Snapshots are kept per vs_currency in the database, shared by every owner (see Store): an
 * engine opened with "jpy" answers from the saved jpy snapshot and leaves the usd one in place
 * (switching back finds it again). An engine sees a snapshot another engine (another thread,
 * process or owner) saved on its first query that starts at least 1 s after the save: a version
 * check of one indexed read, at most once a second. The
 * saved form opens without re-decoding JSON; sparklines are read from the file only when an
 * answer includes them.
 * "as_of" is the data's own time (ISO-8601 UTC): the newest "last_updated" among the snapshot's
 * coins, or /global's "updated_at" when newer (the fetch time when neither is known).
 * "fetched_at" is when the snapshot was downloaded or loaded. "stale" is judged from "as_of": true
 * when the data is older than stale_after_s or the last refresh failed, so a loaded old body is
 * stale at once.
 */
/** @{ */

/** Opens an engine: opens (creates, mode 0600 whatever the umask) its database and loads any saved
 * snapshot. Never blocks on the network. Returns CF_OK, CF_INVALID_ARGUMENT (config; a database
 * starting with "file:", an SQLite URI, as cf_store_open) or CF_STORE. */
int cf_engine_open(const char *config_json, cf_engine **out_engine, char **out_error);

/** Closes the engine. NULL is a no-op. */
void cf_engine_close(cf_engine *engine);

/** Downloads a new snapshot: one /coins/markets request per 250 coins of coin_limit, one /global
 * request, and one ids= request for held coins missing from those pages; never a detail request.
 * out_json: {"coins":n,"as_of":"…","fetched_at":"…","stale":b,"fetched":b}. On failure the previous snapshot is kept and
 * marked stale. One refresh for many engines (SPEC §20): a refresh that finds the snapshot saved
 * in the database (by any engine of any owner) fetched less than refresh_max_age_s ago, with at
 * least this engine's coin_limit and windows, answers with it without a request ("fetched":
 * false). Engines that refresh the same vs_currency at once (threads or processes) send one set
 * of requests: the first holds the currency's market lock (PostgreSQL: a transaction-scoped
 * advisory lock; SQLite: the write lock) on a connection of its own while it downloads; the
 * others wait for it, at most database_timeout (then CF_STORE, details.reason "timeout"), and
 * answer with its snapshot ("fetched": false). "fetched" is true when this call sent the
 * requests. Blocks on the network, and on the database while another engine refreshes. Returns CF_OK, a network status (see Client),
 * CF_INVALID_ARGUMENT (details.reason "reentrant": called from the progress function of a
 * refresh, load or refresh_prices running on the same handle and thread, which it would wait
 * for) or CF_STORE (the snapshot could not be saved). An empty first /coins/markets page ([] or every
 * row skipped, as CoinGecko sends during incidents) returns CF_DECODE, message "CoinGecko
 * returned no coins", details.reason "no_coins", and keeps the previous snapshot exactly as it
 * was ("stale" unchanged); an empty later page just ends the paging. */
int cf_engine_refresh(cf_engine *engine, char **out_json, char **out_error);

/** Replaces the snapshot of the engine's vs_currency with raw CoinGecko bodies instead of
 * fetching: markets_body from /coins/markets, global_body from /global (may be NULL: the
 * previous market data is kept). "as_of" becomes the bodies' own time, "fetched_at" now. The
 * snapshot is saved in the engine's database (a SQLite file or PostgreSQL: a later engine on it
 * answers from it offline), but not in a private ":memory:" database, which nothing else can
 * read and which ends with the engine: there the snapshot is held once, in memory.
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL handle or markets body, bad UTF-8, malformed JSON; or
 * a markets body with no coin — [], [null,null], every row skipped — with details.reason
 * "no_coins": nothing is replaced; or details.reason "reentrant", as cf_engine_refresh),
 * CF_DECODE (not CoinGecko shapes) or CF_STORE. Never blocks on the network. */
int cf_engine_load(cf_engine *engine, const char *markets_body, const char *global_body,
                   char **out_error);

/** Lists coins. query_json (may be NULL): {"search":"" (substring of name, symbol or id,
 * compared NFKC-normalized, case-folded and diacritic-insensitive: "pokemon", "POKÉMON" and a
 * decomposed "poke\u0301mon" find "Pokémon Token"; "strasse" finds "Straße"),
 * "sort":"rank" | "rank_reversed" | "price" | "price_reversed" | "holdings" |
 * "holdings_reversed", "limit":null (all), "offset":0, "sparkline":true}.
 * Coins without the sorted value (unranked, unpriced) come last in both directions; ties break
 * on id.
 * out_json: {"coins":[…],"total":n (matches before limit/offset),"as_of":"…","fetched_at":"…",
 * "stale":b}.
 * Returns CF_OK, CF_INVALID_ARGUMENT (unknown sort, negative limit/offset, wrong types) or
 * CF_NO_DATA (no snapshot in the engine's vs_currency; details.vs_currency names it). Never
 * blocks. */
int cf_engine_coins(cf_engine *engine, const char *query_json, char **out_json, char **out_error);

/** Lists held coins joined with the snapshot. query_json (may be NULL):
 * {"sort":"holdings","sparkline":true,"portfolio":"main" (whose holdings; null, every portfolio,
 * is refused: details.field "portfolio")}
 * ("holdings": value descending, "holdings_reversed": ascending, others as cf_engine_coins).
 * A held coin with no market row and no manual current price, or with a market row and no
 * price, is listed with "price_available": false and left out of total_value;
 * "unpriced_holdings" counts them. total_value is null (unknown, never 0)
 * when there are holdings and none has a price, and 0 with no holdings.
 * out_json: {"coins":[…],"total_value":x|null,"unpriced_holdings":n,"as_of":"…"|null,
 * "fetched_at":"…"|null,"stale":b}.
 * Works without a snapshot (every coin then has no price). Returns CF_OK, CF_INVALID_ARGUMENT
 * or CF_STORE. Never blocks. */
int cf_engine_portfolio(cf_engine *engine, const char *query_json, char **out_json,
                        char **out_error);

/** The home screen statistics, always six, in this order:
 *   "Market Cap" (total_market_cap[vs_currency], percentage_change
 *   market_cap_change_percentage_24h_usd), "24h Volume", "BTC Dominance", "Portfolio Value"
 *   (value: Σ current_holdings_value as cf_format_value prints it, "¥148,064", "₿0.000025";
 *   "n/a" when there are holdings and none has a price), "Unrealized P&L" and "Realized P&L"
 *   (the "main" portfolio, fifo, as cf_format_value prints them; "n/a" when unknown;
 *   percentage_change over the cost of the units concerned, null when not defined).
 * out_json: {"statistics":[{"title":"…","value":"…","percentage_change":x|null}…]};
 * "Portfolio Value" adds "coverage". Its percentage_change is the 24h change over the holdings
 * whose change is known: a holding's value 24h ago is amount × (current_price −
 * price_change_24h) when price_change_24h is known, else value / (1 + p/100) with p =
 * price_change_percentage_24h when known and > −100, else unknown; unknown ones are left out of
 * both sums, never counted as 0 %. coverage (0…1) is the share of the current value whose change
 * is known (when every priced holding is worth 0, the share of priced holdings); the change is
 * null when coverage is 0. Example: 1 of A at 1 (change unknown), 1 of B at 1 after −50 % →
 * percentage_change −50, coverage 0.5.
 * Returns CF_OK, CF_INVALID_ARGUMENT, CF_NO_DATA (no snapshot in the engine's vs_currency) or
 * CF_STORE (reading the holdings failed). Never blocks. */
int cf_engine_statistics(cf_engine *engine, char **out_json, char **out_error);

/** Sets a holding of the "main" portfolio through the engine's store (rules of
 * cf_store_set_holding: a transfer_in or transfer_out of the difference).
 * Returns CF_OK, CF_INVALID_ARGUMENT or CF_STORE. Never blocks on the network. */
int cf_engine_set_holding(cf_engine *engine, const char *coin_id, double amount,
                          char **out_error);

/** Sets several holdings in one durable transaction through the engine's store (rules and
 * statuses of cf_store_set_holdings). Never blocks on the network. */
int cf_engine_set_holdings(cf_engine *engine, const char *holdings_json, char **out_error);

/** One coin's market row and statistics from the saved snapshot alone: never a request, never
 * blocks on the network. out_json: {"coin":coin,"overview":[statistic…],"additional":
 * [statistic…]} with the titles of cf_engine_coin_detail; "Block Time" and "Hashing Algorithm"
 * come from a saved detail when there is one, else "n/a". cf_engine_coin_detail is this plus the
 * description.
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL handle or id, bad id), CF_NO_DATA (no snapshot in the
 * engine's vs_currency) or CF_NOT_FOUND (the coin is not in the snapshot). */
int cf_engine_coin_statistics(cf_engine *engine, const char *coin_id, char **out_json,
                              char **out_error);

/** One coin's detail screen, loaded lazily: GET /coins/{id} only when asked. Each fetched detail
 * is saved in the database with its fetch time; a saved detail younger than detail_ttl_s
 * answers without a request (in this process or a later one), and concurrent callers for one id
 * share one request. When the refresh of an older detail fails (network, HTTP, rate limit,
 * key, decode), the saved one is returned with "stale": true.
 * out_json: {"coin":coin|null (the snapshot's row),"detail":{…} (see cf_decode_coin_detail),
 * "overview":[statistic…],"additional":[statistic…],"as_of":"…" (when the detail was fetched),
 * "stale":b}. Missing values print "n/a".
 * May block on the network. Returns CF_OK, CF_INVALID_ARGUMENT (bad id), CF_NOT_FOUND (unknown
 * coin) or a network status (only when no detail of the coin was saved). */
int cf_engine_coin_detail(cf_engine *engine, const char *coin_id, char **out_json,
                          char **out_error);

/** Receives progress of long work. progress_json is
 * {"phase":"markets"|"global"|"ids"|"import"|"chart"|"prices","done":n,"total":n|null}: done of
 * total units of the phase are finished (markets: pages of /coins/markets; global: 1 request; ids:
 * held coins missing from the pages; import: CSV rows; chart: charts; prices: the range requests
 * of cf_engine_fill_prices). Each phase reports done 0 when it
 * starts, then after each unit; total is null when not known in advance and, when a phase ends
 * early (fewer coins than coin_limit), its last report has total equal to done.
 * progress_json is borrowed for the duration of the call; user is the pointer given to
 * cf_engine_set_progress. Called on the thread that made the engine call, before that call
 * returns. It may call the engine's queries. Work that would wait for the call reporting to it
 * (cf_engine_refresh, cf_engine_load or cf_engine_refresh_prices during a refresh,
 * cf_engine_chart of the chart being downloaded, cf_engine_fill_prices during a fill) returns
 * CF_INVALID_ARGUMENT with details.reason "reentrant" instead of deadlocking. It must not call cf_engine_close on the
 * same handle. */
typedef void (*cf_progress_fn)(const char *progress_json, void *user);

/** Sets the function that cf_engine_refresh (and the import and chart calls) report progress to,
 * replacing any earlier one; fn NULL turns reporting off. user is passed back to fn untouched and
 * is owned by the host, which keeps it valid until reporting is turned off or the engine is
 * closed. Returns CF_OK or CF_INVALID_ARGUMENT (NULL engine). Never blocks. */
int cf_engine_set_progress(cf_engine *engine, cf_progress_fn fn, void *user, char **out_error);

/** Counters since open. out_json: {"http_requests":{"markets":n,"global":n,"detail":n,
 * "market_chart":n,"market_chart_range":n,"simple_price":n} (every HTTP attempt, retries included),
 * "detail_cache_hits":n (detail answers that made no request of their own: served from the
 * cache, or shared with a caller already fetching),"chart_cache_hits":n (the same for charts),
 * "suppressed_requests":n (calls refused unsent while a remembered Retry-After ran)}.
 * Never blocks. */
int cf_engine_metrics(cf_engine *engine, char **out_json, char **out_error);

/** @} */

/** @name Ledger
 * Ledger: named portfolios (default "main", created on first use), their transactions, cost
 * basis and P&L, CSV import and export (SPEC §12, §16). A portfolio's holdings are the sum of its
 * transactions; cf_engine_set_holding and cf_store_set_holding record a transfer_in or
 * transfer_out of the difference. A missing "portfolio" key means "main". "portfolio": null means
 * every portfolio of the owner, in every call that takes a portfolio (SPEC §16, §19): never
 * "main". cf_engine_transactions, cf_engine_export_csv, cf_engine_realized,
 * cf_engine_performance and cf_engine_fill_prices take it; the calls that write to one portfolio
 * (add_transaction, add_trade, import) and those that do not report every portfolio together yet
 * (pnl, cf_engine_portfolio, cf_engine_portfolio_history) refuse it: CF_INVALID_ARGUMENT with
 * details.field "portfolio".
 *
 * A transaction: {"id":"12" (a string),"portfolio","coin_id","kind":"buy"|"sell"|"transfer_in"|
 * "transfer_out"|"fee"|"income","amount" (> 0, coin units),"price" (per unit in the portfolio's
 * currency, >= 0; null for transfers; null on a buy, sell, fee or income means pending),"fee"
 * (>= 0: in the portfolio's currency, or in units of fee_coin_id when that is set),"timestamp"
 * (RFC 3339, UTC: "2024-03-01T12:30:00Z", ".250" when there are milliseconds),"note" (text, or
 * null for none: a note sent as null or left out comes back null, "" comes back ""),
 * "external_id" (null, or unique per portfolio),"group_id" (the rows one call wrote together;
 * null for a row written alone),"income_type" ("staking"|"interest"|"airdrop"|"mining"|"fork"|
 * "gift"|"reward"|"other"; required on income, null elsewhere),"fee_coin_id" (the coin a fee was
 * paid in; null: the portfolio's currency),"fee_price" (that coin's price per unit as given, or
 * null),"price_source" ("user"|"pending"|"coingecko"|"manual"; null for transfers),"price_at"
 * (t_ms of the price point a price was taken from, or a conversion used, else null),
 * "original_price" (a price given in price_currency, as given; else null),"price_currency" (the
 * currency price, fee and fee_price were given in when not the portfolio's; else null)}.
 * Amounts, prices and fees are exact decimals with at most 18 fraction digits, written as JSON numbers in their shortest form.
 * Order: timestamp, then insertion. Never negative: a change after which a coin's running amount
 * in that order would go below zero is refused whole with CF_INVALID_ARGUMENT and details
 * {"coin_id","timestamp","short_by"}; selling exactly what is held is allowed; one after which
 * it would exceed 8.5e19 units is refused with details {"reason":"out_of_range","field":"amount",
 * "coin_id","timestamp"}.
 *
 * Kinds: "income" (coins received: staking rewards, interest, airdrops, …) is a lot costing its
 * market value amount × price (+ fee) that realizes nothing when received; a buy at price 0 is
 * still allowed (a free coin at cost 0), but an airdrop is income. "fee" is a fee paid in a coin:
 * a disposal at its price that realizes fee × price − the cost of the lots it takes. A
 * transaction with "fee_coin_id" and a fee above 0 is written with its fee row right after it in
 * one group: kind "fee", the same portfolio, time and note, coin fee_coin_id, amount fee, price
 * fee_price; else that coin's stored price at that time (SPEC §16: the rule of
 * cf_engine_price_at without its request); else (where §16 would leave it pending) the price the
 * call itself gives that coin: the transaction's own price when the fee is in the transaction's
 * coin, or the price of the call's other row in that coin (a trade's fee in the coin it sends
 * takes the sell leg's price); else pending. Its value
 * (fee × price) adds to a buy's or income's lot cost, is subtracted from a sell's proceeds, and
 * counts in the parent coin's "fees"; while pending the parent's cost or proceeds is unknown. A
 * fee row's external_id is its parent's with "#2" (a trade's rows: "#2", "#3"). Deleting any row
 * of a group deletes the whole group, all or nothing, the never-negative rule checked for the
 * whole change. Keys the engine writes (id, group_id, price_source, price_at, original_price) are
 * ignored on input.
 * Prices in another currency (SPEC §17): with "price_currency" (a currency CoinGecko prices in,
 * other than the portfolio's; the portfolio's own means none), price, fee (when not in a coin) and
 * fee_price are in that currency. They are converted with the coin's own prices in both
 * currencies at the transaction's time by the rule of cf_engine_price_at without its request
 * (within its UTC day): value × p_portfolio ÷ p_given, rounded half-even to 18 fraction digits;
 * "original_price" keeps the price as given, "price_currency" stays, "price_source" is "user" and
 * "price_at" the time of the point in the portfolio's currency. Until both points exist the price
 * is pending and fee and fee_price are still in price_currency (the fee is unknown in cf_engine_pnl,
 * never counted in the portfolio's currency); cf_engine_fill_prices converts them. A fee row whose
 * price came from fee_price converts with the fee coin's own prices. Example: 1 ethereum bought at
 * 100 eur in a usd portfolio on a day it was 110 usd and 100 eur costs 110 usd, original_price 100.
 * None of these functions blocks on the network: prices of the past come only from stored price
 * points and manual prices; what they lack is pending until cf_engine_fill_prices.
 */
/** @{ */

/** Stores a transaction, and with "fee_coin_id" and a fee above 0 its fee row (one group).
 * transaction_json: {"portfolio","coin_id","kind","amount","price","fee","fee_coin_id",
 * "fee_price","income_type","timestamp","note","external_id","price_currency"}; numbers may also be strings
 * whose whole content is a JSON number ("0.1", "4.2e17"; not "+1", "1.", ".5", "01" or " 1"); timestamp: RFC 3339 with Z or an offset (normalized to UTC;
 * milliseconds kept), a date-time without a zone is UTC, a date alone is 00:00:00Z; absent means
 * now; a leap second ("2016-12-31T23:59:60Z", or 15:59:60-08:00) reads as the last millisecond
 * of its minute, "2016-12-31T23:59:59.999Z" (Unix time has no leap seconds; the order is kept),
 * and :60 is refused where the time is not 23:59 UTC. note: at most 65,536 bytes. out_json: the stored transaction with its "id" (and "group_id"
 * when a fee row was written). Returns CF_OK, CF_INVALID_ARGUMENT (NULL, malformed JSON, a bad
 * field: details.field — e.g. "income_type" missing on income or unknown, a negative "fee_price",
 * a "price_currency" CoinGecko does not price in (details.reason "unknown_currency") or on a transfer,
 * a "fee_coin_id" that is not a coin id or is a currency code; a shortfall: details {coin_id,
 * timestamp, short_by}; details.reason "out_of_range"; an external_id already in the portfolio),
 * CF_NOT_FOUND (a portfolio other than "main" that does not exist) or CF_STORE. Nothing is
 * written on error. */
int cf_engine_add_transaction(cf_engine *engine, const char *transaction_json, char **out_json,
                              char **out_error);

/** Stores a trade (a swap of one coin for another) as one group: a "sell" of the sent coin, a
 * "buy" of the received coin and, with a fee in a coin, the fee row. trade_json:
 * {"portfolio","timestamp","sent":{"coin_id","amount"},"received":{"coin_id","amount"},"value"
 * (the trade's value in the portfolio's currency, optional),"fee","fee_coin_id","fee_price",
 * "note","external_id"}. Prices: value ÷ each side's amount; without value, the received coin's
 * stored price at that time × its amount is the value, else the sent coin's, else both legs are
 * pending; a price found by division is the exact quotient rounded once, half-even, to 18
 * fraction digits (price × amount ÷ amount is never rounded in between). The fee goes to
 * the received lot's cost (the buy leg). Both sides must be coins (fiat ↔ coin is a buy or a
 * sell) and differ. The sell leg carries external_id, the buy leg external_id + "#2", a fee row
 * "#3". out_json: {"group_id","transactions":[…]} (the rows in order). Returns CF_OK,
 * CF_INVALID_ARGUMENT (NULL, malformed JSON, a bad field: details.field "sent", "received",
 * "sent.coin_id" or "received.coin_id" for a currency or equal sides, "sent.amount",
 * "received.amount", "value", "fee", "fee_coin_id", "fee_price"; a price beyond 8.5e19:
 * details {"reason":"out_of_range","field":"value"}; a shortfall of the sent or fee coin:
 * details {coin_id, timestamp, short_by}; a used external_id), CF_NOT_FOUND (unknown portfolio)
 * or CF_STORE. Nothing is written on error. */
int cf_engine_add_trade(cf_engine *engine, const char *trade_json, char **out_json, char **out_error);

/** Moves a coin between two of the owner's portfolios: a "transfer_out" in "from" and a
 * "transfer_in" in "to", one group. move_json: {"from","to","coin_id","amount",
 * "received_amount" (default amount; 0 < received <= amount: the difference is a network fee
 * paid in the coin),"timestamp","note","external_id"}. The transfer in receives the lots the
 * transfer out removed (taken by the method a pnl uses), with their first acquisition times and
 * their whole cost, the units scaled by received ÷ amount (each rounded half-even to 18
 * fraction digits, the last lot taking the remainder): a move realizes nothing and its fee is
 * no loss. In "to" those lots order by their first acquisition time. The transfer in carries
 * external_id + "#2". out_json: {"group_id","transactions":[…]}. Returns CF_OK,
 * CF_INVALID_ARGUMENT (NULL, malformed JSON, a bad field: details.field "from", "to" (also when
 * from and to are the same), "coin_id", "amount", "received_amount" (0, or above amount);
 * portfolios of different currencies: details {"reason":"currency","field":"to",
 * "from_currency","to_currency"}; a shortfall in "from"), CF_NOT_FOUND (a portfolio that does
 * not exist; "main" always exists) or CF_STORE. Nothing is written on error. */
int cf_engine_move(cf_engine *engine, const char *move_json, char **out_json, char **out_error);

/** Deletes the transaction with id transaction_id (decimal text as ids are written, "12": digits
 * only, no sign, space or leading 0 — "+1" and "01" are refused like " 1") and every other row of its
 * group (a trade's legs, a fee row and its parent, a move's two sides). Returns CF_OK,
 * CF_INVALID_ARGUMENT (not a whole number; or deleting would leave a later disposal of any of
 * the group's coins short: details {coin_id, timestamp, short_by}), CF_NOT_FOUND or CF_STORE. */
int cf_engine_delete_transaction(cf_engine *engine, const char *transaction_id, char **out_error);

/** A page of transactions in ledger order. query_json (may be NULL):
 * {"portfolio":"main","coin_id":null,"group_id":null,"from":null,"to":null (RFC 3339, both
 *  inclusive),"limit":null (all),"offset":0}; "portfolio": null is every portfolio of the owner
 * (as in every call taking a portfolio); with "group_id" and no "portfolio", the group's rows in
 * every portfolio (a move's two sides). out_json: {"transactions":[…],"total":n (matches
 * before limit/offset)}. Returns CF_OK, CF_INVALID_ARGUMENT or CF_STORE. */
int cf_engine_transactions(cf_engine *engine, const char *query_json, char **out_json,
                           char **out_error);

/** Cost basis and P&L of every coin the portfolio ever held (a closed coin stays listed with its
 * realized P&L), by coin id, against the snapshot's current_price when the portfolio's currency
 * is the engine's vs_currency. options_json (may be NULL): {"portfolio":"main","method":"fifo"|
 * "lifo"|"hifo"|"lofo"|"average"|"uk"}. "portfolio": null means every portfolio of the owner
 * together, as in every call taking a portfolio; pnl does not report them together yet and
 * refuses it (CF_INVALID_ARGUMENT, details.field "portfolio"), never reading it as "main". fifo and lifo take lots by first acquisition time; hifo
 * takes the highest unit cost first, lofo the lowest (lots of unknown cost count as cost 0: hifo
 * last, lofo first; ties in ledger order); average keeps one pool of known and one of unknown
 * cost; uk is UK share pooling (see cf_engine_realized).
 * Fees of a buy or income add to its lot's cost, fees of a sell reduce its proceeds; transfers
 * in (other than a move's) bring lots of unknown cost, and pending prices leave costs and
 * proceeds unknown: P&L over them is unknown (null, never 0) and the coverages say how much is
 * known. A move into the portfolio is computed with the other portfolios as far as it needs.
 * out_json: {"portfolio","vs_currency","method","coins":[{"coin_id","amount","cost_basis"
 * (remaining known cost; 0 when amount is 0; null when no unit has a known cost),"average_cost",
 * "breakeven_price","current_price" (the snapshot's, when the portfolio's currency is the
 * engine's; for a coin the snapshot does not have, the owner's manual current price in the
 * portfolio's currency, cf_engine_set_price),"price_source" ("coingecko" | "manual" | null),
 * "current_value","unrealized_pnl",
 * "unrealized_pnl_percentage","realized_pnl" (over units sold or paid as fees whose cost and
 * proceeds are known),"realized_coverage" (share of those units; 1 when none),"fees" (fees in the
 * currency and the value of fees paid in coins; null while one is pending),"cost_basis_coverage"
 * (share of held units of known cost; 1 when none held),"income" (Σ amount × price of income with
 * a known price),"income_coverage" (share of income units whose price is known; 1 when none)}…],
 * "totals":{"cost_basis" (null when coins are held and none has a known cost),"current_value",
 * "unrealized_pnl","unrealized_pnl_percentage","realized_pnl","fees","income","income_coverage"
 * (share of income transactions priced)}}.
 * Money in the portfolio's currency, exact to 38 significant digits (never rounded to a fixed
 * number of places: 1e-18 units at 0.000002 cost 2e-24), written as JavaScript writes numbers
 * (plain from 1e-7 to 1e21, else 2e-24). Returns CF_OK, CF_INVALID_ARGUMENT (unknown method:
 * details.field "method"; "portfolio": null: details.field "portfolio"), CF_NOT_FOUND (unknown portfolio) or CF_STORE. Works without a
 * snapshot (current values are then null). */
int cf_engine_pnl(cf_engine *engine, const char *options_json, char **out_json, char **out_error);

/** Every portfolio by name. out_json: {"portfolios":[{"name","vs_currency"}…]}. Returns CF_OK,
 * CF_INVALID_ARGUMENT or CF_STORE. */
int cf_engine_portfolios(cf_engine *engine, char **out_json, char **out_error);

/** Creates a portfolio. portfolio_json: {"name" (1…128 characters — Unicode code points, not
 * bytes — no control characters or surrounding spaces),"vs_currency" (optional: the engine's;
 * given, it must be a currency CoinGecko prices coins in, as for cf_engine_set_price: else
 * details {"reason":"unknown_currency","field":"vs_currency"})}. Names are compared by their UTF-8
 * bytes, as the database compares them, and never normalized: NFC "café" and NFD "cafe\u0301"
 * name two portfolios (in every call that takes a portfolio). Returns CF_OK,
 * CF_INVALID_ARGUMENT (bad JSON, name or currency; the name is taken) or CF_STORE. */
int cf_engine_create_portfolio(cf_engine *engine, const char *portfolio_json, char **out_error);

/** Renames a portfolio; its transactions follow. Returns CF_OK, CF_INVALID_ARGUMENT (NULL, a bad
 * or taken new name), CF_NOT_FOUND or CF_STORE. */
int cf_engine_rename_portfolio(cf_engine *engine, const char *name, const char *new_name,
                               char **out_error);

/** Deletes a portfolio. One with transactions is refused (CF_INVALID_ARGUMENT, details
 * {"portfolio","transactions"}) unless force is non-zero, which deletes them with it and, as
 * deleting any row of a group does (SPEC §16), the rest of each one's group in other portfolios
 * (a move's other side); when that would leave a later disposal there short, nothing is deleted
 * (CF_INVALID_ARGUMENT, details {"coin_id","timestamp","short_by"}). Returns CF_OK,
 * CF_INVALID_ARGUMENT, CF_NOT_FOUND or CF_STORE. */
int cf_engine_delete_portfolio(cf_engine *engine, const char *name, int force, char **out_error);

/** Imports CSV (RFC 4180, UTF-8; a BOM, CRLF or LF line ends, quoted fields with commas, doubled
 * quotes and line breaks are read) with the header
 * timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id and, optional in any
 * position, fee_coin_id,fee_price,income_type,group_id,price_currency,original_price (a row with
 * price_currency and a price is stored as converted: price, fee and fee_price in the portfolio's
 * currency, original_price as given; without a price it is converted from stored prices or left
 * pending, as cf_engine_add_transaction does; the portfolio's own currency is dropped; original_price
 * needs price_currency, both as validated there) (the columns timestamp, coin_id, kind and
 * amount are required; the short header of SPEC §12 still imports). All or nothing, in one
 * database transaction. Rows whose external_id the portfolio already has (or this database's own
 * "coinfolio:<id>") are skipped and counted; an external_id repeated within the file is an error
 * at its second row; a portfolio the file names that does not exist is created with the engine's
 * vs_currency; an empty portfolio cell means "main"; an empty price on a buy, sell, fee or income
 * is pending; an empty note cell is no note (null); a cell of one or more ' followed by =, +, -,
 * @, a tab or a carriage return loses one ' (the export's protection against spreadsheet
 * formulas, see cf_engine_export_csv). A group_id is a label local to the file: rows sharing it
 * become one group with a fresh id. A row with fee_coin_id and a fee above 0 brings its fee row
 * (recreated, never read from the file). Amounts, prices and fees are spelled as JSON numbers
 * ("0.5", "1e-8"; not "+1", ".5", "1." or "01": refused with the line and column, as the same
 * strings in cf_engine_add_transaction). The separator is a comma, the decimal mark a point and
 * numbers have no thousands separator: a ';' header is refused saying so, and a number with a
 * comma with details.reason "thousands_separator" ("11,426.20": write 11426.20),
 * "decimal_comma" ("1,5": write 1.5) or "ambiguous_comma" ("1,234": 1234 or 1.234?), each
 * message saying what to write. An empty file imports nothing.
 * Reports progress (phase "import": done 0, then the rows read every 1,000 rows, and done = total
 * at the end) to the function of cf_engine_set_progress; the import holds the database for its
 * one transaction, so a call from that function that reads or writes the database returns
 * CF_INVALID_ARGUMENT with details.reason "reentrant" instead of waiting for itself.
 * out_json: {"imported":n,"skipped":n} (rows of the file). Returns CF_OK, CF_INVALID_ARGUMENT
 * (details.line: the physical line where the record starts, the header being line 1;
 * details.column: the header name, when the error is about one field; details.reason for a
 * number with a comma, above; or details.reason "reentrant" or "out_of_range") or CF_STORE. */
int cf_engine_import_csv(cf_engine *engine, const char *csv, char **out_json, char **out_error);

/** Imports what an exchange or another tracker exports (SPEC §18), or Coinfolio's own CSV.
 * options_json (NULL: every default): {"format": "auto" (default) | "coinfolio" | "coinbase" |
 * "binance" | "kraken" | "cointracking" | "koinly", "portfolio": "main" (created with the
 * engine's vs_currency when it does not exist; the coinfolio format's rows without a portfolio
 * go there), "dry_run": false, "symbols": {"BOND":"barnbridge"} (symbol -> CoinGecko coin id,
 * tried first)}. data: the file's text (UTF-8 CSV; borrowed, not kept).
 *
 * Detection: the header is the first record or, for Coinbase (v1-v4), one of the first 20 (their
 * preamble lines). Variants: coinbase "v1" ("EUR Subtotal"-style columns), "v2", "v3", "v4";
 * binance "trade_history" (Date(UTC),Pair,Side,Price,Executed,Amount,Fee), "trade_history_old"
 * (Date(UTC),Market,Type,Price,Amount,Total,Fee,Fee Coin), "statement"
 * (User_ID,UTC_Time,Account,Operation,Coin,Change,Remark); kraken "ledgers" and "ledgers_wallet";
 * cointracking "default"; koinly "universal"; coinfolio "default". A header holds a variant when
 * its columns appear in order (cells compared without surrounding spaces or letter case); newer columns (Coinbase's Sender Address and Recipient Address,
 * Kraken's subclass and amountusd) are read as the same variant, any other extra column is a
 * warning on the header's line. A "Date(UTC+8)" column's times are in that offset; every other
 * time is UTC. Numbers are exact decimals (at most 18 fraction digits); thousands separators
 * ("11,426.20"), currency signs ("-$1,240.00") and asset suffixes ("0.0528450000BTC") are read
 * only where the format writes them, CoinTracking's "-" is empty and its dates dd.mm.yyyy; the
 * coinfolio format is read as cf_engine_import_csv reads it.
 *
 * Rows: buys and sells (money for a coin), trades (a coin for a coin: a sell and a buy in one
 * group, priced by the file's value, else by stored prices, else pending), income with its
 * income_type, transfers, fees in money (the row's fee) or in a coin (a fee row, SPEC §16).
 * Rows of one exchange transaction are one group (a Binance statement's Buy/Sell/Fee rows of one
 * UTC_Time and account; a Kraken refid, whatever its rows' times, at the earliest; a Coinbase
 * Convert's two rows of one ID, in either order). A fee of 0 needs no currency. Money moved in
 * or out (a fiat deposit), income in money, moves between an exchange's own accounts,
 * Kraken's pending rows without a txid and its fee credits (KFEE) are listed in "ignored"; rows no rule reads (an unknown
 * operation or type) in "warnings"; neither stops the import. A price in a currency other than
 * the portfolio's is pending, and so is a row whose fee is in one (a warning names the fee).
 *
 * Symbols to coin ids, in order: the "symbols" option; money (ISO 4217 codes, the engine's and
 * the portfolio's vs_currency); the built-in table (the largest coins, stablecoins, Kraken's
 * codes such as XXBT, XETH, XXDG, ZEUR and suffixes .S .F .M .B .P); a symbol exactly one coin of
 * the saved snapshot has. Anything else fails the whole import before writing, listing every
 * such symbol: details {"reason":"unknown_symbols","symbols":[{"symbol","candidates":[ids…]}…]}.
 *
 * External ids: "<format>:<the exchange's id>" (a Coinbase v4 ID, a Kraken refid), else
 * "<format>:" + the first 32 hex digits of SHA-256 over the cells of the entry's rows (cells
 * joined by U+001F, rows by U+001E; the n-th identical row of a file hashes the first digest, U+001D
 * and n); an entry's further rows add "#2", "#3". A row whose external id the portfolio already
 * has is skipped, so importing a file again, or a later export that overlaps it, imports only
 * the new rows.
 *
 * All or nothing, in one database transaction (a dry run checks everything, the never-negative
 * rule included, and rolls back). Never sends a request. Reports progress (phase "import": done
 * 0; the rows read every 1,000 rows with total null; then rows written with total the rows of
 * the file; done = total at the end) to the function of cf_engine_set_progress; a call from that
 * function that reads or writes the database returns CF_INVALID_ARGUMENT, details.reason
 * "reentrant".
 * out_json: {"format","variant","imported":n (transactions written: trade legs and fee rows
 * count),"skipped":n (transactions already there),"ignored":[{"line","reason"}…],
 * "warnings":[{"line","reason"}…],"pending_prices":n (written rows whose price is pending),
 * "unknown_symbols":[{"symbol","candidates"}…] (empty unless dry_run)} and, with dry_run only,
 * "transactions":[…] (the rows that would be written, "id" and "group_id" null; rows naming an
 * unknown symbol are left out and the rest is checked without them). Lines are the file's physical
 * lines, preamble lines included. Returns CF_OK, CF_INVALID_ARGUMENT (NULL engine or data; bad
 * options with details.field; details.reason "unknown_format" with details.header (the first
 * record's cells) and details.formats (every format's name); "unknown_symbols"; details.line and
 * details.column (the header's title) for a broken cell or a row the ledger refuses; details.line
 * alone for a repeated external id or a shortfall with details {coin_id, timestamp, short_by} (the
 * earliest in ledger order; the line of its row, or of the first row of its entry); "out_of_range";
 * "reentrant") or CF_STORE. */
int cf_engine_import(cf_engine *engine, const char *options_json, const char *data, char **out_json,
                     char **out_error);

/** Exports transactions as CSV in ledger order, with the long header above
 * (timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,fee_price,
 * income_type,group_id, then price_currency,original_price when a row written has a price given
 * in another currency) and CRLF line ends. query_json (may be NULL): {"portfolio":"main"};
 * "portfolio":null exports every portfolio of the owner in one file, so that a move's two sides
 * stay one group through an import. A fee row is not written: its parent carries fee_coin_id and,
 * in fee_price, the price the fee row took. A transaction without an external_id is written with
 * "coinfolio:<id>", so importing the export into the same database imports nothing, and into an
 * empty database recreates it (group ids fresh). No cell can run as a spreadsheet formula: a
 * cell that is any number of ' followed by =, +, -, @, a tab or a carriage return is written
 * with one ' more in front ("=1+1" as '=1+1, "'=x" as ''=x), and cf_engine_import_csv removes
 * one ' from a cell of one or more ' followed by one of those, so the text round-trips exactly
 * (a file from elsewhere whose cell really starts with '= imports as =). out_csv: the CSV text,
 * freed with cf_string_free. Returns CF_OK, CF_INVALID_ARGUMENT, CF_NOT_FOUND or CF_STORE. */
int cf_engine_export_csv(cf_engine *engine, const char *query_json, char **out_csv,
                         char **out_error);
/** @} */

/** @name Returns and taxes
 * How a portfolio performed, and what its disposals realized (SPEC §19). Neither call sends a
 * request: prices of the past come only from stored price points (a missing one shows in the
 * answer, never a guess; cf_engine_fill_prices or a chart fetches them). Money is in the
 * portfolio's currency, exact to 38 significant digits as in cf_engine_pnl; returns are percent
 * (doubles). "portfolio": null means every portfolio of the owner together; their currencies
 * must then be one (else CF_INVALID_ARGUMENT with details.reason "currency").
 */
/** @{ */

/** Performance over a range. options_json (may be NULL): {"portfolio":"main","range":"24h"|"7d"|
 * "30d"|"90d"|"1y"|"ytd"|"max" (default; from 00:00 UTC of the first transaction's day) or
 * {"from","to"} (RFC 3339; a date alone is 00:00Z; "to" absent or later than now: now),
 * "benchmark":null or a coin id}. The named ranges end now and start that many days earlier
 * (1y: 365 days; ytd: January 1st 00:00 UTC).
 * Points: at "from", at each UTC day's 00:00 in between and at "to". A point's value is the units
 * held just before it (transactions at its time come after it) × the coin's price there, by the
 * price_at rule over stored points (the owner's manual point of that UTC day, else the latest
 * CoinGecko point in [the day's 00:00, the time], else the earliest after it within the day);
 * the points are those cf_engine_fill_prices, cf_engine_price_at and cf_engine_set_price store.
 * The last point of a range ending now takes the current price before stored points: the
 * snapshot's current_price (when the portfolio's currency is the engine's and the snapshot has
 * the coin), else the owner's manual current price (cf_engine_set_price without a timestamp), as
 * cf_engine_pnl values a holding. A held coin without a price makes the point's
 * value null, lowers "coverage" and lists its day in "missing".
 * Flows (money from outside; a portfolio holds no money of its own): a buy brings in amount ×
 * price + its fee, a sell takes out amount × price − its fee (a fee paid in a coin is a disposal
 * of that coin, no flow), a transfer in or out moves its market value at its time unless it is
 * one side of a move between two portfolios the report covers (then no flow), income and fee
 * rows are none. Transactions at "from" are flows, not part of start_value. A flow whose value is
 * unknown (a pending price; a transfer without a stored price at its time) makes net_flows and
 * what depends on it null.
 * gain = end_value − start_value − net_flows; roi = gain ÷ (start_value + the inflows) × 100;
 * twr by unit values: units are issued at the first flow at the value then, and each flow buys
 * or sells units at the value just before it: the portfolio's at the flow's time (the units held
 * after every earlier transaction, earlier ones of the same time included, × each coin's price
 * at that time by the price_at rule over stored points). An inflow buys at the value before it;
 * a sell's proceeds leave after the sale, so an outflow sells at the value left plus what leaves
 * (a trade priced away from the stored price is gain or loss then, never negative units). While
 * no unit is held the unit value stays (coins that came without a flow, such as income, count
 * from the next flow). A flow whose value just before is unknown joins the periods around it
 * (its inflows at their start, its outflows at their end), as a point without a value does;
 * null when the first or last value is unknown, and when no unit is ever held (nothing at
 * "from" and no flow: income alone brings no money in to weigh). mwr: the yearly rate r with start_value × (1+r)^(days/365)
 * + Σ flow × (1+r)^(days left/365) = end_value, each day's flows counted at its 00:00 (Newton's
 * method with a bisection fallback); null when there is no single root. benchmark change =
 * (p_to ÷ p_from − 1) × 100 of the coin's prices at the range's ends (null when either is
 * missing, its days then listed in "missing").
 * out_json: {"portfolio","vs_currency","from","to" (RFC 3339),"start_value","end_value",
 * "net_flows","gain","roi","twr","mwr","benchmark":{"coin_id","change"}|null,"coverage" (share
 * of points with a value),"points":[[t_ms,value|null,net_flows|null (Σ flows in [from, t_ms))]…],
 * "missing":[{"date":"YYYY-MM-DD","coin_ids":[…]}…] (by date)}. Returns CF_OK,
 * CF_INVALID_ARGUMENT (NULL engine, malformed JSON, a bad field: details.field "portfolio",
 * "range", "range.from", "range.to", "benchmark"; a range starting at or after its end or longer
 * than 36,600 days: details.field "range"; one starting at or after now (a future range: "to" is
 * clamped to now): details.field "range.from"; details.reason "currency"), CF_NOT_FOUND (unknown
 * portfolio) or CF_STORE. Never blocks on the network. On SQLite the points of each coin and range
 * read are kept by the engine until any connection changes the database (SQLite's data_version and
 * this connection's change count: at most 1,000,000 points, 16 MB), so the same range asked again
 * reads none; on PostgreSQL they are read each call. */
int cf_engine_performance(cf_engine *engine, const char *options_json, char **out_json,
                          char **out_error);

/** Realized lots and income of a period: one row per (disposal, lot) pair — each sell or fee row
 * and each lot it took by the method, as cf_engine_pnl takes them. options_json (may be NULL):
 * {"portfolio":"main","method":"fifo"|"lifo"|"hifo"|"lofo"|"average"|"uk","year":2024 (UTC
 * January 1st to the next) or "from"/"to" (RFC 3339, from inclusive, to exclusive; neither: every
 * disposal),"long_term_after_years":1,"tax_free_after_years":null,"format":"json"|"csv"}.
 * Holding periods count UTC calendar days. N years after an acquisition date is the same date N
 * years later, or that month's last day when the date does not exist (bought 2020-02-29: one
 * year on 2021-02-28); "term" is "long" when the disposal's UTC date is after the anniversary of
 * long_term_after_years (bought 2023-03-10: sold 2024-03-10 short, 2024-03-11 long), and with
 * tax_free_after_years a row is tax-free on the same rule (the German one-year rule) and left
 * out of taxable_gain. A moved lot keeps its first acquisition time. A disposal's proceeds net of
 * its fees are split over its lots by units (the last taking the remainder, so they add up).
 * Method "uk" (UK share pooling, HMRC's Cryptoassets Manual CRYPTO22200 onwards), also in
 * cf_engine_pnl: per coin and portfolio, a UTC day's acquisitions (buys, income) count as one at
 * their average cost and its disposals as one; a disposal matches the same day's acquisitions
 * first, then the acquisitions of the 30 days after its day (earliest first, earlier disposals
 * first), then the Section 104 pool at its average cost (fees in the pool's cost); transfers join
 * and leave the pool (no acquisition, no disposal). A match's row has acquired_at the matched
 * day's first acquisition (holding_days 0 when after the disposal); a pool row, and an "average"
 * row, the pool's first acquisition.
 * out_json: {"portfolio","vs_currency","method","rows":[{"portfolio","coin_id","amount",
 * "acquired_at","disposed_at" (RFC 3339),"proceeds","cost","gain" (cost and gain null for units
 * of unknown cost — transferred in, a pending price — never 0; proceeds null while the disposal's
 * price is pending),"holding_days","term":"short"|"long","tax_free":true|false|null (null without
 * tax_free_after_years),"disposal_id"}…] (by disposal in ledger order),"totals":{"proceeds",
 * "cost","gain","short_term_gain","long_term_gain","taxable_gain" (each over the rows whose
 * figure is known),"coverage" (share of rows whose gain is known; 1 when none)},"income":
 * [{"portfolio","coin_id","income_type","amount","value" (amount × price; null while
 * pending),"timestamp","transaction_id"}…],"income_total"}. With "format":"csv" out_json is
 * instead CSV text (RFC 4180, CRLF) of the rows in Form 8949-like columns:
 * description,acquired,disposed,proceeds,cost,gain,term — description "<amount> <coin_id>",
 * dates as UTC YYYY-MM-DD, an unknown value an empty cell. Returns CF_OK, CF_INVALID_ARGUMENT
 * (NULL engine, malformed JSON, a bad field: details.field "portfolio", "method", "year" (not a
 * whole number 1970…9998, or given with from/to), "from", "to" (not after from),
 * "long_term_after_years", "tax_free_after_years" (whole numbers 0…1000), "format";
 * details.reason "currency"), CF_NOT_FOUND (unknown portfolio) or CF_STORE. Never blocks on the
 * network. */
int cf_engine_realized(cf_engine *engine, const char *options_json, char **out_json,
                       char **out_error);
/** @} */

/** @name Charts and cheap price updates
 * A summary object is {"first","last" (the values at the earliest and latest times that have
 * one),"min","max","min_at","max_at" (t_ms of the first time each extreme is reached),"change"
 * (last − first),"percentage_change" (percent; null when first is 0)}: gaps are ignored, and
 * every key is null for a series with no value.
 */
/** @{ */

/** One coin's price chart from GET /coins/{id}/market_chart in the engine's vs_currency, cached
 * per (coin_id, days, interval) for chart_ttl_s; concurrent callers share one request. A download
 * is reported to the progress function as phase "chart" (done 0, then 1, of total 1).
 * options_json (may be NULL): {"days":7 (1…36500) | "max","interval":"daily" | null}. On the
 * public and demo plans more than 365 days (or "max") is asked as 365 and the answer says
 * "clamped": true.
 * out_json: {"coin_id","vs_currency","days":n | "max" (as asked of CoinGecko),"interval",
 * "clamped":b,"points":[[t_ms,v|null]…] (sorted by time; null is a gap),"summary":{…}}.
 * May block on the network. Returns CF_OK, CF_INVALID_ARGUMENT (bad id or options; or
 * details.reason "reentrant": called from the progress function of this same chart's
 * download, which it would wait for), CF_NOT_FOUND
 * (unknown coin), CF_UNAUTHORIZED (details.error_code 10012, details.reason "history_limit": a range the plan refuses) or another
 * network status. */
int cf_engine_chart(cf_engine *engine, const char *coin_id, const char *options_json,
                    char **out_json, char **out_error);

/** The portfolio's value over the snapshot's last 7 days: each priced holding's sparkline ×
 * its current amount; no request. A sparkline's last point is at its coin's last_updated, points
 * one hour apart; sparklines of different lengths are aligned at their end and the history
 * ends at the latest last_updated. options_json (may be NULL): {"portfolio":"main"} (null, every
 * portfolio, is refused: details.field "portfolio").
 * out_json: {"vs_currency","points":[[t_ms,value|null,partial]…] (oldest first; partial: some
 * priced holding has no price at that time, and value counts the others),"summary":{…}};
 * no points without priced holdings or sparklines.
 * Returns CF_OK, CF_INVALID_ARGUMENT, CF_NOT_FOUND (no such portfolio) or CF_STORE. Never blocks. */
int cf_engine_portfolio_history(cf_engine *engine, const char *options_json, char **out_json,
                                char **out_error);

/** Updates the held coins' prices with one GET /simple/price request (per 250 held coins)
 * instead of a full refresh. A coin the answer prices takes its price, 24 h change (a null
 * change included; price_change_24h follows from it) and last_updated from it (null when
 * last_updated_at is outside 1970…9999); a coin it does not
 * price keeps its previous values. Only held coins in the snapshot change; the snapshot is saved
 * in place (its other coins and sparklines are not written again). as_of becomes the newest
 * last_updated of the priced coins when that is newer.
 * out_json: {"coins":n (coins priced),"as_of":"…","stale":b}. Blocks on the network.
 * Returns CF_OK, CF_NO_DATA (no snapshot yet), a network status (the snapshot is unchanged),
 * CF_INVALID_ARGUMENT (details.reason "reentrant", as cf_engine_refresh) or CF_STORE. */
int cf_engine_refresh_prices(cf_engine *engine, char **out_json, char **out_error);

/** Draws the JSON answer of cf_engine_chart or cf_engine_portfolio_history (any object with
 * "points":[[t_ms,v|null,partial?,…]…], sorted here by time when they are not, and "vs_currency",
 * default usd) as a standalone SVG document a person reads at a glance:
 * - the line green (RGB 16c784) when the last value >= the first, red (RGB ea3943) otherwise;
 *   gaps (null values) as breaks in the line;
 * - on the left, round value ticks with grid lines: steps of 1, 2 or 5 × 10^n, 3 to 6 ticks
 *   (fewer than 6 only where the height has no room), the first at or below the lowest value
 *   and the last at or above the highest; of those steps the smallest, and the scale runs from
 *   the first tick to the last (28,368…40,697 → $25,000.00 … $45,000.00 by 5,000; 0.98…1.02 →
 *   $0.98 … $1.02 by 0.01). A flat series or a single point gets three ticks: its value rounded
 *   to a step of at least 1 % of it (1 for 0), and one step either side (5 → $4.95, $5.00, $5.05).
 *   Labels follow cf_format_value (the currency's digits: "$40,000.00", "¥15,300,000"; crypto
 *   and metal quotes at least 2), with more digits where the step needs them, the same on every
 *   tick ("$0.0000025", "$0.998", "₿0.00000155");
 * - below, the first and last dates (yyyy-MM-dd, with HH:mm when the span is under two days)
 *   and round times between them with grid lines, all in UTC, never the host's time zone: the
 *   finest of minutes (1, 2, 5, 10, 15, 30), hours (1, 2, 3, 6, 12), days (1, 2, 5, 10 from the
 *   1st of each month), months (1, 2, 3, 6) or years (1, 2, 5 × 10^n) that puts at most 12
 *   ticks there and leaves each label room; days for a week, months for a year at 1200 pixels
 *   (every other month at 640), years for "max". Labels "15:00" (midnight "Dec 13"), "Dec 13",
 *   "Mar" (January "2025"), "2025"; a label that would crowd the end dates is left out (its
 *   grid line stays);
 * - partial points (a third member true: cf_engine_portfolio_history's hours that leave out a
 *   priced holding without a price then) drawn dashed and lighter, in the line's colour, with a
 *   note under the title: "Dashed: N of M points miss a holding’s price". The value scale and the
 *   colour follow the complete points only (all points when none is complete); a partial value
 *   outside that scale is cut at the plot's edge. Chosen over starting the line at the first
 *   complete point because partial points also fall inside a week (a gap in one sparkline) and
 *   may be all there is (a holding with no sparkline): drawn distinctly, nothing is hidden and
 *   nothing partial is read as the portfolio's value;
 * - an optional title; a series with no value says "No data" alone.
 * Every text is XML-escaped.
 * options_json (may be NULL; every key optional): {"width":640,"height":320 (pixels, 64…4096),
 * "title":"…" | null,"theme":"light" | "dark"}. *out_svg receives UTF-8 SVG text (free with
 * cf_string_free). Returns CF_OK or CF_INVALID_ARGUMENT (NULL chart_json, malformed JSON, no
 * "points" array, a point that is not [number, number|null], a bad option). Never blocks. */
int cf_chart_svg(const char *chart_json, const char *options_json, char **out_svg,
                 char **out_error);

/** @} */

/** @name Prices in the past
 * SPEC §17. CoinGecko's price points (GET /coins/{id}/market_chart/range) are stored once per
 * database for every owner (market data); manual prices (cf_engine_set_price) belong to the
 * engine's owner. Times are RFC 3339 text (an offset is normalized to UTC, no zone is UTC, a date
 * alone is 00:00:00Z; never the host's zone) between 1970-01-01 and 9999-12-31. A vs_currency
 * must be one CoinGecko prices coins in (its /simple/supported_vs_currencies: usd, eur, btc, sats,
 * …): another is CF_INVALID_ARGUMENT with details.reason "unknown_currency". Every bad field is
 * CF_INVALID_ARGUMENT with details.field naming it, and changes nothing.
 *
 * The price at a time t, in this order: the owner's manual point of t's UTC day (the latest at or
 * before t, else the earliest after); the latest stored CoinGecko point in [t's day 00:00, t];
 * the earliest in (t, the next 00:00); the snapshot's current_price when it is in that currency
 * and the coin's last_updated is within an hour of t; else one range request for t's day (its
 * points stored), and the stored points again. CoinGecko's spacing decides what a day holds: 5
 * minutes within a day of now, hourly up to 90 days back, daily (00:00 UTC) beyond.
 */
/** @{ */

/** The price of a coin at a time. query_json (required): {"coin_id":"bitcoin","timestamp":
 * "2024-03-01T12:30:00Z","vs_currency":"usd" (optional: the engine's)}.
 * out_json: {"coin_id","vs_currency","timestamp" (as asked, RFC 3339 UTC),"price" (per unit in
 * vs_currency: a manual price exactly as set, a CoinGecko price exactly as sent),"at" (t_ms of the
 * point used; the snapshot's last_updated for "snapshot"),"source":"manual" | "coingecko" |
 * "snapshot"}.
 * May block on the network (one range request when nothing stored answers). Returns CF_OK,
 * CF_INVALID_ARGUMENT (NULL argument, malformed JSON, a bad coin_id (one with a '/' included),
 * timestamp or vs_currency: details.field; nothing is sent), CF_NO_DATA with details {"reason",
 * "coin_id","vs_currency","timestamp"}: reason "history_limit" (the public and demo plans reach
 * back 365 days: CoinGecko's error 10012, or an older time, refused without a request),
 * "unknown_coin" (CoinGecko answered 404) or "no_point" (no point on that UTC day, a future time
 * included), a network status (CF_NETWORK, CF_HTTP, CF_RATE_LIMITED, CF_UNAUTHORIZED) or
 * CF_STORE. */
int cf_engine_price_at(cf_engine *engine, const char *query_json, char **out_json,
                       char **out_error);

/** Sets or removes one of the owner's manual prices. price_json (required): {"coin_id":"…",
 * "vs_currency":"usd" (optional: the engine's),"timestamp":"2024-03-01T12:00:00Z" | null,
 * "price":12.5 | "12.5" | null}. With a timestamp it is a historical point: cf_engine_price_at
 * takes it for the whole UTC day of that time, before any CoinGecko point. Without one (null or
 * absent) it is the coin's current price in that currency: cf_engine_portfolio,
 * cf_engine_statistics and cf_engine_pnl value a holding with it ("price_source":"manual") while
 * the snapshot has no price for the coin (a token CoinGecko does not list). The price is an exact
 * decimal >= 0 (at most 18 fraction digits, at most 8.5e19); null or absent removes the manual
 * price (removing one that is not there is no error). Other owners never see it.
 * Returns CF_OK, CF_INVALID_ARGUMENT (NULL argument, malformed JSON, a bad coin_id, timestamp,
 * vs_currency or price — negative, not a number, more than 18 fraction digits: details.field;
 * nothing is written) or CF_STORE. Never blocks on the network. */
int cf_engine_set_price(cf_engine *engine, const char *price_json, char **out_error);

/** Fills the owner's pending prices (rows with "price_source":"pending": buys, sells, income and
 * fee rows stored without a price, trades without a value, prices given in another currency not
 * converted yet). options_json (may be NULL): {"portfolio":null (every portfolio of the owner) |
 * "main","max_requests":20 (0…1000: range requests this call may send)}.
 * Each row takes its coin's price at its time in its portfolio's currency by the rule above
 * (manual point of the day, stored points of the day, the snapshot within an hour), with
 * "price_source" "coingecko" (or "manual") and "price_at" the point's time; a trade's two legs
 * take one value, the received coin's price × its amount, else the sent coin's (SPEC §16); a
 * price in another currency is converted (see Ledger; its source stays "user"). What the stored
 * points cannot price is asked of CoinGecko with at most one GET /coins/{id}/market_chart/range
 * per coin, currency and 365 days of its rows' times — never one per row — in coin order, within
 * max_requests; their points are stored for every owner; a trade's sent coin is asked for only
 * when its received coin had no price. Ranges over 90 days get daily points (00:00 UTC), so such
 * rows take their day's 00:00 price. Progress: phase "prices" (done: requests sent, total: those
 * planned). out_json: {"filled":n (rows priced),"requests":n (range requests sent, retries
 * included),"missing":[{"transaction_id","coin_id","timestamp","reason"}…]} (rows still pending,
 * by id), reason "history_limit" (older than the public and demo plans' 365 days, or CoinGecko's
 * 10012), "unknown_coin" (404), "no_point" (no point that UTC day the ledger can hold — a
 * price above 0 that 18 fraction digits round to 0, below 5e-19, or one of 8.5e19 or more counts
 * as none: never a free coin; a future time too), "max_requests" (left by the bound) or "rate_limited" (a 429 stopped the requests, or a
 * remembered Retry-After had not passed: nothing was sent; the call still returns CF_OK with what
 * it filled, and a fill before the wait ends sends nothing). Pending prices stay unknown in every
 * report (null with coverages, never 0).
 * May block on the network. Returns CF_OK, CF_INVALID_ARGUMENT (malformed options: details.field;
 * details.reason "reentrant" from a progress function of this fill; nothing written),
 * CF_NOT_FOUND (an unknown portfolio other than "main"), a network status other than
 * CF_RATE_LIMITED (CF_NETWORK, CF_HTTP, CF_UNAUTHORIZED, CF_DECODE: the rows filled before the
 * failure stay filled) or CF_STORE. */
int cf_engine_fill_prices(cf_engine *engine, const char *options_json, char **out_json,
                          char **out_error);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /**< COINFOLIO_H */
