/// `GET /simple/price` for several ids in one vs_currency.
public struct SimplePrices: Hashable, Sendable {
    /// By coin id. Every id that was asked for is present (with nil values when unanswered).
    public var prices: [String: SimplePrice]

    /// Prices by coin id.
    public init(prices: [String: SimplePrice] = [:]) { self.prices = prices }

    /// `{"prices":{"bitcoin":{"price":x|null,"change_24h":p|null,"last_updated_at":unix_s|null}}}`,
    /// ids in byte order.
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: prices.count * 96 + 16)
        w.beginObject()
        w.key(JSONKey.prices); w.beginObject()
        for id in prices.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let price = prices[id] ?? SimplePrice()
            w.key(named: id); w.beginObject()
            w.key(SimplePrice.JSONKey.price); w.number(price.price)
            w.key(SimplePrice.JSONKey.change24h); w.number(price.change24h)
            w.key(SimplePrice.JSONKey.lastUpdatedAt); w.number(price.lastUpdatedAt)
            w.endObject()
        }
        w.endObject()
        w.endObject()
        return w.bytes
    }
}

extension SimplePrices {
    /// The keys of the `/simple/price` answer.
    enum JSONKey: String, WireKeys {
        case prices
    }
}

extension SimplePrice {
    /// The keys of one coin's price in that answer.
    enum JSONKey: String, WireKeys {
        case price
        case change24h = "change_24h"
        case lastUpdatedAt = "last_updated_at"
    }
}
