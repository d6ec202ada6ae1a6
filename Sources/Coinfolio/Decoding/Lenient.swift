/// Tolerant reads: a missing, null or mistyped value reads as nil instead of failing the object;
/// a number sent as a string that is entirely a JSON number reads as that number (SPEC §10); the
/// reads that take `FieldWarnings` report each value read as nil because of its type.
extension KeyedDecodingContainer {
    /// The number at `key`; a string that is entirely a JSON number reads as that number. nil
    /// when missing or null; nil and a warning when of another type. (Concrete calls reach
    /// Foundation's fast paths; the generic `lenient` goes through generic metadata.)
    func number(_ key: Key, _ warnings: inout FieldWarnings) -> Double? {
        do {
            return try decodeIfPresent(Double.self, forKey: key)
        } catch {
            if let text = try? decode(String.self, forKey: key), let value = NumberText.parse(text) { return value }
            warnings.add(key.stringValue, DecodeWarning.notANumber)
            return nil
        }
    }

    /// An integer sent as any JSON number (`1`, `1.0`, `1e0`) or a number string; nil when
    /// missing or null; nil and a warning when of another type, fractional or out of range.
    func integer(_ key: Key, _ warnings: inout FieldWarnings) -> Int? {
        guard let value = number(key, &warnings) else { return nil }
        guard value == value.rounded(), abs(value) < 9.0e15 else {
            warnings.add(key.stringValue, DecodeWarning.notAWholeNumber)
            return nil
        }
        return Int(value)
    }

    /// The string at `key`; nil when missing or null; nil and a warning when of another type.
    func text(_ key: Key, _ warnings: inout FieldWarnings) -> String? {
        do {
            return try decodeIfPresent(String.self, forKey: key)
        } catch {
            warnings.add(key.stringValue, DecodeWarning.notAString)
            return nil
        }
    }

    /// The string at `key`, or `""` with a warning ("missing" or "not a string").
    func requiredText(_ key: Key, _ warnings: inout FieldWarnings) -> String {
        if isNullOrMissing(key) {
            warnings.add(key.stringValue, DecodeWarning.missing)
            return ""
        }
        return text(key, &warnings) ?? ""
    }

    /// The object at `key`; nil when missing or null; nil and a warning when of another type.
    func object<NestedKey: CodingKey>(_ key: Key, keyedBy type: NestedKey.Type, _ warnings: inout FieldWarnings)
        -> KeyedDecodingContainer<NestedKey>?
    {
        if isNullOrMissing(key) { return nil }
        if let nested = try? nestedContainer(keyedBy: type, forKey: key) { return nested }
        warnings.add(key.stringValue, DecodeWarning.notAnObject)
        return nil
    }

    /// Whether `key` is absent or JSON null.
    func isNullOrMissing(_ key: Key) -> Bool {
        !contains(key) || ((try? decodeNil(forKey: key)) ?? false)
    }

    /// The number at `key` (number strings read as numbers), or nil when it is missing, null or
    /// not a number.
    func lenientDouble(_ key: Key) -> Double? {
        var ignored = FieldWarnings()
        return number(key, &ignored)
    }

    /// The string at `key`, or nil when it is missing, null or not a string.
    func lenientString(_ key: Key) -> String? {
        (try? decodeIfPresent(String.self, forKey: key)) ?? nil
    }

    /// The value at `key`, or nil when it is missing, null or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// An integer sent as any JSON number (`1`, `1.0`, `1e0`) or a number string; nil when
    /// missing, null, fractional or out of range.
    func lenientInt(_ key: Key) -> Int? {
        var ignored = FieldWarnings()
        return integer(key, &ignored)
    }
}
