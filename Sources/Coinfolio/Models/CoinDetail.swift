/// One coin's descriptive detail: CoinGecko `GET /coins/{id}` (asked without tickers, market,
/// community or developer data).
public struct CoinDetail: Hashable, Sendable {
    /// CoinGecko's coin id.
    public var id: String
    /// Ticker symbol.
    public var symbol: String
    /// Display name.
    public var name: String
    /// `block_time_in_minutes`; nil when unknown (CoinGecko sends 0 for "not applicable").
    public var blockTimeInMinutes: Double?
    /// `hashing_algorithm` ("SHA-256"), nil when CoinGecko has none.
    public var hashingAlgorithm: String?
    /// `description.en` as plain text: HTML tags removed, entities decoded, CRLF as LF.
    public var description: String?
    /// The first non-empty entry of `links.homepage`.
    public var homepage: String?
    /// `links.subreddit_url` when non-empty.
    public var subredditURL: String?
    /// `genesis_date` ("2009-01-03").
    public var genesisDate: String?
    /// `categories`, in CoinGecko's order, nulls left out.
    public var categories: [String]
    /// Fields of the decoded body read as null because of their type (`index` nil, `id` the
    /// coin's, `field` like `"block_time_in_minutes"`); empty for details built in code. See
    /// `DecodeWarning`.
    public var warnings: [DecodeWarning] = []

    /// A detail with only the required fields; set the others as needed.
    public init(id: String, symbol: String, name: String) {
        self.id = id
        self.symbol = symbol
        self.name = name
        self.categories = []
    }
}

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
                .compactMap { $0?.trimmingSpaces }.first { !$0.isEmpty }
            if let reddit = l.text(.subredditURL, &inner)?.trimmingSpaces, !reddit.isEmpty {
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

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
