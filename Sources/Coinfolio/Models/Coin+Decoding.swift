import Foundation

extension Coin: Decodable {
    enum CodingKeys: String, CodingKey {
        case id, symbol, name, image
        case currentPrice = "current_price"
        case marketCap = "market_cap"
        case marketCapRank = "market_cap_rank"
        case fullyDilutedValuation = "fully_diluted_valuation"
        case totalVolume = "total_volume"
        case high24h = "high_24h"
        case low24h = "low_24h"
        case priceChange24h = "price_change_24h"
        case priceChangePercentage24h = "price_change_percentage_24h"
        case marketCapChange24h = "market_cap_change_24h"
        case marketCapChangePercentage24h = "market_cap_change_percentage_24h"
        case circulatingSupply = "circulating_supply"
        case totalSupply = "total_supply"
        case maxSupply = "max_supply"
        case ath
        case athChangePercentage = "ath_change_percentage"
        case athDate = "ath_date"
        case atl
        case atlChangePercentage = "atl_change_percentage"
        case atlDate = "atl_date"
        case roi
        case lastUpdated = "last_updated"
        case sparklineIn7d = "sparkline_in_7d"
        case pcp1h = "price_change_percentage_1h_in_currency"
        case pcp24h = "price_change_percentage_24h_in_currency"
        case pcp7d = "price_change_percentage_7d_in_currency"
        case pcp14d = "price_change_percentage_14d_in_currency"
        case pcp30d = "price_change_percentage_30d_in_currency"
        case pcp200d = "price_change_percentage_200d_in_currency"
        case pcp1y = "price_change_percentage_1y_in_currency"
    }

    private enum SparklineKeys: String, CodingKey { case price }

    /// Decodes one `/coins/markets` element tolerantly: `id`, `symbol`, `name` must be strings
    /// (and `id` must pass the coin id rule); any other field that is missing, null or of the
    /// wrong type reads as nil.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        symbol = try c.decode(String.self, forKey: .symbol)
        name = try c.decode(String.self, forKey: .name)
        try CoinID.validate(id)
        image = c.lenientString(.image)
        currentPrice = c.lenientDouble(.currentPrice)
        marketCap = c.lenientDouble(.marketCap)
        marketCapRank = c.lenientInt(.marketCapRank).flatMap { $0 > 0 ? $0 : nil }  // 0 or below: unranked
        fullyDilutedValuation = c.lenientDouble(.fullyDilutedValuation)
        totalVolume = c.lenientDouble(.totalVolume)
        high24h = c.lenientDouble(.high24h)
        low24h = c.lenientDouble(.low24h)
        priceChange24h = c.lenientDouble(.priceChange24h)
        priceChangePercentage24h = c.lenientDouble(.priceChangePercentage24h)
        marketCapChange24h = c.lenientDouble(.marketCapChange24h)
        marketCapChangePercentage24h = c.lenientDouble(.marketCapChangePercentage24h)
        circulatingSupply = c.lenientDouble(.circulatingSupply)
        totalSupply = c.lenientDouble(.totalSupply)
        maxSupply = c.lenientDouble(.maxSupply)
        ath = c.lenientDouble(.ath)
        athChangePercentage = c.lenientDouble(.athChangePercentage)
        athDate = c.lenientString(.athDate)
        atl = c.lenientDouble(.atl)
        atlChangePercentage = c.lenientDouble(.atlChangePercentage)
        atlDate = c.lenientString(.atlDate)
        lastUpdated = c.lenientString(.lastUpdated)
        if let r = try? c.nestedContainer(keyedBy: ROIKeys.self, forKey: .roi) {
            roi = ROI(
                times: r.lenientDouble(.times), currency: r.lenientString(.currency),
                percentage: r.lenientDouble(.percentage))
        }
        if let s = try? c.nestedContainer(keyedBy: SparklineKeys.self, forKey: .sparklineIn7d),
            var points = try? s.nestedUnkeyedContainer(forKey: .price)
        {
            sparkline = Sparkline(prices: Self.prices(&points))
        }
        var changes: [ChangeWindow: Double] = [:]
        let windows: [(ChangeWindow, CodingKeys)] = [
            (.h1, .pcp1h), (.h24, .pcp24h), (.d7, .pcp7d), (.d14, .pcp14d), (.d30, .pcp30d), (.d200, .pcp200d), (.y1, .pcp1y),
        ]
        for (window, key) in windows {
            if let value = c.lenientDouble(key) { changes[window] = value }
        }
        priceChangePercentageInCurrency = changes
    }

    private enum ROIKeys: String, CodingKey { case times, currency, percentage }

    /// Sparkline points one by one with concrete calls (a generic `[Double?]` decode costs several
    /// times more); null and non-numbers become NaN.
    private static func prices(_ points: inout UnkeyedDecodingContainer) -> [Double] {
        var prices: [Double] = []
        prices.reserveCapacity(points.count ?? 0)
        while !points.isAtEnd {
            if let value = try? points.decode(Double.self) {
                prices.append(value)
            } else if (try? points.decodeNil()) == true || (try? points.decode(Skip.self)) != nil {
                prices.append(.nan)
            } else {
                break
            }
        }
        return prices
    }

    /// Decodes any JSON value and keeps nothing: moves an unkeyed container past a bad element.
    private struct Skip: Decodable {
        init(from decoder: Decoder) throws {}
    }
}

extension KeyedDecodingContainer {
    /// The number at `key`, or nil when it is missing, null or not a number. (Concrete overloads
    /// reach Foundation's fast paths; the generic `lenient` goes through generic metadata.)
    func lenientDouble(_ key: Key) -> Double? {
        (try? decodeIfPresent(Double.self, forKey: key)) ?? nil
    }

    /// The string at `key`, or nil when it is missing, null or not a string.
    func lenientString(_ key: Key) -> String? {
        (try? decodeIfPresent(String.self, forKey: key)) ?? nil
    }

    /// The value at `key`, or nil when it is missing, null or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// An integer sent as any JSON number (`1`, `1.0`, `1e0`); nil when missing, null, fractional
    /// or out of range.
    func lenientInt(_ key: Key) -> Int? {
        guard let value = lenientDouble(key), value.isFinite, value == value.rounded(),
            abs(value) < 9.0e15
        else { return nil }
        return Int(value)
    }
}
