/// Tolerant reads: a missing, null or mistyped value reads as nil instead of failing the object.
extension KeyedDecodingContainer {
    /// The number at `key`, or nil when it is missing, null or not a number. (Concrete overloads
    /// reach Foundation's fast paths; the generic `lenient` goes through generic metadata.)
    func lenientDouble(_ key: Key) -> Double? {
        (try? decodeIfPresent(Double.self, forKey: key)) ?? nil
    }

    /// The string at `key`, or nil when it is missing, null or not a string.
    func lenientString(_ key: Key) -> String? {
        (try? decodeIfPresent(String.self, forKey: key)) ?? nil
    }

    /// The value at `key`, or nil when it is missing, null or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// An integer sent as any JSON number (`1`, `1.0`, `1e0`); nil when missing, null, fractional
    /// or out of range.
    func lenientInt(_ key: Key) -> Int? {
        guard let value = lenientDouble(key), value.isFinite, value == value.rounded(),
            abs(value) < 9.0e15
        else { return nil }
        return Int(value)
    }
}
