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
    /// missing, null or mistyped.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        symbol = try c.decode(String.self, forKey: .symbol)
        name = try c.decode(String.self, forKey: .name)
        blockTimeInMinutes = c.lenient(Double.self, .blockTimeInMinutes)
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
                .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
            if let reddit = l.lenient(String.self, .subredditURL)?.trimmingCharacters(in: .whitespacesAndNewlines), !reddit.isEmpty {
                subredditURL = reddit
            }
        }
    }
}
