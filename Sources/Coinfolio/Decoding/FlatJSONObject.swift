/// A JSON object whose members a caller reads one by one: the ledger's transaction input, which
/// is written on every `add_transaction` and whose numbers must be read from their decimal text,
/// never through a binary double. Read by the one strict reader's grammar (`JSONReader`, RFC 8259
/// with its reasons): a number out of range, a lone surrogate or nesting past 512 are refused in
/// members nobody reads too.
///
/// Scalars are kept (strings decoded, numbers as their text), and so are the scalar members of an
/// object that is a member of the top level (a trade's `"sent":{…}`); deeper objects and arrays
/// are checked and kept only as `.nested`. Malformed JSON, bytes that are not UTF-8 and a top
/// level that is not an object are `.invalidArgument`.
///
/// One pass over the bytes straight into the members (no `JSONValue` tree, no dictionary): the
/// members of an input are few, so a key is found by comparing it with each member's.
struct FlatJSONObject: Equatable {
    /// A member's value.
    enum Value: Equatable {
        case string(String)
        /// A JSON number, as its text (`-1.5e3`).
        case number(String)
        case bool(Bool)
        case null
        /// An object that is a member of the top-level object: its members, kept the same way.
        case object(FlatJSONObject)
        /// An array, or an object nested deeper (checked, not kept).
        case nested
    }

    /// One member, as given.
    struct Member: Equatable {
        var key: String
        var value: Value
    }

    /// The members in document order, a key given twice given twice (`subscript` reads the later).
    private(set) var list: [Member] = []

    /// The value of member `key`; a key given twice reads as its later value (the rule of every
    /// reader here). Keys compare as Swift strings compare (as a dictionary of them would).
    subscript(key: String) -> Value? {
        var index = list.count
        while index > 0 {
            index -= 1
            if list[index].key == key { return list[index].value }
        }
        return nil
    }

    /// An object of the members `members` (for a caller that has its fields apart: a range).
    init(_ members: [String: Value]) {
        list = members.map { Member(key: $0.key, value: $0.value) }
    }

    /// Parses `json`.
    /// - Throws: `.invalidArgument` (the reasons of `JSONReader`; "expected a JSON object").
    init(_ json: String) throws {
        var json = json
        self = try json.withUTF8 { try FlatJSONObject(utf8: $0) }
    }

    /// Parses `bytes`.
    /// - Throws: `.invalidArgument` (the reasons of `JSONReader`; "expected a JSON object").
    init(_ bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBufferPointer { try FlatJSONObject(utf8: $0) }
    }

    /// Parses UTF-8 `bytes` (checked to be UTF-8 first).
    /// - Throws: `.invalidArgument` (the reasons of `JSONReader`; "expected a JSON object").
    init(utf8 bytes: UnsafeBufferPointer<UInt8>) throws {
        try JSONSyntax.checkUTF8(UnsafeRawBufferPointer(bytes))
        var reader = JSONReader(bytes)
        guard reader.peek() == UInt8(ascii: "{") else {
            // Not an object (or nothing): the whole value is read for its syntax errors first.
            _ = try JSONValue.parse(bytes)
            throw CoinfolioError.invalid("expected a JSON object")
        }
        list = try reader.document { try $0.flatObjectMembers(depth: 0, keepingObjects: true) }
    }
}

extension JSONReader {
    /// The members of the object at `index` (its `{`), read in the order and with the checks of
    /// `value(depth:)` (the same errors at the same offsets): scalars kept, objects kept one level
    /// down when `keepingObjects`, any other container checked and kept as `.nested`.
    /// - Parameter depth: arrays and objects already open around the object.
    fileprivate mutating func flatObjectMembers(depth: Int, keepingObjects: Bool) throws -> [FlatJSONObject.Member] {
        if depth >= Self.maximumDepth { throw failure("too deep", reason: .tooDeep) }
        index += 1
        if peek() == UInt8(ascii: "}") {
            index += 1
            return []
        }
        var members: [FlatJSONObject.Member] = []
        members.reserveCapacity(12)
        var key = try memberName()
        while true {
            guard let byte = peek() else { throw failure("expected a value but the text ends") }
            let value: FlatJSONObject.Value
            switch byte {
            case UInt8(ascii: "{") where keepingObjects:
                value = .object(FlatJSONObject(list: try flatObjectMembers(depth: depth + 1, keepingObjects: false)))
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                try skipValue(depth: depth + 1)
                value = .nested
            default:
                // A scalar, or what cannot start a value: the tree reader's own reading of it.
                switch try self.value(depth: depth + 1) {
                case .string(let text): value = .string(text)
                case .number(let text): value = .number(text)
                case .bool(let flag): value = .bool(flag)
                case .null: value = .null
                case .array, .object: value = .nested  // containers are read above
                }
            }
            members.append(FlatJSONObject.Member(key: key, value: value))
            guard try nextInContainer(object: true) else { return members }
            key = try memberName()
        }
    }
}

extension FlatJSONObject {
    /// Members as read.
    fileprivate init(list: [Member]) { self.list = list }
}
