import Foundation

/// A query of `transactions`: JSON `{portfolio, coin_id, group_id, from, to, limit, offset}`
/// (every key optional; `from`/`to` RFC 3339, inclusive). `"portfolio"` absent is "main" (with
/// `group_id`: every portfolio); `"portfolio": null` is every portfolio of the owner, the one rule
/// of every call that takes a portfolio (SPEC §16, §19).
public struct TransactionQuery: Sendable, Decodable {
    /// The portfolio; nil means "main", except with `groupID`: then every portfolio (a move's two
    /// sides are in two).
    public var portfolio: String?
    /// Every portfolio of the owner (JSON `"portfolio": null`), whatever `portfolio` says.
    public var everyPortfolio = false
    /// Only this coin, when set.
    public var coinID: String?
    /// Only the rows of this group (SPEC §16), when set.
    public var groupID: String?
    /// Only transactions at or after this time (ms since the epoch, UTC).
    public var from: Int64?
    /// Only transactions at or before this time (ms since the epoch, UTC).
    public var to: Int64?
    /// At most this many (nil: all).
    public var limit: Int?
    /// Skip this many first.
    public var offset: Int

    /// A query; times in milliseconds since the epoch (UTC).
    public init(
        portfolio: String? = nil, coinID: String? = nil, groupID: String? = nil, from: Int64? = nil, to: Int64? = nil,
        limit: Int? = nil, offset: Int = 0
    ) {
        self.portfolio = portfolio
        self.coinID = coinID
        self.groupID = groupID
        self.from = from
        self.to = to
        self.limit = limit
        self.offset = offset
    }

    private enum CodingKeys: String, CodingKey { case portfolio, coinID = "coin_id", groupID = "group_id", from, to, limit, offset }

    /// Reads the JSON form. - Throws: `.invalidArgument` naming the key.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func time(_ key: CodingKeys) throws -> Int64? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let value = LedgerTimestamp.parse(text) else {
                throw CoinfolioError.invalid("\(key.stringValue) must be an RFC 3339 time, not \"\(text)\"")
            }
            return value
        }
        let everyPortfolio = c.contains(.portfolio) ? try c.decodeNil(forKey: .portfolio) : false
        self.init(
            portfolio: try c.decodeIfPresent(String.self, forKey: .portfolio), coinID: try c.decodeIfPresent(String.self, forKey: .coinID),
            groupID: try c.decodeIfPresent(String.self, forKey: .groupID), from: try time(.from), to: try time(.to),
            limit: try c.wholeNumber(.limit, in: 0...Int(Int32.max)), offset: try c.wholeNumber(.offset, in: 0...Int(Int32.max)) ?? 0)
        self.everyPortfolio = everyPortfolio
    }

    /// Reads the JSON form; nil means every default.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(TransactionQuery.self, from: json, default: { TransactionQuery() })
    }
}
