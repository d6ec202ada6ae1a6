import Foundation

/// The query of `GET /simple/price`.
///
/// JSON form: `{"ids":["bitcoin",…],"vs_currency":"usd"}`. More than 250 ids are asked in several
/// requests. 24 h change and last-updated time are always asked for.
public struct SimplePriceRequest: Hashable, Sendable {
    /// The coins (CoinGecko ids; the `CoinID` rule, and no comma).
    public var ids: [String]
    /// The quote currency.
    public var vsCurrency: VsCurrency

    /// - Throws: `.invalidArgument` for a bad id or an id with a comma (ids are comma-joined).
    public init(ids: [String], vsCurrency: VsCurrency = .usd) throws {
        for id in ids {
            try CoinID.validate(id)
            if id.contains(",") { throw CoinfolioError.invalid("a coin id cannot contain a comma: \"\(id)\"") }
        }
        self.ids = ids
        self.vsCurrency = vsCurrency
    }

    /// Reads the JSON form.
    /// - Throws: `.invalidArgument` for malformed JSON, a missing or bad `ids`, a bad currency.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        guard let ids = object["ids"] as? [Any], ids.allSatisfy({ $0 is String }) else {
            throw CoinfolioError.invalid("ids must be an array of coin id strings")
        }
        if let value = object["vs_currency"], !(value is String) { throw CoinfolioError.invalid("vs_currency must be a string") }
        try self.init(
            ids: ids.compactMap { $0 as? String }, vsCurrency: try (object["vs_currency"] as? String).map { try VsCurrency($0) } ?? .usd)
    }
}
