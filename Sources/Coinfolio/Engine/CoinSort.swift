/// The orders a coin list can take. Every order ends with `id` ascending as the tie-break, and
/// coins without the sorted value (unranked, unpriced) come last in both directions.
public enum CoinSort: String, CaseIterable, Sendable {
    /// `market_cap_rank` ascending (1 first).
    case rank
    /// `market_cap_rank` descending.
    case rankReversed = "rank_reversed"
    /// `current_price` descending (highest first).
    case price
    /// `current_price` ascending.
    case priceReversed = "price_reversed"
    /// Coin lists: as `rank`. Portfolio: `current_holdings_value` descending.
    case holdings
    /// Coin lists: as `rank_reversed`. Portfolio: `current_holdings_value` ascending.
    case holdingsReversed = "holdings_reversed"

    /// Whether the order follows `current_price` (a price update changes it; the rank orders stay).
    var dependsOnPrice: Bool { self == .price || self == .priceReversed }

    /// Whether the sorted value grows down a coin list (a portfolio sorts `holdings` by value,
    /// highest first, instead).
    var ascending: Bool {
        switch self {
        case .rank, .holdings, .priceReversed: return true
        case .rankReversed, .holdingsReversed, .price: return false
        }
    }

    /// Whether the sorted value grows down the portfolio: as `ascending`, except that `holdings`
    /// sorts by value highest first and `holdings_reversed` lowest first.
    var portfolioAscending: Bool {
        switch self {
        case .holdings: return false
        case .holdingsReversed: return true
        default: return ascending
        }
    }

    /// The value a coin list sorts by (`holdings` lists sort by rank).
    func listKey(_ coin: Coin) -> Double? {
        switch self {
        case .rank, .rankReversed, .holdings, .holdingsReversed: return coin.marketCapRank.map(Double.init)
        case .price, .priceReversed: return coin.currentPrice
        }
    }

    /// Positions of `keys` sorted by key (nil and NaN last in both directions), then by id.
    static func order(keys: [Double?], ids: [String], ascending: Bool) -> [Int] {
        keys.indices.sorted { a, b in
            ordered(keys[a], keys[b], ascending: ascending) ?? (ids[a] < ids[b])
        }
    }

    /// Compares two optional values (nil and NaN last); nil when they tie.
    static func ordered(_ a: Double?, _ b: Double?, ascending: Bool) -> Bool? {
        let x = a.flatMap { $0.isNaN ? nil : $0 }
        let y = b.flatMap { $0.isNaN ? nil : $0 }
        switch (x, y) {
        case (nil, nil): return nil
        case (nil, _): return false
        case (_, nil): return true
        case let (x?, y?):
            if x == y { return nil }
            return ascending ? x < y : x > y
        }
    }

    init(name: String) throws {
        guard let sort = CoinSort(rawValue: name) else {
            throw CoinfolioError.invalid(
                "unknown sort \"\(name)\"; use one of \(CoinSort.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = sort
    }
}
