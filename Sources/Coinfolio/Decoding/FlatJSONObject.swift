/// A JSON object whose members a caller reads one by one: the ledger's transaction input, which
/// is written on every `add_transaction` and whose numbers must be read from their decimal text,
/// never through a binary double. Read by the one strict reader (`JSONValue`, RFC 8259 with the
/// reasons of `JSONReader`): a number out of range, a lone surrogate or nesting past 512 are
/// refused in members nobody reads too.
///
/// Scalars are kept (strings decoded, numbers as their text), and so are the scalar members of an
/// object that is a member of the top level (a trade's `"sent":{…}`); deeper objects and arrays
/// are checked and kept only as `.nested`. Malformed JSON, bytes that are not UTF-8 and a top
/// level that is not an object are `.invalidArgument`.
struct FlatJSONObject {
    /// A member's value.
    enum Value: Equatable {
        case string(String)
        /// A JSON number, as its text (`-1.5e3`).
        case number(String)
        case bool(Bool)
        case null
        /// An object that is a member of the top-level object: its members, kept the same way.
        case object([String: Value])
        /// An array, or an object nested deeper (checked, not kept).
        case nested
    }

    /// Members by key; a key given twice keeps its later value (the rule of every reader here).
    private(set) var members: [String: Value] = [:]

    subscript(key: String) -> Value? { members[key] }

    /// Parses `bytes`.
    /// - Throws: `.invalidArgument` (the reasons of `JSONReader`; "expected a JSON object").
    init(_ bytes: [UInt8]) throws {
        let value = try bytes.withUnsafeBufferPointer { buffer in
            try JSONSyntax.checkUTF8(UnsafeRawBufferPointer(buffer))
            return try JSONValue.parse(buffer)
        }
        guard case .object(let members) = value else { throw CoinfolioError.invalid("expected a JSON object") }
        self.members = Self.kept(members, keepingObjects: true)
    }

    /// `members` by key, later ones replacing earlier; objects among them kept (one level) when
    /// `keepingObjects`.
    private static func kept(_ members: [JSONValue.Member], keepingObjects: Bool) -> [String: Value] {
        var result: [String: Value] = [:]
        for member in members {
            switch member.value {
            case .string(let text): result[member.key] = .string(text)
            case .number(let text): result[member.key] = .number(text)
            case .bool(let flag): result[member.key] = .bool(flag)
            case .null: result[member.key] = .null
            case .object(let inner) where keepingObjects: result[member.key] = .object(kept(inner, keepingObjects: false))
            case .array, .object: result[member.key] = .nested
            }
        }
        return result
    }
}
