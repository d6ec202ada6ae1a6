/// A home-screen list query. JSON form: `{"search":"","sort":"rank","limit":null,"offset":0,
/// "sparkline":true}`.
public struct CoinQuery: Sendable, Decodable {
    /// Substring of name, symbol or id, compared in `SearchText.fold` form (NFKC, case-folded,
    /// diacritic-insensitive: "strasse" finds "Straße"); empty matches every coin.
    public var search: String
    /// The order.
    public var sort: CoinSort
    /// At most this many coins; nil for all.
    public var limit: Int?
    /// Skip this many matches first.
    public var offset: Int
    /// Whether coins carry `sparkline_in_7d` (leave it out when listing many coins).
    public var sparkline: Bool

    /// A query; negative limit or offset count as 0.
    public init(search: String = "", sort: CoinSort = .rank, limit: Int? = nil, offset: Int = 0, sparkline: Bool = true) {
        self.search = search
        self.sort = sort
        self.limit = limit.map { max($0, 0) }
        self.offset = max(offset, 0)
        self.sparkline = sparkline
    }

    private enum CodingKeys: String, CodingKey { case search, sort, limit, offset, sparkline }

    /// Reads the JSON form; see the type's documentation.
    /// - Throws: `.invalidArgument` for an unknown sort, a negative or fractional number, a wrong type.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            search: try c.decodeIfPresent(String.self, forKey: .search) ?? "",
            sort: try c.decodeIfPresent(String.self, forKey: .sort).map { try CoinSort(name: $0) } ?? .rank,
            limit: try c.wholeNumber(.limit, in: 0...Int(Int32.max)),
            offset: try c.wholeNumber(.offset, in: 0...Int(Int32.max)) ?? 0,
            sparkline: try c.decodeIfPresent(Bool.self, forKey: .sparkline) ?? true)
    }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON, an unknown sort, negative numbers, wrong types.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(CoinQuery.self, from: json, default: { CoinQuery() })
    }
}

/// A portfolio query. JSON form:
/// `{"sort":"holdings","sparkline":true,"portfolio":"main"}`.
public struct PortfolioQuery: Sendable, Decodable {
    /// The order (`holdings`: by value, highest first).
    public var sort: CoinSort
    /// Whether coins carry `sparkline_in_7d`.
    public var sparkline: Bool
    /// The ledger portfolio whose holdings are listed (default "main").
    public var portfolio: String

    /// A portfolio query.
    public init(
        sort: CoinSort = .holdings, sparkline: Bool = true, portfolio: String = Transaction.defaultPortfolio
    ) {
        self.sort = sort
        self.sparkline = sparkline
        self.portfolio = portfolio
    }

    private enum CodingKeys: String, CodingKey {
        case sort, sparkline, portfolio
    }

    /// Reads the JSON form; see the type's documentation.
    /// - Throws: `.invalidArgument` for an unknown sort, a negative or fractional number, a wrong type.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.portfolio), try c.decodeNil(forKey: .portfolio) {
            throw CoinfolioError.everyPortfolioRefused("the holdings list")
        }
        self.init(
            sort: try c.decodeIfPresent(String.self, forKey: .sort).map { try CoinSort(name: $0) } ?? .holdings,
            sparkline: try c.decodeIfPresent(Bool.self, forKey: .sparkline) ?? true,
            portfolio: try c.decodeIfPresent(String.self, forKey: .portfolio) ?? Transaction.defaultPortfolio)
    }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON, an unknown sort, wrong types.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(PortfolioQuery.self, from: json, default: { PortfolioQuery() })
    }
}
