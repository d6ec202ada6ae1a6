/// The query of `GET /coins/markets`.
///
/// JSON form (every key optional): `{"vs_currency":"usd","ids":["bitcoin",…],"per_page":250,
/// "page":1,"sparkline":true}`. The order is always `market_cap_desc`,
/// `price_change_percentage=24h` is always asked, as the tracker needs them, and `precision=full`
/// always sent, so that CoinGecko never rounds a price (SPEC §17).
public struct MarketsRequest: Hashable, Sendable {
    /// Quote currency of prices, caps and volumes.
    public var vsCurrency: VsCurrency
    /// Only these coin ids (more than 250 are split into several requests); nil for the top list.
    public var ids: [String]?
    /// Coins per page, 1…250 (ignored with `ids`: every id is asked for).
    public var perPage: Int
    /// Page number from 1 (ignored with `ids`).
    public var page: Int
    /// Whether to include `sparkline_in_7d`.
    public var sparkline: Bool
    /// The `price_change_percentage` windows asked for (default 24h only).
    public var priceChangePercentage: [Coin.ChangeWindow] = [.h24]

    /// The most ids or coins CoinGecko returns in one request.
    public static let maximumPerPage = 250

    /// - Throws: `.invalidArgument` for a bad id, per_page outside 1…250 or page below 1.
    public init(vsCurrency: VsCurrency = .usd, ids: [String]? = nil, perPage: Int = 250, page: Int = 1, sparkline: Bool = true) throws {
        guard (1...Self.maximumPerPage).contains(perPage) else { throw CoinfolioError.invalid("per_page must be from 1 to 250") }
        guard page >= 1 else { throw CoinfolioError.invalid("page must be 1 or more") }
        for id in ids ?? [] { try CoinID.validate(id) }
        self.vsCurrency = vsCurrency
        self.ids = ids
        self.perPage = perPage
        self.page = page
        self.sparkline = sparkline
    }

    /// The query, in CoinGecko's documented order.
    /// With ids, each request asks for all of its (at most 250) ids: `per_page=250&page=1`,
    /// whatever `perPage` and `page` say, so that no id is cut off.
    func query(ids chunk: [String]?) -> [RequestURL.QueryItem] {
        var items = [RequestURL.QueryItem("vs_currency", vsCurrency.code)]
        if let chunk { items.append(RequestURL.QueryItem("ids", list: chunk)) }
        items += [
            RequestURL.QueryItem("order", "market_cap_desc"),
            RequestURL.QueryItem("per_page", chunk == nil ? perPage : Self.maximumPerPage),
            RequestURL.QueryItem("page", chunk == nil ? page : 1),
            RequestURL.QueryItem("sparkline", sparkline),
            RequestURL.QueryItem(
                "price_change_percentage", list: (priceChangePercentage.isEmpty ? [.h24] : priceChangePercentage).map(\.rawValue)),
            RequestURL.QueryItem.fullPrecision,
        ]
        return items
    }
}

extension MarketsRequest: Decodable {
    private enum CodingKeys: String, CodingKey {
        case vsCurrency = "vs_currency", ids, perPage = "per_page", page, sparkline
    }

    /// Reads the JSON form; see the type's documentation.
    /// - Throws: `.invalidArgument` for a bad value or type.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            vsCurrency: try c.decodeIfPresent(String.self, forKey: .vsCurrency).map { try VsCurrency($0) } ?? .usd,
            ids: try c.decodeIfPresent([String].self, forKey: .ids),
            perPage: try c.wholeNumber(.perPage, in: 1...250) ?? 250,
            page: try c.wholeNumber(.page, in: 1...1_000_000) ?? 1,
            sparkline: try c.decodeIfPresent(Bool.self, forKey: .sparkline) ?? true)
    }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad value.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(MarketsRequest.self, from: json, default: { MarketsRequest(defaults: ()) })
    }

    /// The defaults of the JSON form (valid by construction, so no validation).
    private init(defaults: Void) {
        vsCurrency = .usd
        ids = nil
        perPage = 250
        page = 1
        sparkline = true
    }
}
