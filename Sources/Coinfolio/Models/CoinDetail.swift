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
