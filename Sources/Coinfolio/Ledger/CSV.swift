import Foundation

/// RFC 4180 CSV, read as a stream of chunks so that a large file is never in memory at once.
///
/// Reads: a leading UTF-8 BOM (dropped), CRLF or LF line ends, quoted fields with commas,
/// doubled quotes and line breaks. Blank lines are skipped. A quote inside an unquoted field, text
/// after a closing quote, an unterminated quote and bytes that are not UTF-8 are errors naming the
/// physical line where the record starts and the field's index. A record longer than
/// `maximumRecordBytes` (a file without line ends, such as `/dev/zero`) is an error too, so that no
/// input grows in memory without bound.
struct CSVReader {
    /// A syntax error: the record's first physical line (1-based) and the field index (0-based).
    struct SyntaxError: Error {
        var line: Int
        var field: Int
        var message: String
        /// Why, when a reason applies (`.badUTF8` for a field whose bytes are not UTF-8).
        var reason: CoinfolioError.Reason? = nil
    }

    /// Size of the chunks read from a file.
    static let chunkSize = 1 << 16

    /// The most bytes one record may hold (its fields and their separators): 16 MiB, far beyond
    /// any export's row, while a file without line ends is refused before it fills the memory.
    var maximumRecordBytes = 16 << 20

    private let nextChunk: () throws -> [UInt8]?
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var startedReading = false
    /// The physical line the reader is on (1-based).
    private var line = 1
    /// The bytes of a field split over chunks, or quoted (kept for the next field's use).
    private var pieces: [UInt8] = []
    /// The last record's field count (the next one's is most likely the same).
    private var lastWidth = 0
    /// How many chunks were read: tells a `CSVRecord` whether a field lies in the chunk it holds.
    private var chunksRead = 0

    /// - Parameter nextChunk: the next bytes of the file, or nil at its end.
    init(nextChunk: @escaping () throws -> [UInt8]?) {
        self.nextChunk = nextChunk
    }

    /// A reader over bytes already in memory, handed out in chunks (no copy of the whole).
    init(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        self.init(nextChunk: {
            guard offset < bytes.count else { return nil }
            let end = min(offset + CSVReader.chunkSize, bytes.count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        })
    }

    /// A reader over a file, 64 KiB at a time; a failed read is `.invalidArgument` naming `path`.
    /// The most bytes read from a file that is not a regular one (a pipe such as `/dev/stdin`,
    /// or a device that never ends): 512 MB, as coinfolio-cli's and Python's reads of one.
    static let streamLimit = 512 << 20

    /// Reads `fileHandle` (the file at `path`) chunk by chunk. `limit`: the most bytes read (nil:
    /// the whole file); past it the read stops with `.invalidArgument` saying so.
    init(fileHandle: FileHandle, path: String, limit: Int? = nil) {
        var total = 0
        self.init(nextChunk: {
            let data: Data?
            do { data = try fileHandle.read(upToCount: CSVReader.chunkSize) } catch {
                throw CoinfolioError(.invalidArgument, "cannot read \(path): \(error.localizedDescription)")
            }
            guard let data, !data.isEmpty else { return nil }
            total += data.count
            if let limit, total > limit {
                let size = limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit) bytes"
                throw CoinfolioError(.invalidArgument, "cannot read \(path): a pipe or device longer than \(size)")
            }
            return [UInt8](data)
        })
    }

    /// The next byte, or nil at the end of the input. Inlined: called a few times a field, and
    /// nearly always answered from the chunk at hand.
    @inline(__always)
    private mutating func peek() throws -> UInt8? {
        if position < buffer.count { return buffer[position] }
        return try nextChunkByte()
    }

    /// `peek` past the chunk at hand: the next chunk's first byte, or nil at the end.
    private mutating func nextChunkByte() throws -> UInt8? {
        guard !atEnd else { return nil }
        while true {
            guard let chunk = try nextChunk() else {
                atEnd = true
                return nil
            }
            if chunk.isEmpty { continue }
            buffer = chunk
            chunksRead += 1
            position = 0
            if !startedReading {
                startedReading = true
                if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
                if position >= buffer.count { continue }
            }
            return buffer[position]
        }
    }

    /// The next record's fields and the physical line where it starts; nil at the end.
    mutating func nextRecord() throws -> (fields: [String], line: Int)? {
        guard let startLine = try startRecord() else { return nil }
        var fields = CSVStringFields(reserving: lastWidth)
        defer { lastWidth = fields.count }
        try readFields(into: &fields, startLine: startLine)
        return (fields.fields, startLine)
    }

    /// The next record as its fields' bytes (`CSVRecord`: no `String` a field, UTF-8 checked
    /// as `nextRecord` checks it, the same errors) and the physical line where it starts.
    mutating func nextByteRecord() throws -> (record: CSVRecord, line: Int)? {
        guard let startLine = try startRecord() else { return nil }
        // The plain record nearly every row is, read in one pass (`CSVScan`); any other from its
        // start byte by byte below.
        let (start, bound, width) = (position, maximumRecordBytes, lastWidth)
        if let plain = buffer.withUnsafeBufferPointer({ CSVScan.plainRecord($0, from: start, bound: bound, width: width) }) {
            position = plain.end
            line += 1
            lastWidth = plain.ranges.count
            return (CSVRecord(chunk: buffer, number: chunksRead, ranges: plain.ranges), startLine)
        }
        var record = CSVRecord(reserving: lastWidth)
        defer { lastWidth = record.count }
        try readFields(into: &record, startLine: startLine)
        return (record, startLine)
    }

    /// Skips blank lines; the physical line where the next record starts, nil at the end.
    private mutating func startRecord() throws -> Int? {
        while let byte = try peek(), byte == 0x0A || byte == 0x0D {
            position += 1
            if byte == 0x0A { line += 1 } else if try peek() != 0x0A { line += 1 }
        }
        guard try peek() != nil else { return nil }
        return line
    }

    /// Reads one record's fields into `fields`, up to and past its line end.
    private mutating func readFields<Fields: CSVFieldSink>(into fields: inout Fields, startLine: Int) throws {
        // Bytes of the record's finished fields (each with its separator); the field being read
        // is in `pieces` or within the chunk.
        var recordBytes = 0
        let bound = maximumRecordBytes
        // Static helpers below, no nested functions: one capturing `fields` and `recordBytes`
        // made every access to them a dynamic exclusivity check.
        while true {
            // The field's bytes are scanned a chunk at a time; a field that lies within one chunk
            // is read from it in place (`inChunk`), one split over chunks gathered in `pieces`.
            // Emptied only when used (`removeAll` is a call a field even on an empty array).
            if !pieces.isEmpty { pieces.removeAll(keepingCapacity: true) }
            var inChunk: Range<Int>?
            // Start of a field.
            if try peek() == UInt8(ascii: "\"") {
                position += 1
                while true {
                    guard try peek() != nil else {
                        throw SyntaxError(line: startLine, field: fields.count, message: "a quoted field is not closed")
                    }
                    let start = position
                    let (end, lineEnds) = buffer.withUnsafeBufferPointer { b -> (Int, Int) in
                        var end = start
                        var lineEnds = 0
                        while end < b.count, b[end] != UInt8(ascii: "\"") {
                            if b[end] == 0x0A { lineEnds += 1 }
                            end += 1
                        }
                        return (end, lineEnds)
                    }
                    line += lineEnds
                    // Closed within the chunk, no doubled quote, the byte after the quote in the
                    // chunk too (so `peek` cannot load the next one): read in place, as unquoted.
                    if pieces.isEmpty, end + 1 < buffer.count, buffer[end + 1] != UInt8(ascii: "\"") {
                        inChunk = start..<end
                        position = end + 1
                        break
                    }
                    pieces.append(contentsOf: buffer[start..<end])
                    try Self.checkBound(recordBytes + pieces.count, bound, line: startLine, field: fields.count)
                    position = end
                    if end == buffer.count { continue }  // the chunk ended inside the field
                    position += 1  // a quote: doubled, or the closing one
                    if try peek() == UInt8(ascii: "\"") {
                        position += 1
                        pieces.append(UInt8(ascii: "\""))
                        continue
                    }
                    break
                }
                // After the closing quote: a separator, a line end or the end.
                if let byte = try peek(), byte != UInt8(ascii: ","), byte != 0x0A, byte != 0x0D {
                    // `"timestamp";"portfolio"`: a spreadsheet's European setting, said as such.
                    let message =
                        byte == UInt8(ascii: ";")
                        ? "the separator must be a comma, not \";\" (text after a closing quote)" : "text after a closing quote"
                    throw SyntaxError(line: startLine, field: fields.count, message: message)
                }
            } else {
                while try peek() != nil {
                    let start = position
                    let (end, quote) = buffer.withUnsafeBufferPointer { b -> (Int, Bool) in
                        var end = start
                        while end < b.count {
                            let byte = b[end]
                            if byte == UInt8(ascii: ",") || byte == 0x0A || byte == 0x0D { return (end, false) }
                            if byte == UInt8(ascii: "\"") { return (end, true) }
                            end += 1
                        }
                        return (end, false)
                    }
                    if quote {
                        throw SyntaxError(
                            line: startLine, field: fields.count,
                            message: "a quote inside an unquoted field (quote the whole field and double the quote)")
                    }
                    position = end
                    if end < buffer.count, pieces.isEmpty {
                        inChunk = start..<end
                        break
                    }
                    pieces.append(contentsOf: buffer[start..<end])
                    try Self.checkBound(recordBytes + pieces.count, bound, line: startLine, field: fields.count)
                    if end < buffer.count { break }
                }
            }
            let fieldBytes = inChunk?.count ?? pieces.count
            try Self.checkBound(recordBytes + fieldBytes, bound, line: startLine, field: fields.count)
            recordBytes += fieldBytes + 1
            if let inChunk {
                try fields.append(inChunk, of: buffer, chunk: chunksRead, line: startLine)
            } else {
                try pieces.withUnsafeBufferPointer { try fields.append($0, line: startLine) }
            }
            guard let byte = try peek() else { return }
            position += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == 0x0D, try peek() == 0x0A { position += 1 }
            line += 1
            return
        }
    }

    /// Refuses a record of `total` bytes beyond `bound` (at `line`, the field being read).
    private static func checkBound(_ total: Int, _ bound: Int, line: Int, field: Int) throws {
        guard total > bound else { return }
        let size = bound % (1 << 20) == 0 ? "\(bound >> 20) MiB" : "\(bound) bytes"
        throw SyntaxError(line: line, field: field, message: "the record is longer than \(size) (is a line end missing?)")
    }

    /// A field's text from its bytes; UTF-8 is validated unless every byte is ASCII.
    static func field(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, field: Int) throws -> String {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }  // ASCII: nothing to validate
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SyntaxError(line: line, field: field, message: "the field is not valid UTF-8", reason: .badUTF8)
        }
        return text
    }
}

/// Writes RFC 4180 CSV: CRLF line ends; a field with a comma, quote, CR or LF is quoted, its
/// quotes doubled.
struct CSVWriter {
    private(set) var bytes: [UInt8] = []

    init(reserving capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    mutating func record(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendField(field.utf8, to: &bytes)
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    /// Appends one field, quoted (its quotes doubled) when it holds a comma, quote, CR or LF.
    static func appendField<Field: Collection<UInt8>>(_ field: Field, to bytes: inout [UInt8]) {
        guard field.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
            bytes.append(contentsOf: field)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in field {
            if byte == 0x22 { bytes.append(0x22) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Hands out what was written and starts afresh (for streaming to a file).
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}

/// The ledger's CSV columns (SPEC §12, §16; `ImportDetection` knows a header by them), in the order export writes them: the §12 ones, then
/// `fee_coin_id,fee_price,income_type,group_id` (optional on import, in any position), then —
/// only when a row written has a price given in another currency (§17) — `price_currency,
/// original_price`, so that export → import round-trips such a row too.
enum LedgerCSV {
    /// The long header: every export starts with it.
    static let columns = [
        "timestamp", "portfolio", "coin_id", "kind", "amount", "price", "fee", "note", "external_id", "fee_coin_id", "fee_price",
        "income_type", "group_id",
    ]
    /// The columns of a price in another currency (§17): written after the long header when a
    /// row needs them, optional on import.
    static let currencyColumns = ["price_currency", "original_price"]
    static let required: Set<String> = ["timestamp", "coin_id", "kind", "amount"]
    /// The external id an export gives a transaction that has none.
    static let ownPrefix = "coinfolio:"

    /// A transaction's cells, each protected against formula injection (`SpreadsheetFormula`).
    /// `feePrice` is the price its fee row took (the row itself is not written: import recreates
    /// it from `fee_coin_id`), else the transaction's own `fee_price`.
    /// `currencies`: also the `currencyColumns`' cells.
    static func record(_ t: Transaction, feePrice: ExactDecimal?, currencies: Bool = false) -> [String] {
        var cells = [
            LedgerTimestamp.format(t.timestamp), t.portfolio, t.coinID, t.kind.rawValue, t.amount.description,
            t.price?.description ?? "", t.fee.description, t.note ?? "", t.externalID ?? "\(ownPrefix)\(t.id ?? 0)",
            t.feeCoinID ?? "", (feePrice ?? t.feePrice)?.description ?? "", t.incomeType?.rawValue ?? "", t.groupID ?? "",
        ]
        if currencies { cells += [t.priceCurrency ?? "", t.originalPrice?.description ?? ""] }
        return cells.map(SpreadsheetFormula.protected)
    }
}
