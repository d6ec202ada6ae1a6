import Foundation

/// A JSON value as the strict reader (`JSONReader`) read it: what configs, queries, transactions
/// and CoinGecko's `/global`, `/coins/{id}` and `/simple/price` bodies are decoded from.
///
/// Numbers keep their text, so an exact decimal (a ledger amount) is read from its digits, never
/// through a double; `double` converts. An object keeps its members in document order; a key
/// given twice reads as its later member (`subscript(key:)`), the rule of every reader here.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number's text, checked: RFC 8259's grammar and within ±1.8e308.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One member of an object.
    struct Member: Equatable, Sendable {
        var key: String
        var value: JSONValue
    }

    /// Reads `text`, which must be exactly one JSON value.
    /// - Throws: `.invalidArgument` with the reasons of `JSONReader`.
    static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse($0) }
    }

    /// Reads UTF-8 `bytes`, which must be exactly one JSON value.
    /// - Parameter offsetBase: added to offsets in messages (bytes dropped before, e.g. a BOM).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, offsetBase: Int = 0) throws -> JSONValue {
        var reader = JSONReader(bytes, offsetBase: offsetBase)
        return try reader.document { try $0.value() }
    }

    /// Reads a body from outside: a UTF-8 byte order mark is dropped (offsets still count from
    /// the first byte given), and bytes that are not UTF-8 are refused (`bad_utf8`).
    static func parse(body: Data) throws -> JSONValue {
        let data = CoinGeckoBody.withoutBOM(body)
        return try data.withUnsafeBytes { raw in
            try JSONSyntax.checkUTF8(raw)
            return try parse(raw.bindMemory(to: UInt8.self), offsetBase: body.count - data.count)
        }
    }

    /// The value of member `key` of an object (the later one when the key is given twice); nil
    /// when this is not an object or has no such member.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// A number's value (never ±infinity: the reader refused those); nil for anything else.
    var double: Double? {
        guard case .number(let text) = self else { return nil }
        var utf8 = text
        return utf8.withUTF8 { bytes -> Double? in
            guard case .success(let shape) = JSONReader.numberShape(bytes, at: 0) else { return nil }
            return JSONReader.value(bytes, at: 0, shape)
        }
    }

    /// A string's text; nil for anything else.
    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The members of an object, a later member replacing an earlier one of the same key (at the
    /// earlier one's place); nil for anything else.
    var members: [Member]? {
        guard case .object(let members) = self else { return nil }
        var seen: [String: Int] = [:]
        var unique: [Member] = []
        unique.reserveCapacity(members.count)
        for member in members {
            if let at = seen[member.key] {
                unique[at] = member
            } else {
                seen[member.key] = unique.count
                unique.append(member)
            }
        }
        return unique
    }

    /// The value as Foundation objects, for the readers that take `[String: Any]`: numbers as
    /// `Double`, booleans as `Bool`, null as `NSNull`.
    var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number: return double ?? 0
        case .string(let text): return text
        case .array(let elements): return elements.map(\.foundationValue)
        case .object: return Dictionary((members ?? []).map { ($0.key, $0.value.foundationValue) }, uniquingKeysWith: { _, later in later })
        }
    }
}
