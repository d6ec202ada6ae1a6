import Foundation

/// Reads the JSON objects hosts pass in (configs and queries): nil (a NULL pointer) means "all
/// defaults", unknown keys are ignored, and any problem — an empty string included — is
/// `.invalidArgument` with the key named. The text goes through the one strict reader
/// (`JSONValue`, RFC 8259 with the reasons of `JSONReader`), then the type's `Decodable` reads
/// the value (`JSONValueDecoder`); a key given twice reads as its later member.
enum ConfigJSON {
    static func decode<T: Decodable>(_ type: T.Type, from text: String?, default makeDefault: () -> T) throws -> T {
        guard let text else { return makeDefault() }
        let value = try JSONValue.parse(text)
        do {
            return try JSONValueDecoder.decode(T.self, from: value)
        } catch let error as CoinfolioError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw CoinfolioError.invalid("expected a JSON object")
        } catch {
            // The key whose value has the wrong type (`format`, `symbols.BTC`) in details.field.
            guard let field = field(of: error) else { throw CoinfolioError.invalid(describe(error)) }
            throw CoinfolioError(.invalidArgument, describe(error), details: [.field: .string(field)])
        }
    }

    /// The dotted path of the member a decoding error is about; nil for the top level.
    private static func field(of error: Error) -> String? {
        let path: [any CodingKey]
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            path = context.codingPath
        case DecodingError.keyNotFound(let key, let context): path = context.codingPath + [key]
        default: return nil
        }
        return path.isEmpty ? nil : dottedPath(path)
    }
}

extension KeyedDecodingContainer {
    /// A number that must be a whole number within `range`, or nil when absent or null.
    /// - Throws: `.invalidArgument` naming the key.
    func wholeNumber(_ key: Key, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite, value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw outOfRange(key, "\(key.stringValue) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(value)
    }

    /// A finite number within `range`, or nil when absent or null.
    func finiteNumber(_ key: Key, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite, range.contains(value) else {
            throw outOfRange(key, "\(key.stringValue) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `.invalidArgument` saying `message`, its key's dotted path in details.field as a value of
    /// the wrong type names it (`ConfigJSON.decode`).
    private func outOfRange(_ key: Key, _ message: String) -> CoinfolioError {
        CoinfolioError(.invalidArgument, message, details: [.field: .string(dottedPath(codingPath + [key]))])
    }
}

extension ConfigJSON {
    /// The top-level object of a host's JSON argument as Foundation values; nil text is `[:]`.
    /// Numbers come as `Double` (booleans as `Bool`, null as `NSNull`), so a `true` never passes
    /// for 1; a key given twice reads as its later member.
    /// - Throws: `.invalidArgument` for malformed JSON or a top level that is not an object.
    static func object(_ text: String?) throws -> [String: Any] {
        guard let text else { return [:] }
        let value = try JSONValue.parse(text)
        guard case .object = value, let object = value.foundationValue as? [String: Any] else {
            throw CoinfolioError.invalid("expected a JSON object")
        }
        return object
    }
}
