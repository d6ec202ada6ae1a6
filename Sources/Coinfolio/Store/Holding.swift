/// How much of one coin the user holds: the seed's `PortfolioEntity (coinId, amount)`.
public struct Holding: Hashable, Sendable {
    /// CoinGecko coin id.
    public var coinID: String
    /// Units of the coin held (> 0).
    public var amount: Double

    /// A holding of `amount` units of the coin `coinID`.
    public init(coinID: String, amount: Double) {
        self.coinID = coinID
        self.amount = amount
    }
}

extension Array where Element == Holding {
    /// `{"holdings":[{"coin_id":"bitcoin","amount":0.5}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: count * 48 + 16)
        w.beginObject()
        w.key("holdings"); w.beginArray()
        for holding in self {
            w.beginObject()
            w.key("coin_id"); w.string(holding.coinID)
            w.key("amount"); w.number(holding.amount)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}

extension Array where Element == Holding {
    /// Reads the batch-write input `{"holdings":[{"coin_id":"bitcoin","amount":0.5}…]}` (the
    /// shape `json` writes); unknown keys are ignored. Amounts are units of the coin; whether
    /// ids and amounts are acceptable is `PortfolioStore.setHoldings`'s to judge.
    /// - Throws: `.invalidArgument` for malformed JSON, a missing `holdings` array, or an entry
    ///   without a string `coin_id` and a number `amount`.
    public init(json: String) throws {
        let input = try ConfigJSON.decode(HoldingsInput?.self, from: json, default: { nil })
        guard let input else { throw CoinfolioError.invalid("expected {\"holdings\":[…]}") }
        self = input.holdings.map { Holding(coinID: $0.coin_id, amount: $0.amount) }
    }
}

/// The JSON form of a batch of holdings.
private struct HoldingsInput: Decodable {
    struct Entry: Decodable {
        var coin_id: String
        var amount: Double
    }
    var holdings: [Entry]
}
