/// The options of an import (SPEC §18): JSON `{"format":"auto"|"coinfolio"|"coinbase"|"binance"|
/// "kraken"|"cointracking"|"koinly","portfolio":"main","dry_run":false,"symbols":{"BOND":
/// "barnbridge"}}`, every member optional.
public struct ImportOptions: Sendable, Hashable, Decodable {
    /// The format, nil for `auto` (detected from the header).
    public var format: ImportFormat?
    /// The portfolio the rows go to (the coinfolio format: its rows without a portfolio); created
    /// with the engine's `vs_currency` when it does not exist.
    public var portfolio: String
    /// Check and plan everything, write nothing: the answer lists the transactions and the
    /// unknown symbols instead of failing on them.
    public var dryRun: Bool
    /// Symbol → CoinGecko coin id, before every other rule (upper-case and lower-case symbols
    /// are the same).
    public var symbols: [String: String]

    /// Options; defaults auto, "main", a real import, no symbols.
    public init(
        format: ImportFormat? = nil, portfolio: String = Transaction.defaultPortfolio, dryRun: Bool = false, symbols: [String: String] = [:]
    ) {
        self.format = format
        self.portfolio = portfolio
        self.dryRun = dryRun
        self.symbols = symbols
    }

    private enum CodingKeys: String, CodingKey {
        case format, portfolio, symbols
        case dryRun = "dry_run"
    }

    /// Reads the JSON form. - Throws: `.invalidArgument` with `details.field` for an unknown
    /// format, a bad portfolio name or a `symbols` value that is no coin id.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decodeIfPresent(String.self, forKey: .format) ?? "auto"
        var format: ImportFormat?
        if name != "auto" {
            guard let known = ImportFormat(rawValue: name) else {
                throw CoinfolioError(
                    .invalidArgument, "format must be \(ImportFormat.optionList), not \"\(name)\"", details: [.field: .string("format")])
            }
            format = known
        }
        if c.contains(.portfolio), try c.decodeNil(forKey: .portfolio) {
            throw CoinfolioError.everyPortfolioRefused("an import")
        }
        self.init(
            format: format, portfolio: try c.decodeIfPresent(String.self, forKey: .portfolio) ?? Transaction.defaultPortfolio,
            dryRun: try c.decodeIfPresent(Bool.self, forKey: .dryRun) ?? false,
            symbols: try c.decodeIfPresent([String: String].self, forKey: .symbols) ?? [:])
        try validate()
    }

    /// Reads the JSON form; nil means every default.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(ImportOptions.self, from: json, default: { ImportOptions() })
    }

    /// Checks the portfolio name, that each `symbols` value is a coin id (not money), that no
    /// symbol is empty or has surrounding white space (a file's symbol never matches it), and
    /// that no two symbols differing only in case name two coins (which one won depended on the
    /// order of the keys).
    /// - Throws: `.invalidArgument` with `details.field` (`portfolio`, `symbols.BOND`).
    public func validate() throws {
        try Transaction.validatePortfolioName(portfolio)
        var folded: [String: (symbol: String, id: String)] = [:]
        for (symbol, id) in symbols.sorted(by: { $0.key < $1.key }) {
            guard !symbol.isEmpty else {
                throw CoinfolioError(.invalidArgument, "symbols has an empty symbol", details: [.field: .string("symbols")])
            }
            let field: [CoinfolioError.DetailKey: CoinfolioError.Detail] = [.field: .string("symbols.\(symbol)")]
            guard symbol.first?.isWhitespace != true, symbol.last?.isWhitespace != true else {
                throw CoinfolioError(
                    .invalidArgument, "symbols has \"\(symbol)\", with white space around it, which no file's symbol has",
                    details: field)
            }
            try Transaction.validateCoinID(id, field: "symbols.\(symbol)")
            if let earlier = folded[symbol.uppercased()], earlier.id != id {
                throw CoinfolioError(
                    .invalidArgument,
                    "symbols has \"\(earlier.symbol)\" and \"\(symbol)\", one symbol (case does not matter) for two coins: \(earlier.id), \(id)",
                    details: field)
            }
            folded[symbol.uppercased()] = (symbol, id)
        }
    }
}
