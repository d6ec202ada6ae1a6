import Foundation

extension MarketData: Decodable {
    enum CodingKeys: String, CodingKey {
        case totalMarketCap = "total_market_cap"
        case totalVolume = "total_volume"
        case marketCapPercentage = "market_cap_percentage"
        case marketCapChangePercentage24hUSD = "market_cap_change_percentage_24h_usd"
        case activeCryptocurrencies = "active_cryptocurrencies"
        case markets
        case updatedAt = "updated_at"
    }

    /// Decodes tolerantly: a missing, null or mistyped field reads as nil; a map keeps only its
    /// numeric entries.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        totalMarketCap = Self.numbers(c, .totalMarketCap)
        totalVolume = Self.numbers(c, .totalVolume)
        marketCapPercentage = Self.numbers(c, .marketCapPercentage)
        marketCapChangePercentage24hUSD = c.lenient(Double.self, .marketCapChangePercentage24hUSD)
        activeCryptocurrencies = c.lenientInt(.activeCryptocurrencies)
        markets = c.lenientInt(.markets)
        updatedAt = c.lenientInt(.updatedAt)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A map of numbers, entry by entry: a null or non-number entry is left out, not the map.
    private static func numbers(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> [String: Double]? {
        guard let map = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: key) else { return nil }
        var values: [String: Double] = [:]
        for entry in map.allKeys {
            if let value = map.lenientDouble(entry) { values[entry.stringValue] = value }
        }
        return values
    }
}
