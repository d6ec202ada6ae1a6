import Foundation

/// Decodes raw CoinGecko response bodies into models, tolerantly.
///
/// Malformed JSON (including a body nested deeper than Foundation's parser allows) throws
/// `.invalidArgument`; JSON of the wrong shape throws `.decode`. A UTF-8 byte order mark is
/// accepted. The client turns `.invalidArgument` into `.decode` for bodies it received.
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
            try MarketsDecoder.decode(data, offsetBase: body.count - data.count, into: &rows)
        } catch is DecodeDeadline.Passed {
            throw DecodeDeadline.error
        }
    }

    /// The same body through Foundation's `JSONDecoder` and `Coin: Decodable` (the decoder before
    /// the one-pass one): kept as the reference the tests and benchmarks compare against.
    static func marketsWithFoundation(_ body: Data) throws -> MarketsPage {
        let elements: [LossyCoin]
        do {
            elements = try JSONDecoder().decode([LossyCoin].self, from: prepared(body))
        } catch {
            throw classify(error, expected: "a JSON array of coins (/coins/markets)", body: body)
        }
        var merged = LaterRowWins<Coin>(reservingCapacity: elements.count)
        var skipped: [MarketsPage.Skipped] = []
        var sourceIndex: [Int] = []
        for (index, element) in elements.enumerated() {
            switch element.result {
            case .success(let coin):
                if let earlier = merged.add(coin) {
                    skipped.append(.init(index: sourceIndex[earlier], reason: "duplicate id \"\(coin.id)\": a later row replaces it"))
                    sourceIndex[earlier] = index
                } else {
                    sourceIndex.append(index)
                }
            case .failure(let reason):
                skipped.append(.init(index: index, reason: reason.text))
            }
        }
        skipped.sort { $0.index < $1.index }
        // Warnings of the rows kept (a replaced duplicate's go with it), in body order.
        var warnings: [DecodeWarning] = []
        for index in sourceIndex.sorted() where !elements[index].warnings.items.isEmpty {
            let id = try? elements[index].result.get().id
            warnings += elements[index].warnings.warnings(index: index, id: id)
        }
        return MarketsPage(coins: merged.rows, skipped: skipped, elementCount: elements.count, warnings: warnings)
    }

    /// Decodes a `GET /global` body (`{"data": {…}}`; a bare data object is accepted too).
    /// - Throws: `.invalidArgument` for malformed JSON, `.decode` when it is not such an object.
    public static func global(_ body: Data) throws -> MarketData {
        do {
            let envelope = try decoder.decode(GlobalEnvelope.self, from: prepared(body))
            guard let data = envelope.data else {
                throw CoinfolioError(.decode, "the /global body has no \"data\" object")
            }
            return data
        } catch let error as CoinfolioError {
            throw error
        } catch {
            throw classify(error, expected: "a JSON object {\"data\":{…}} (/global)", body: body)
        }
    }

    /// Decodes a `GET /coins/{id}` body.
    /// - Throws: `.invalidArgument` for malformed JSON, `.decode` when it is not an object with
    ///   string `id`, `symbol` and `name`.
    public static func coinDetail(_ body: Data) throws -> CoinDetail {
        do {
            return try decoder.decode(CoinDetail.self, from: prepared(body))
        } catch {
            throw classify(error, expected: "a JSON object with id, symbol and name (/coins/{id})", body: body)
        }
    }

    // MARK: - Internals

    private static let decoder = JSONDecoder()

    private struct GlobalEnvelope: Decodable {
        var data: MarketData?
        private enum CodingKeys: String, CodingKey { case data, totalMarketCap = "total_market_cap" }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.data) {
                data = c.lenient(MarketData.self, .data)
            } else if c.contains(.totalMarketCap) {
                data = try MarketData(from: decoder)
            }
        }
    }

    /// Decodes one array element without letting its failure fail the array.
    struct Lossy<Value: Decodable>: Decodable {
        var result: Result<Value, Reason>
        struct Reason: Error { var text: String }

        init(from decoder: Decoder) throws {
            try DecodeDeadline.check()
            do {
                result = .success(try Value(from: decoder))
            } catch let error as CoinfolioError {
                result = .failure(Reason(text: error.message))
            } catch {
                result = .failure(Reason(text: describe(error, droppingFirst: decoder.codingPath.count)))
            }
        }
    }

    /// Decodes one markets element with its field warnings, without letting its failure fail
    /// the array.
    struct LossyCoin: Decodable {
        var result: Result<Coin, Lossy<Coin>.Reason>
        var warnings = FieldWarnings()

        init(from decoder: Decoder) throws {
            // A client call's time bound reaches decoding, element by element (DecodeDeadline).
            try DecodeDeadline.check()
            do {
                result = .success(try Coin(from: decoder, warnings: &warnings))
            } catch let error as CoinfolioError {
                result = .failure(.init(text: error.message))
            } catch {
                result = .failure(.init(text: describe(error, droppingFirst: decoder.codingPath.count)))
            }
        }
    }

    static func withoutBOM(_ body: Data) -> Data {
        body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body
    }

    /// The body without its BOM, after the strict checks Foundation's parser does not make.
    static func prepared(_ body: Data) throws -> Data {
        let data = withoutBOM(body)
        try data.withUnsafeBytes { bytes in
            try JSONSyntax.checkUTF8(bytes)
            try JSONSyntax.checkStrict(bytes, offsetBase: body.count - data.count)
        }
        return data
    }

    private static func classify(_ error: Error, expected: String, body: Data) -> CoinfolioError {
        if let error = error as? CoinfolioError { return error }
        if error is DecodeDeadline.Passed { return DecodeDeadline.error }
        // Foundation says only "not valid JSON" (no structured reason); the reasons a person can
        // act on (bad UTF-8, a trailing comma, nesting too deep) were found by `prepared` first,
        // each with its own `details["reason"]`.
        if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return CoinfolioError(
                .invalidArgument, "malformed JSON", details: ["reason": .string("malformed_json")])
        }
        return CoinfolioError(.decode, "expected \(expected): \(describe(error))".truncated(300))
    }
}

/// A short description of a DecodingError for people: which key, what went wrong.
/// - Parameter droppingFirst: leading path components to leave out (an element's own index).
func describe(_ error: Error, droppingFirst: Int = 0) -> String {
    func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.dropFirst(droppingFirst).map { $0.intValue.map(String.init) ?? $0.stringValue }
        return keys.isEmpty ? (droppingFirst > 0 ? "the element" : "the top level") : keys.joined(separator: ".")
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
