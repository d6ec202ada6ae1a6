import Foundation

extension CoinDetail: Decodable {
    enum CodingKeys: String, CodingKey {
        case id, symbol, name, description, links, categories
        case blockTimeInMinutes = "block_time_in_minutes"
        case hashingAlgorithm = "hashing_algorithm"
        case genesisDate = "genesis_date"
    }
    private enum DescriptionKeys: String, CodingKey { case en }
    private enum LinkKeys: String, CodingKey {
        case homepage
        case subredditURL = "subreddit_url"
    }

    /// Decodes tolerantly: `id`, `symbol` and `name` are required strings; the rest may be
    /// missing, null or mistyped (a number sent as a number string reads as that number).
    /// Fields read as nil because of their type are listed in `warnings`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        symbol = try c.decode(String.self, forKey: .symbol)
        name = try c.decode(String.self, forKey: .name)
        var notes = FieldWarnings()
        blockTimeInMinutes = c.number(.blockTimeInMinutes, &notes)
        hashingAlgorithm = c.text(.hashingAlgorithm, &notes)
        genesisDate = c.text(.genesisDate, &notes)
        categories = Self.strings(c, .categories, &notes)
        if let d = c.object(.description, keyedBy: DescriptionKeys.self, &notes) {
            var inner = FieldWarnings(prefix: "description.")
            if let english = d.text(.en, &inner) { description = HTMLText.plainText(english) }
            notes.append(contentsOf: inner)
        }
        if let l = c.object(.links, keyedBy: LinkKeys.self, &notes) {
            var inner = FieldWarnings(prefix: "links.")
            homepage = (l.lenient([String?].self, .homepage) ?? []).lazy
                .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
            if let reddit = l.text(.subredditURL, &inner)?.trimmingCharacters(in: .whitespacesAndNewlines), !reddit.isEmpty {
                subredditURL = reddit
            }
            notes.append(contentsOf: inner)
        }
        warnings = notes.warnings(index: nil, id: id)
    }
}

extension CoinDetail {
    /// The strings of the array at `key`, in order: nulls left out, any other entry left out and
    /// reported (`categories[2]`, "not a string"); a non-array is reported as "not an array".
    fileprivate static func strings(
        _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, _ notes: inout FieldWarnings
    ) -> [String] {
        if c.isNullOrMissing(key) { return [] }
        guard var list = try? c.nestedUnkeyedContainer(forKey: key) else {
            notes.add(key.stringValue, DecodeWarning.notAnArray)
            return []
        }
        var values: [String] = []
        var position = 0
        while !list.isAtEnd {
            if let value = try? list.decode(String.self) {
                values.append(value)
            } else if (try? list.decodeNil()) == true {
                // null entries are left out silently
            } else if (try? list.decode(SkippedValue.self)) != nil {
                notes.add("\(key.stringValue)[\(position)]", DecodeWarning.notAString)
            } else {
                break
            }
            position += 1
        }
        return values
    }

    /// Any JSON value, kept as nothing.
    private struct SkippedValue: Decodable {
        init(from decoder: Decoder) throws {}
    }
}
