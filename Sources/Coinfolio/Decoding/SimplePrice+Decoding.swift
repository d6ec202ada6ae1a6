import Foundation

extension CoinGeckoBody {
    /// Decodes a `GET /simple/price` body for one vs_currency:
    /// `{"bitcoin":{"usd":x,"usd_24h_change":p,"last_updated_at":unix_s},…}`.
    ///
    /// An id answered with `{}` (CoinGecko's answer for a known id with no price), or with values
    /// that are null or not numbers, has nil values: not an error. Ids in `ids` that the answer
    /// leaves out are added with nil values.
    /// - Parameters:
    ///   - body: the response body.
    ///   - vsCurrency: the currency that was asked for; its code is the price's key.
    ///   - ids: the ids that were asked for.
    /// - Throws: `.invalidArgument` for malformed JSON; `.decode` when the body is not an object.
    public static func simplePrice(_ body: Data, vsCurrency: VsCurrency, ids: [String] = []) throws -> SimplePrices {
        guard let top = try JSONValue.parse(body: body).members else {
            throw CoinfolioError(.decode, "expected a JSON object of coin ids (/simple/price)")
        }
        var prices = SimplePrices()
        for id in ids { prices.prices[id] = SimplePrice() }
        let code = vsCurrency.code
        /// A number, or a string wholly a number (SPEC §10); nil for anything else.
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .number?: return value?.double
            case .string(let text)?: return NumberText.parse(text)
            default: return nil
            }
        }
        for member in top {
            let entry = member.value
            prices.prices[member.key] = SimplePrice(
                price: number(entry[code]), change24h: number(entry[code + "_24h_change"]),
                lastUpdatedAt: number(entry["last_updated_at"]))
        }
        return prices
    }
}
