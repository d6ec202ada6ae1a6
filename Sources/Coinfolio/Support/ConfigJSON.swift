import Foundation

/// Reads the JSON objects hosts pass in (configs and queries): nil (a NULL pointer) means "all
/// defaults", unknown keys are ignored, and any problem — an empty string included — is
/// `.invalidArgument` with the key named.
enum ConfigJSON {
    private static let decoder = JSONDecoder()

    static func decode<T: Decodable>(_ type: T.Type, from text: String?, default makeDefault: () -> T) throws -> T {
        guard let text else { return makeDefault() }
        do {
            let data = Data(text.utf8)
            try data.withUnsafeBytes { try JSONSyntax.checkStrict($0) }
            return try decoder.decode(T.self, from: data)
        } catch let error as CoinfolioError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {  // Foundation gives no structured reason
            throw CoinfolioError.invalid("malformed JSON")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw CoinfolioError.invalid("expected a JSON object")
        } catch {
            throw CoinfolioError.invalid(describe(error))
        }
    }
}

extension KeyedDecodingContainer {
    /// A number that must be a whole number within `range`, or nil when absent or null.
    /// - Throws: `.invalidArgument` naming the key.
    func wholeNumber(_ key: Key, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite, value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw CoinfolioError.invalid("\(key.stringValue) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(value)
    }

    /// A finite number within `range`, or nil when absent or null.
    func finiteNumber(_ key: Key, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite, range.contains(value) else {
            throw CoinfolioError.invalid("\(key.stringValue) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

extension ConfigJSON {
    /// The top-level object of a host's JSON argument as Foundation values; nil text is `[:]`.
    /// Numbers come as `Double` (booleans as `Bool`), so a `true` never passes for 1.
    /// - Throws: `.invalidArgument` for malformed JSON or a top level that is not an object.
    static func object(_ text: String?) throws -> [String: Any] {
        guard let text else { return [:] }
        let data = Data(text.utf8)
        try data.withUnsafeBytes { try JSONSyntax.checkStrict($0) }
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw CoinfolioError(.invalidArgument, "malformed JSON", reason: .malformedJSON)
        }
        guard let object = parsed as? [String: Any] else { throw CoinfolioError.invalid("expected a JSON object") }
        return object.mapValues { value in
            guard let number = value as? NSNumber else { return value }
            return isBoolean(number) ? number.boolValue as Any : number.doubleValue as Any
        }
    }

    /// Whether JSONSerialization produced `number` from `true` or `false`.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && (number == NSNumber(value: true) || number == NSNumber(value: false))
    }
}
