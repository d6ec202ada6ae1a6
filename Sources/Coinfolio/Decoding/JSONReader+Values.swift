/// Whole values: read as a `JSONValue` tree, or skipped (checked completely, nothing kept). One
/// iterative walk does both, with an explicit stack instead of recursion, so that deep nesting
/// costs heap, not the host thread's stack, and stops at `maximumDepth`.
extension JSONReader {
    /// Skips the value at `index`, checking all of it.
    /// - Parameter depth: arrays and objects already open around the value (for the 512 bound).
    mutating func skipValue(depth: Int = 0) throws {
        _ = try walk(depth: depth, build: false)
    }

    /// The value at `index` as a tree.
    /// - Parameter depth: arrays and objects already open around the value (for the 512 bound).
    mutating func value(depth: Int = 0) throws -> JSONValue {
        try walk(depth: depth, build: true) ?? .null
    }

    /// An array or object being read: its elements or members so far, and the key of the member
    /// whose value comes next.
    private struct Frame {
        var isObject: Bool
        var key = ""
        var elements: [JSONValue] = []
        var members: [JSONValue.Member] = []

        var value: JSONValue { isObject ? .object(members) : .array(elements) }
    }

    private mutating func walk(depth: Int, build: Bool) throws -> JSONValue? {
        var open: [Frame] = []
        while true {
            // One value at `index`; a container that is not empty opens and its first value follows.
            guard let byte = peek() else { throw failure("expected a value but the text ends") }
            var value: JSONValue?
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                if depth + open.count >= Self.maximumDepth { throw failure("too deep", reason: .tooDeep) }
                index += 1
                if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    if build { value = isObject ? .object([]) : .array([]) }
                } else {
                    var frame = Frame(isObject: isObject)
                    if isObject { frame.key = try member(build: build) }
                    open.append(frame)
                    continue
                }
            case UInt8(ascii: "\""):
                if build { value = .string(try string()) } else { try skipString() }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let range = try numberText()
                if build { value = .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)) }
            case UInt8(ascii: "t"):
                try literal("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                value = .null
            default:
                throw failure("\(describeByte()) where a value must start")
            }
            // The value ends: it joins its container, and containers close while their end follows.
            while true {
                guard !open.isEmpty else { return value }
                let last = open.count - 1
                if build, let value {
                    if open[last].isObject {
                        open[last].members.append(JSONValue.Member(key: open[last].key, value: value))
                    } else {
                        open[last].elements.append(value)
                    }
                }
                if try nextInContainer(object: open[last].isObject) {
                    if open[last].isObject { open[last].key = try member(build: build) }
                    break
                }
                let closed = open.removeLast()
                value = build ? closed.value : nil
            }
        }
    }

    /// A member name and its colon; the name only when building.
    private mutating func member(build: Bool) throws -> String {
        if build { return try memberName() }
        guard let byte = peek() else { throw failure("the text ends where an object member name must be") }
        guard byte == UInt8(ascii: "\"") else { throw failure("\(describeByte()) where an object member name (a string) must be") }
        try skipString()
        try expect(UInt8(ascii: ":"), "':' after the member name")
        return ""
    }
}
