/// The one table of quote currencies: what each `vs_currency` prints before an amount and how
/// many fraction digits its money takes (SPEC §3 and §10). Every formatter, the engine's
/// statistics, the C ABI (`cf_format_*`) and the CLI read it; nothing else knows a symbol or a
/// minor unit.
///
/// A code not in the table is a fiat currency with 2 fraction digits, printed as its upper-case
/// code and a space ("CHF 1,234.56").
public enum CurrencyTable {
    /// How a currency's amounts are written.
    public enum Kind: Hashable, Sendable {
        /// A national currency (or `sats`, `bits`): values use exactly `minorUnit` fraction
        /// digits, its ISO 4217 minor unit (0 for jpy, 3 for kwd, 2 for most).
        case fiat(minorUnit: Int)
        /// A crypto-currency quote (btc, eth, …): 2 to 8 fraction digits, more below 0.0001.
        case crypto
        /// A precious metal quote (xau, xag), written like crypto.
        case metal
    }

    /// One row of the table.
    public struct Entry: Hashable, Sendable {
        /// The lower-case CoinGecko `vs_currency` code.
        public var code: String
        /// Printed directly before the digits: "$", "¥", "₿", or "KWD " (code and a space).
        public var prefix: String
        /// Fraction digit rules.
        public var kind: Kind
    }

    /// The row for `code` (lower-case), or the default row (2-digit fiat, code and a space).
    public static func entry(_ code: String) -> Entry {
        byCode[code] ?? Entry(code: code, prefix: code.uppercased() + " ", kind: .fiat(minorUnit: 2))
    }

    /// Every currency with a rule of its own: a symbol, a minor unit other than 2, or a
    /// crypto/metal kind. Codes from CoinGecko's `/simple/supported_vs_currencies` plus the other
    /// ISO 4217 codes whose minor unit is not 2.
    public static let entries: [Entry] = {
        var rows: [Entry] = [
            Entry(code: "usd", prefix: "$", kind: .fiat(minorUnit: 2)),
            Entry(code: "eur", prefix: "€", kind: .fiat(minorUnit: 2)),
            Entry(code: "gbp", prefix: "£", kind: .fiat(minorUnit: 2)),
            Entry(code: "jpy", prefix: "¥", kind: .fiat(minorUnit: 0)),
            Entry(code: "btc", prefix: "₿", kind: .crypto),
            Entry(code: "eth", prefix: "Ξ", kind: .crypto),
            // Satoshis are whole units; bits (100 satoshis) have two places.
            Entry(code: "sats", prefix: "SATS ", kind: .fiat(minorUnit: 0)),
            Entry(code: "bits", prefix: "BITS ", kind: .fiat(minorUnit: 2)),
        ]
        for code in ["ltc", "bch", "bnb", "eos", "xrp", "xlm", "link", "dot", "yfi", "sol"] {
            rows.append(Entry(code: code, prefix: code.uppercased() + " ", kind: .crypto))
        }
        for code in ["xau", "xag"] {
            rows.append(Entry(code: code, prefix: code.uppercased() + " ", kind: .metal))
        }
        // ISO 4217 currencies without a minor unit (jpy is above).
        for code in [
            "bif", "clp", "djf", "gnf", "isk", "kmf", "krw", "pyg", "rwf", "ugx", "uyi", "vnd", "vuv", "xaf", "xof", "xpf",
        ] {
            rows.append(Entry(code: code, prefix: code.uppercased() + " ", kind: .fiat(minorUnit: 0)))
        }
        // ISO 4217 currencies with three places.
        for code in ["bhd", "iqd", "jod", "kwd", "lyd", "omr", "tnd"] {
            rows.append(Entry(code: code, prefix: code.uppercased() + " ", kind: .fiat(minorUnit: 3)))
        }
        // Four places (Chile's and Uruguay's units of account).
        for code in ["clf", "uyw"] {
            rows.append(Entry(code: code, prefix: code.uppercased() + " ", kind: .fiat(minorUnit: 4)))
        }
        return rows
    }()

    /// The quote currencies CoinGecko prices coins in: its `/simple/supported_vs_currencies`
    /// list (63 codes, 2024–2025). Prices of the past (`price_at`, `set_price`, a transaction's
    /// `price_currency`) are asked of CoinGecko in one of these; any other code is refused there
    /// (`VsCurrency.requireCoinGeckoQuote`), as CoinGecko would answer it with no price.
    public static let coinGeckoCodes: Set<String> = [
        "btc", "eth", "ltc", "bch", "bnb", "eos", "xrp", "xlm", "link", "dot", "yfi", "sol", "usd", "aed", "ars", "aud",
        "bdt", "bhd", "bmd", "brl", "cad", "chf", "clp", "cny", "czk", "dkk", "eur", "gbp", "gel", "hkd", "huf", "idr",
        "ils", "inr", "jpy", "krw", "kwd", "lkr", "mmk", "mxn", "myr", "ngn", "nok", "nzd", "php", "pkr", "pln", "rub",
        "sar", "sek", "sgd", "thb", "try", "twd", "uah", "vef", "vnd", "zar", "xdr", "xag", "xau", "bits", "sats",
    ]

    private static let byCode: [String: Entry] = Dictionary(entries.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
}
