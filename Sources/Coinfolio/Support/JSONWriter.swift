/// Writes compact JSON text. Output of Coinfolio crosses the C boundary as JSON; this writer
/// guarantees what the ABI promises: every key present, `null` for unknown values (and for NaN
/// and ±Inf, which JSON cannot hold), shortest round-trip numbers, valid UTF-8 with escapes.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// One entry per open container: whether a value was already written in it.
    private var hasValue: [Bool] = []
    /// A key was just written: the next value follows its colon, with no comma.
    private var afterKey = false

    init(reserving capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes the comma that separates this value from the previous one, where one is due.
    private mutating func separate() {
        if afterKey { afterKey = false; return }
        guard let last = hasValue.indices.last else { return }
        if hasValue[last] { bytes.append(UInt8(ascii: ",")) } else { hasValue[last] = true }
    }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); hasValue.append(false) }
    mutating func endObject() { hasValue.removeLast(); bytes.append(UInt8(ascii: "}")) }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); hasValue.append(false) }
    mutating func endArray() { hasValue.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes `"name":` for a key that data names (a currency code, a coin id, a detail's
    /// name); the value written next belongs to it. A shape's own keys go through
    /// `key(_:)` and its `WireKeys` list.
    mutating func key(named name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }
    mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    mutating func string(_ value: String) { separate(); appendQuoted(value) }
    mutating func string(_ value: String?) { if let value { string(value) } else { null() } }

    mutating func number(_ value: Double) {
        guard value.isFinite else { null(); return }
        separate()
        if value == value.rounded(), abs(value) < 1e15 {
            // Integral values print without ".0": 250 rather than 250.0.
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }
    mutating func number(_ value: Double?) { if let value { number(value) } else { null() } }
    mutating func number(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8) }
    mutating func number(_ value: Int?) { if let value { number(value) } else { null() } }

    /// Writes a value already in JSON form (a number's text), unchecked.
    mutating func raw(_ text: String) { separate(); bytes.append(contentsOf: text.utf8) }

    /// Writes a value already in JSON form, appended by `body` straight into the output.
    mutating func rawBytes(_ body: (inout [UInt8]) -> Void) { separate(); body(&bytes) }

    /// Splices already-written object members (`"a":1,"b":2`, a cached fragment) into the open
    /// object.
    mutating func members(_ fragment: [UInt8]) {
        guard !fragment.isEmpty else { return }
        separate()
        bytes.append(contentsOf: fragment)
    }

    /// Cached fragments (coins' JSON members) placed by reference rather than copied: the
    /// writer's own bytes stay small, and `answer` copies everything once into its final place.
    private var pieces: [(at: Int, fragment: [UInt8])] = []
    private var piecesCount = 0

    /// Like `members(_:)`, but the fragment is kept by reference until `answer` is copied out.
    mutating func members(deferred fragment: [UInt8]) {
        guard !fragment.isEmpty else { return }
        separate()
        pieces.append((bytes.count, fragment))
        piecesCount += fragment.count
    }

    /// The finished text: its size known in advance, copied once to where it goes.
    var answer: JSONAnswer { JSONAnswer(glue: bytes, pieces: pieces, count: bytes.count + piecesCount) }

    private mutating func appendQuoted(_ value: String) { Self.appendQuoted(value, to: &bytes) }

    /// Appends `value` as a JSON string (quoted, escaped) to `bytes`: for writers that build a
    /// large answer's repeated parts straight into bytes.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { appendQuoted(utf8: $0, to: &bytes) }
    }

    /// Appends a literal's bytes (no `String` in between).
    static func append(literal text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer's decimal digits (as `String(value)` spells it, without making one).
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// Whether UTF-8 text goes into a JSON string as it is (no quote, backslash or control byte).
    static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F })
    }

    static func appendQuoted(utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy them whole (scanned as contiguous bytes: through
        // `String.UTF8View` the scan cost more than the rest of a portfolio answer).
        if needsNoEscape(utf8) {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension CoinfolioError {
    /// The keys of the error object.
    enum JSONKey: String, WireKeys { case status, code, message, details }

    /// `{"status":N,"code":"…","message":"…","details":{…}}`, the ABI's error object.
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.status); w.number(Int(code.rawValue))
        w.key(JSONKey.code); w.string(code.name)
        w.key(JSONKey.message); w.string(message)
        w.key(JSONKey.details); w.beginObject()
        for (name, value) in details.sorted(by: { $0.key < $1.key }) {
            w.key(named: name)
            Self.write(value, to: &w)
        }
        w.endObject()
        w.endObject()
        return w.bytes
    }

    /// One detail as its JSON value, arrays and objects included (object keys sorted).
    private static func write(_ detail: Detail, to w: inout JSONWriter) {
        switch detail {
        case .number(let n): w.number(n)
        case .string(let s): w.string(s)
        case .bool(let b): w.bool(b)
        case .array(let items):
            w.beginArray()
            for item in items { write(item, to: &w) }
            w.endArray()
        case .object(let members):
            w.beginObject()
            for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                w.key(named: name)
                write(value, to: &w)
            }
            w.endObject()
        }
    }
}

/// A JSON answer ready to be copied out exactly once (into the C caller's string, sized to
/// `count` up front): small glue bytes written by `JSONWriter`, with cached fragments placed by
/// reference. Large answers thus never pass through a fresh multi-megabyte intermediate buffer.
@_spi(ABI) public struct JSONAnswer {
    let glue: [UInt8]
    let pieces: [(at: Int, fragment: [UInt8])]
    /// The answer's size in bytes.
    public let count: Int

    /// Copies the `count` bytes of the answer to `destination`.
    public func copyBytes(to destination: UnsafeMutableRawPointer) {
        var written = 0
        var glueStart = 0
        glue.withUnsafeBytes { glueBytes in
            func copyGlue(upTo end: Int) {
                guard end > glueStart, let base = glueBytes.baseAddress else { return }
                (destination + written).copyMemory(from: base + glueStart, byteCount: end - glueStart)
                written += end - glueStart
                glueStart = end
            }
            for piece in pieces {
                copyGlue(upTo: piece.at)
                piece.fragment.withUnsafeBytes { fragment in
                    if let base = fragment.baseAddress { (destination + written).copyMemory(from: base, byteCount: fragment.count) }
                }
                written += piece.fragment.count
            }
            copyGlue(upTo: glue.count)
        }
    }

    /// The answer as one array (for Swift callers and tests).
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { copyBytes(to: base) }
            initialized = count
        }
    }
}
