/// Where `CSVReader` puts a record's fields as it reads them: `[String]` (`CSVStringFields`) or
/// where the bytes lie (`CSVRecord`). Each field is checked to be UTF-8 as it is added; one that
/// is not is a `CSVReader.SyntaxError` at `line` and the field's index.
protocol CSVFieldSink {
    /// The fields added so far.
    var count: Int { get }
    /// Adds a field that lies in `buffer` at `range` (unquoted, no doubled quote), the reader's
    /// chunk number `chunk`.
    mutating func append(_ range: Range<Int>, of buffer: [UInt8], chunk: Int, line: Int) throws
    /// Adds a field gathered apart (quotes undone, or split over chunks).
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws
}

/// A record's fields as strings (`CSVReader.nextRecord`).
struct CSVStringFields: CSVFieldSink {
    var fields: [String] = []

    init(reserving width: Int) { fields.reserveCapacity(width) }

    var count: Int { fields.count }

    mutating func append(_ range: Range<Int>, of buffer: [UInt8], chunk: Int, line: Int) throws {
        try buffer.withUnsafeBufferPointer { try append(UnsafeBufferPointer(rebasing: $0[range]), line: line) }
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws {
        fields.append(try CSVReader.field(bytes, line: line, field: fields.count))
    }
}

/// A record's fields as bytes (`CSVReader.nextByteRecord`): no `String` a field. While every
/// field lies in one chunk of the reader, the record holds that chunk (shared, not copied) and
/// where each field is in it; a field gathered apart or in another chunk makes the record copy
/// its fields into bytes of its own. Every field is valid UTF-8 (checked as
/// `CSVReader.nextRecord` checks it), so `string(_:)` is the text `nextRecord` gives.
struct CSVRecord: CSVFieldSink, Sendable {
    /// The reader's chunk the fields lie in, or bytes of the record's own.
    private var storage: [UInt8] = []
    /// Where each field lies in `storage`.
    private var ranges: [Range<Int>] = []
    /// The reader's number of the chunk `storage` is; nil when `storage` is the record's own.
    private var chunk: Int?

    init(reserving width: Int) { ranges.reserveCapacity(width) }

    /// A record of these fields (tests).
    init(_ fields: [String]) {
        for field in fields {
            let start = storage.count
            storage.append(contentsOf: field.utf8)
            ranges.append(start..<storage.count)
        }
    }

    /// A record whose fields lie in the reader's chunk `number` (`buffer`) at `ranges`, each
    /// already checked (`CSVScan.plainRecord`: ASCII).
    init(chunk buffer: [UInt8], number: Int, ranges: [Range<Int>]) {
        storage = buffer
        chunk = number
        self.ranges = ranges
    }

    var count: Int { ranges.count }

    mutating func append(_ range: Range<Int>, of buffer: [UInt8], chunk number: Int, line: Int) throws {
        try buffer.withUnsafeBufferPointer { try Self.check(UnsafeBufferPointer(rebasing: $0[range]), line: line, field: ranges.count) }
        if ranges.isEmpty {
            storage = buffer
            chunk = number
        } else if chunk != number {
            return buffer.withUnsafeBufferPointer { appendOwn(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        ranges.append(range)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws {
        try Self.check(bytes, line: line, field: ranges.count)
        appendOwn(bytes)
    }

    /// Adds a field to bytes of the record's own (copying the fields before it out of the chunk first).
    private mutating func appendOwn(_ bytes: UnsafeBufferPointer<UInt8>) {
        if chunk != nil || ranges.isEmpty {
            var own: [UInt8] = []
            own.reserveCapacity(ranges.reduce(bytes.count) { $0 + $1.count })
            var owned: [Range<Int>] = []
            owned.reserveCapacity(ranges.capacity)
            for range in ranges {
                let start = own.count
                own.append(contentsOf: storage[range])
                owned.append(start..<own.count)
            }
            storage = own
            ranges = owned
            chunk = nil
        }
        let start = storage.count
        storage.append(contentsOf: bytes)
        ranges.append(start..<storage.count)
    }

    /// Refuses a field that is not UTF-8 (ASCII needs no more look than its high bits).
    @inline(__always)
    private static func check(_ field: UnsafeBufferPointer<UInt8>, line: Int, field index: Int) throws {
        var high: UInt8 = 0
        for byte in field { high |= byte }
        if high >= 0x80, String(validating: field, as: UTF8.self) == nil {
            throw CSVReader.SyntaxError(line: line, field: index, message: "the field is not valid UTF-8", reason: .badUTF8)
        }
    }

    /// Calls `body` with field `index`'s bytes.
    @inline(__always)
    func withField<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let range = ranges[index]
        return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The bytes of the fields joined by one separator byte.
    var joinedCount: Int { ranges.reduce(max(ranges.count - 1, 0)) { $0 + $1.count } }

    /// Writes the fields joined by `separator` at the start of `out` (at least `joinedCount`
    /// bytes); the bytes written.
    func writeJoined(separator: UInt8, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        storage.withUnsafeBufferPointer { bytes in
            var at = 0
            for (index, range) in ranges.enumerated() {
                if index > 0 {
                    out[at] = separator
                    at += 1
                }
                if let source = bytes.baseAddress, let target = out.baseAddress, !range.isEmpty {
                    (target + at).update(from: source + range.lowerBound, count: range.count)
                }
                at += range.count
            }
            return at
        }
    }

    /// Field `index`'s text.
    func string(_ index: Int) -> String { withField(index) { String(decoding: $0, as: UTF8.self) } }

    /// Every field's text, in order.
    var strings: [String] { (0..<count).map(string) }

    /// Whether every field is spaces or nothing.
    var isBlank: Bool { (0..<count).allSatisfy { withField($0) { $0.allSatisfy { $0 == 0x20 } } } }
}
