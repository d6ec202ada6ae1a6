import Foundation

extension MarketData: Decodable {
    /// Decodes tolerantly: a missing, null or mistyped field reads as nil; a number sent as a
    /// string that is entirely a JSON number reads as that number; a map keeps only its numeric
    /// entries. Fields read as nil because of their type are listed in `warnings`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        var notes = FieldWarnings()
        totalMarketCap = Self.numbers(c, .totalMarketCap, &notes)
        totalVolume = Self.numbers(c, .totalVolume, &notes)
        marketCapPercentage = Self.numbers(c, .marketCapPercentage, &notes)
        marketCapChangePercentage24hUSD = c.number(.marketCapChangePercentage24hUSD, &notes)
        activeCryptocurrencies = c.integer(.activeCryptocurrencies, &notes)
        markets = c.integer(.markets, &notes)
        updatedAt = c.integer(.updatedAt, &notes)
        warnings = notes.warnings(index: nil, id: nil)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A map of numbers, entry by entry: a null or non-number entry is left out, not the map
    /// (a non-number is reported as `key.entry`, in entry order).
    private static func numbers(
        _ c: KeyedDecodingContainer<JSONKey>, _ key: JSONKey, _ notes: inout FieldWarnings
    ) -> [String: Double]? {
        guard let map = c.object(key, keyedBy: AnyKey.self, &notes) else { return nil }
        var values: [String: Double] = [:]
        var inner = FieldWarnings(prefix: notes.prefix + key.stringValue + ".")
        for entry in map.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            if let value = map.number(entry, &inner) { values[entry.stringValue] = value }
        }
        notes.append(contentsOf: inner)
        return values
    }
}
