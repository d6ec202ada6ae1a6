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
        let c = try decoder.container(keyedBy: CodingKeys.self)
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
        if let r = c.object(.roi, keyedBy: ROIKeys.self, &warnings) {
            var inner = FieldWarnings(prefix: warnings.prefix + "roi.")
            roi = ROI(times: r.number(.times, &inner), currency: r.text(.currency, &inner), percentage: r.number(.percentage, &inner))
            warnings.append(contentsOf: inner)
        }
        if let s = c.object(.sparklineIn7d, keyedBy: SparklineKeys.self, &warnings) {
            if var points = try? s.nestedUnkeyedContainer(forKey: .price) {
                sparklineIn7d = Self.prices(&points, &warnings)
            } else if !s.isNullOrMissing(.price) {
                warnings.add("sparkline_in_7d.price", DecodeWarning.notAnArray)
            }
        }
        var changes: [ChangeWindow: Double] = [:]
        let windows: [(ChangeWindow, CodingKeys)] = [
            (.h1, .pcp1h), (.h24, .pcp24h), (.d7, .pcp7d), (.d14, .pcp14d), (.d30, .pcp30d), (.d200, .pcp200d), (.y1, .pcp1y),
        ]
        for (window, key) in windows {
            if let value = c.number(key, &warnings) { changes[window] = value }
        }
        priceChangePercentageInCurrency = changes
    }

    private enum ROIKeys: String, CodingKey { case times, currency, percentage }

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

extension KeyedDecodingContainer {
    /// The number at `key`; a string that is entirely a JSON number reads as that number. nil
    /// when missing or null; nil and a warning when of another type. (Concrete calls reach
    /// Foundation's fast paths; the generic `lenient` goes through generic metadata.)
    func number(_ key: Key, _ warnings: inout FieldWarnings) -> Double? {
        do {
            return try decodeIfPresent(Double.self, forKey: key)
        } catch {
            if let text = try? decode(String.self, forKey: key), let value = NumberText.parse(text) { return value }
            warnings.add(key.stringValue, DecodeWarning.notANumber)
            return nil
        }
    }

    /// An integer sent as any JSON number (`1`, `1.0`, `1e0`) or a number string; nil when
    /// missing or null; nil and a warning when of another type, fractional or out of range.
    func integer(_ key: Key, _ warnings: inout FieldWarnings) -> Int? {
        guard let value = number(key, &warnings) else { return nil }
        guard value == value.rounded(), abs(value) < 9.0e15 else {
            warnings.add(key.stringValue, DecodeWarning.notAWholeNumber)
            return nil
        }
        return Int(value)
    }

    /// The string at `key`; nil when missing or null; nil and a warning when of another type.
    func text(_ key: Key, _ warnings: inout FieldWarnings) -> String? {
        do {
            return try decodeIfPresent(String.self, forKey: key)
        } catch {
            warnings.add(key.stringValue, DecodeWarning.notAString)
            return nil
        }
    }

    /// The string at `key`, or `""` with a warning ("missing" or "not a string").
    func requiredText(_ key: Key, _ warnings: inout FieldWarnings) -> String {
        if isNullOrMissing(key) {
            warnings.add(key.stringValue, DecodeWarning.missing)
            return ""
        }
        return text(key, &warnings) ?? ""
    }

    /// The object at `key`; nil when missing or null; nil and a warning when of another type.
    func object<NestedKey: CodingKey>(_ key: Key, keyedBy type: NestedKey.Type, _ warnings: inout FieldWarnings)
        -> KeyedDecodingContainer<NestedKey>?
    {
        if isNullOrMissing(key) { return nil }
        if let nested = try? nestedContainer(keyedBy: type, forKey: key) { return nested }
        warnings.add(key.stringValue, DecodeWarning.notAnObject)
        return nil
    }

    /// Whether `key` is absent or JSON null.
    func isNullOrMissing(_ key: Key) -> Bool {
        !contains(key) || ((try? decodeNil(forKey: key)) ?? false)
    }

    /// The number at `key` (number strings read as numbers), or nil when it is missing, null or
    /// not a number.
    func lenientDouble(_ key: Key) -> Double? {
        var ignored = FieldWarnings()
        return number(key, &ignored)
    }

    /// The string at `key`, or nil when it is missing, null or not a string.
    func lenientString(_ key: Key) -> String? {
        (try? decodeIfPresent(String.self, forKey: key)) ?? nil
    }

    /// The value at `key`, or nil when it is missing, null or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// An integer sent as any JSON number (`1`, `1.0`, `1e0`) or a number string; nil when
    /// missing, null, fractional or out of range.
    func lenientInt(_ key: Key) -> Int? {
        var ignored = FieldWarnings()
        return integer(key, &ignored)
    }
}
