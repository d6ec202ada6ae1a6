import Foundation

extension Coin: Decodable {
    /// Decodes one `/coins/markets` element tolerantly (SPEC §2 and §10); see
    /// `init(from:warnings:)`. Warnings are dropped here; `CoinGeckoBody.markets` keeps them.
    public init(from decoder: Decoder) throws {
        var warnings = FieldWarnings()
        try self.init(from: decoder, warnings: &warnings)
    }

    /// Decodes one `/coins/markets` element tolerantly: only `id` is required (a string that
    /// passes the coin id rule); `symbol` and `name` read as `""` when missing, null or not
    /// strings; a number sent as a string that is entirely a JSON number reads as that number;
    /// any other field that is missing, null or of the wrong type reads as nil. Each field read
    /// as nil (or `""`) because of its type, and a missing `symbol` or `name`, is added to
    /// `warnings`.
    /// - Throws: `DecodingError` or `CoinfolioError` when the element is not an object or has no
    ///   usable id (the element is then skipped).
    init(from decoder: Decoder, warnings: inout FieldWarnings) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        id = try c.decode(String.self, forKey: .id)
        try CoinID.validate(id)
        symbol = c.requiredText(.symbol, &warnings)
        name = c.requiredText(.name, &warnings)
        image = c.text(.image, &warnings)
        currentPrice = c.number(.currentPrice, &warnings)
        marketCap = c.number(.marketCap, &warnings)
        marketCapRank = c.integer(.marketCapRank, &warnings).flatMap { $0 > 0 ? $0 : nil }  // 0 or below: unranked
        fullyDilutedValuation = c.number(.fullyDilutedValuation, &warnings)
        totalVolume = c.number(.totalVolume, &warnings)
        high24h = c.number(.high24h, &warnings)
        low24h = c.number(.low24h, &warnings)
        priceChange24h = c.number(.priceChange24h, &warnings)
        priceChangePercentage24h = c.number(.priceChangePercentage24h, &warnings)
        marketCapChange24h = c.number(.marketCapChange24h, &warnings)
        marketCapChangePercentage24h = c.number(.marketCapChangePercentage24h, &warnings)
        circulatingSupply = c.number(.circulatingSupply, &warnings)
        totalSupply = c.number(.totalSupply, &warnings)
        maxSupply = c.number(.maxSupply, &warnings)
        ath = c.number(.ath, &warnings)
        athChangePercentage = c.number(.athChangePercentage, &warnings)
        athDate = c.text(.athDate, &warnings)
        atl = c.number(.atl, &warnings)
        atlChangePercentage = c.number(.atlChangePercentage, &warnings)
        atlDate = c.text(.atlDate, &warnings)
        lastUpdated = c.text(.lastUpdated, &warnings)
        if let r = c.object(.roi, keyedBy: ROI.JSONKey.self, &warnings) {
            var inner = FieldWarnings(prefix: warnings.prefix + "roi.")
            roi = ROI(times: r.number(.times, &inner), currency: r.text(.currency, &inner), percentage: r.number(.percentage, &inner))
            warnings.append(contentsOf: inner)
        }
        if let s = c.object(.sparklineIn7d, keyedBy: SparklineKey.self, &warnings) {
            if var points = try? s.nestedUnkeyedContainer(forKey: .price) {
                sparkline = Sparkline(prices: Self.prices(&points, &warnings))
            } else if !s.isNullOrMissing(.price) {
                warnings.add("sparkline_in_7d.price", DecodeWarning.notAnArray)
            }
        }
        for window in ChangeWindow.allCases {
            if let value = c.number(window.jsonKey, &warnings) { changeWindows[window] = value }
        }
    }

    /// Sparkline points one by one with concrete calls (a generic `[Double?]` decode costs several
    /// times more); a number string reads as its number; null and non-numbers become NaN (a
    /// non-number is reported as `sparkline_in_7d.price[i]`).
    private static func prices(_ points: inout UnkeyedDecodingContainer, _ warnings: inout FieldWarnings) -> [Double] {
        var prices: [Double] = []
        prices.reserveCapacity(points.count ?? 0)
        while !points.isAtEnd {
            let position = prices.count
            if let value = try? points.decode(Double.self) {
                prices.append(value)
            } else if (try? points.decodeNil()) == true {
                prices.append(.nan)
            } else if let text = try? points.decode(String.self) {
                let value = NumberText.parse(text)
                if value == nil { warnings.add("sparkline_in_7d.price[\(position)]", DecodeWarning.notANumber) }
                prices.append(value ?? .nan)
            } else if (try? points.decode(Skip.self)) != nil {
                warnings.add("sparkline_in_7d.price[\(position)]", DecodeWarning.notANumber)
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
