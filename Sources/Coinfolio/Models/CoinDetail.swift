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
    /// missing, null or mistyped.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        symbol = try c.decode(String.self, forKey: .symbol)
        name = try c.decode(String.self, forKey: .name)
        blockTimeInMinutes = c.lenientDouble(.blockTimeInMinutes)
        hashingAlgorithm = c.lenient(String.self, .hashingAlgorithm)
        genesisDate = c.lenient(String.self, .genesisDate)
        categories = (c.lenient([String?].self, .categories) ?? []).compactMap { $0 }
        if let d = try? c.nestedContainer(keyedBy: DescriptionKeys.self, forKey: .description),
            let english = d.lenient(String.self, .en)
        {
            description = HTMLText.plainText(english)
        }
        if let l = try? c.nestedContainer(keyedBy: LinkKeys.self, forKey: .links) {
            homepage = (l.lenient([String?].self, .homepage) ?? []).lazy
                .compactMap { $0?.trimmingSpaces }.first { !$0.isEmpty }
            if let reddit = l.lenient(String.self, .subredditURL)?.trimmingSpaces, !reddit.isEmpty {
                subredditURL = reddit
            }
        }
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
