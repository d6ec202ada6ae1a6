/// A CoinGecko quote currency (`vs_currency`): `usd`, `eur`, `btc`, …, lower-cased.
///
/// Valid codes are 1–16 ASCII letters or digits (CoinGecko's list includes `usd`, `bits`, `sats`,
/// `link`, `xdr`). The code decides the symbol that formatting prints.
///
/// Every per-currency fact (prefix, minor unit, crypto/metal kind; SPEC §10) is read from
/// `CurrencyTable`, the one currency table, never spelled elsewhere.
public struct VsCurrency: Hashable, Sendable, CustomStringConvertible {
    /// The lower-case code, as CoinGecko's `vs_currency` parameter and map keys spell it.
    public let code: String

    /// - Throws: `CoinfolioError` `.invalidArgument` when `code` is not 1–16 ASCII letters/digits.
    public init(_ code: String) throws {
        let lower = code.lowercased()
        guard (1...16).contains(lower.utf8.count),
            lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else {
            throw CoinfolioError.invalid("vs_currency must be 1 to 16 ASCII letters or digits, like \"usd\"")
        }
        self.code = lower
    }

    /// US dollars, the default everywhere.
    public static let usd = VsCurrency(trusted: "usd")

    init(trusted code: String) { self.code = code }

    /// What stands before an amount, from `CurrencyTable`: "$", "€", "£", "¥", "₿", "Ξ", or the
    /// upper-case code and a space ("CHF ", "KWD ", "SATS ") for every other currency.
    public var prefix: String { CurrencyTable.entry(code).prefix }

    /// How amounts in this currency are written (minor unit, or crypto/metal), from `CurrencyTable`.
    public var kind: CurrencyTable.Kind { CurrencyTable.entry(code).kind }

    /// The lower-case code.
    public var description: String { code }

    /// Whether CoinGecko prices coins in this currency (`CurrencyTable.coinGeckoCodes`).
    public var isCoinGeckoQuote: Bool { CurrencyTable.coinGeckoCodes.contains(code) }

    /// Checks that CoinGecko prices coins in this currency: prices of the past can only come
    /// from it (SPEC §17).
    /// - Parameter field: the input's key, for `details.field`.
    /// - Throws: `.invalidArgument` with `details.reason` "unknown_currency" and `details.field`.
    func requireCoinGeckoQuote(field: String = "vs_currency") throws {
        guard isCoinGeckoQuote else {
            throw CoinfolioError(
                .invalidArgument, "\(field) \"\(code)\" is not a currency CoinGecko prices coins in (usd, eur, btc, …)",
                reason: .unknownCurrency, details: [.field: .string(field)])
        }
    }
}
