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
