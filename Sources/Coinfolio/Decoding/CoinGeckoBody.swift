import Foundation

/// Decodes raw CoinGecko response bodies into models, tolerantly.
///
/// Every body is read by the one strict reader (RFC 8259: `JSONReader`'s rules and reasons;
/// `/coins/markets` by simdjson with the same rules): malformed JSON throws `.invalidArgument`;
/// JSON of the wrong shape throws `.decode`. A UTF-8 byte order mark is accepted. The client
/// turns `.invalidArgument` into `.decode` for bodies it received.
public enum CoinGeckoBody {
    /// Decodes a `GET /coins/markets` body (a JSON array of coins).
    ///
    /// One bad element (not an object, no string `id`, an id breaking the coin id rule) is
    /// skipped and reported; an id seen twice keeps the later row and reports the earlier. A
    /// row needs only its id: a missing `symbol` or `name` reads as `""`. Numbers sent as
    /// strings read as numbers; fields read as null because of their type (and a missing
    /// `symbol`/`name`) are listed in `warnings` (SPEC §10).
    /// - Throws: `.invalidArgument` for malformed JSON, `.decode` when the body is not an array.
    public static func markets(_ body: Data) throws -> MarketsPage {
        var rows = MarketRows()
        try markets(body, into: &rows)
        return rows.page()
    }

    /// Decodes a `GET /coins/markets` body into `rows` (`MarketRows`: the one merge a refresh's
    /// pages share). Same rules and errors as `markets(_:)`.
    static func markets(_ body: Data, into rows: inout MarketRows) throws {
        let data = withoutBOM(body)
        do {
            try DecodeDeadline.check()
            // simdjson's one pass (Sources/CSimdJSON); a build without it has the strict Swift
            // reader's decoder, with the same rules (`MarketsTreeDecoder`).
            #if SimdJSON
                try MarketsDecoder.decode(data, offsetBase: body.count - data.count, into: &rows)
            #else
                try MarketsTreeDecoder.decode(body, into: &rows)
            #endif
        } catch is DecodeDeadline.Passed {
            throw DecodeDeadline.error
        }
    }

    /// Decodes a `GET /global` body (`{"data": {…}}`; a bare data object is accepted too).
    /// - Throws: `.invalidArgument` for malformed JSON, `.decode` when it is not such an object.
    public static func global(_ body: Data) throws -> MarketData {
        let value = try JSONValue.parse(body: body)
        let envelope = try decoded(GlobalEnvelope.self, from: value, expected: "a JSON object {\"data\":{…}} (/global)")
        guard let data = envelope.data else { throw CoinfolioError(.decode, "the /global body has no \"data\" object") }
        return data
    }

    /// Decodes a `GET /coins/{id}` body.
    /// - Throws: `.invalidArgument` for malformed JSON, `.decode` when it is not an object with
    ///   string `id`, `symbol` and `name`.
    public static func coinDetail(_ body: Data) throws -> CoinDetail {
        try decoded(
            CoinDetail.self, from: try JSONValue.parse(body: body), expected: "a JSON object with id, symbol and name (/coins/{id})")
    }

    // MARK: - Internals

    /// `value` (read by the strict reader) as a `T`; a value of the wrong shape is `.decode`.
    private static func decoded<T: Decodable>(_ type: T.Type, from value: JSONValue, expected: String) throws -> T {
        do {
            return try JSONValueDecoder.decode(T.self, from: value)
        } catch let error as CoinfolioError {
            throw error
        } catch is DecodeDeadline.Passed {
            throw DecodeDeadline.error
        } catch {
            throw CoinfolioError(.decode, "expected \(expected): \(describe(error))".truncated(300))
        }
    }

    /// The key of a `/global` body's envelope (`{"data":{…}}`).
    enum GlobalKey: String, CodingKey, WireKeys { case data }

    private struct GlobalEnvelope: Decodable {
        var data: MarketData?
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: GlobalKey.self)
            if c.contains(.data) {
                data = c.lenient(MarketData.self, .data)
            } else if try decoder.container(keyedBy: MarketData.JSONKey.self).contains(.totalMarketCap) {
                data = try MarketData(from: decoder)
            }
        }
    }

    static func withoutBOM(_ body: Data) -> Data {
        body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body
    }
}

/// A short description of a DecodingError for people: which key, what went wrong.
/// - Parameter droppingFirst: leading path components to leave out (an element's own index).
func describe(_ error: Error, droppingFirst: Int = 0) -> String {
    func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.dropFirst(droppingFirst)
        return keys.isEmpty ? (droppingFirst > 0 ? "the element" : "the top level") : dottedPath(keys)
    }
    func kind(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
        if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "an array" }
        if name == "String" { return "a string" }
        if name == "Bool" { return "a boolean" }
        if ["Double", "Float", "Int"].contains(name) { return "a number" }
        return name
    }
    switch error {
    case DecodingError.keyNotFound(let key, _): return "missing \(key.stringValue)"
    case DecodingError.valueNotFound(_, let context): return "\(path(context)) is null"
    case DecodingError.typeMismatch(let type, let context):
        return "\(path(context)) is not \(kind(type))"
    case DecodingError.dataCorrupted(let context): return "\(path(context)) holds invalid JSON"
    default: return "invalid JSON"
    }
}

/// A coding path as `describe` and option errors name it: keys and indices joined by dots
/// (`symbols.BTC`, `0.id`). An index is its number (its key's text is "Index 0"); an object's key
/// is its text as written, also when it reads as a number (`symbols.01`, never `symbols.1`).
func dottedPath<Keys: Sequence>(_ keys: Keys) -> String where Keys.Element == any CodingKey {
    keys.map { key in
        key.intValue.flatMap { key.stringValue == "Index \($0)" ? String($0) : nil } ?? key.stringValue
    }.joined(separator: ".")
}
