import Foundation

extension Coin: Decodable {
    /// Decodes one `/coins/markets` element tolerantly: `id`, `symbol`, `name` must be strings
    /// (and `id` must pass the coin id rule); any other field that is missing, null or of the
    /// wrong type reads as nil.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
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
        if let r = try? c.nestedContainer(keyedBy: ROI.JSONKey.self, forKey: .roi) {
            roi = ROI(
                times: r.lenientDouble(.times), currency: r.lenientString(.currency),
                percentage: r.lenientDouble(.percentage))
        }
        if let s = try? c.nestedContainer(keyedBy: SparklineKey.self, forKey: .sparklineIn7d),
            var points = try? s.nestedUnkeyedContainer(forKey: .price)
        {
            sparklineIn7d = Self.prices(&points)
        }
        var changes: [ChangeWindow: Double] = [:]
        for window in ChangeWindow.allCases {
            if let value = c.lenientDouble(window.jsonKey) { changes[window] = value }
        }
        priceChangePercentageInCurrency = changes
    }

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
