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
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: prepared(body), options: [.fragmentsAllowed])
        } catch let error as CoinfolioError {
            throw error
        } catch {
            throw CoinfolioError(.invalidArgument, "malformed JSON", reason: .malformedJSON)
        }
        guard let top = object as? [String: Any] else {
            throw CoinfolioError(.decode, "expected a JSON object of coin ids (/simple/price)")
        }
        var prices = SimplePrices()
        for id in ids { prices.prices[id] = SimplePrice() }
        let code = vsCurrency.code
        for (id, value) in top {
            let entry = value as? [String: Any] ?? [:]
            prices.prices[id] = SimplePrice(
                price: entry[code].flatMap(jsonNumber), change24h: entry[code + "_24h_change"].flatMap(jsonNumber),
                lastUpdatedAt: entry["last_updated_at"].flatMap(jsonNumber))
        }
        return prices
    }
}
