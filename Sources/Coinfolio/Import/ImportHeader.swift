/// A file's header matched to a variant: where each of the variant's columns stands, and what
/// the header itself states (Coinbase v1's currency, a `Date(UTC+8)` offset).
///
/// A header matches a variant when the variant's columns appear in it in their order (cells are
/// compared after trimming spaces, without letter case: `transaction type` and `TXID` match).
/// Other cells may stand between them: the variant's newer
/// columns are read silently, any other is reported once as a warning on the header's line
/// ("column … is not read"), so a column an exchange adds next year does not stop an import.
struct ImportHeader: Sendable {
    /// Where one column stands: its index in a row and its title as the file writes it (the
    /// `details.column` of an error).
    struct Field: Sendable {
        /// 0-based index in the row.
        let index: Int
        /// The header cell.
        let title: String
    }

    /// The variant matched.
    let variant: ImportVariant
    /// The header's physical line (1-based; preamble lines before it count).
    let line: Int
    /// The header's cells, trimmed.
    let cells: [String]
    /// Each of the variant's columns' fields, in the variant's order.
    private let fields: [Field]
    /// The currency of Coinbase v1's `XXX Subtotal` columns (upper-case), if any.
    let currency: String?
    /// The offset a `Date(UTC±h)` header states, in milliseconds (local time − UTC); 0 else.
    let utcOffsetMilliseconds: Int64
    /// Cells that are neither the variant's columns nor its newer ones, nor empty.
    let unreadColumns: [String]

    /// The field of the variant column whose key is `key` (its `occurrence`-th, from 1, for a
    /// name a header repeats, such as CoinTracking's `Cur.`); nil when the variant has none.
    func field(_ key: String, occurrence: Int = 1) -> Field? {
        var seen = 0
        for (index, column) in variant.columns.enumerated() where column.key == key {
            seen += 1
            if seen == occurrence { return fields[index] }
        }
        return nil
    }

    /// `field(_:occurrence:)` for a column the variant is known to have.
    /// - Throws: `.internalError` when it has none (a defect in an importer's table).
    func require(_ key: String, occurrence: Int = 1) throws -> Field {
        guard let field = field(key, occurrence: occurrence) else {
            throw CoinfolioError(
                .internalError, "the \(variant.format.rawValue) \(variant.name) importer reads a column \"\(key)\" it does not register")
        }
        return field
    }

    /// The first of `keys` the variant has (variants name one thing differently: `Price
    /// Currency`, `Spot Price Currency`). - Throws: `.internalError` when it has none.
    func require(anyOf keys: [String]) throws -> Field {
        for key in keys { if let field = field(key) { return field } }
        throw CoinfolioError(.internalError, "the \(variant.format.rawValue) \(variant.name) importer reads none of \(keys)")
    }

    /// The header `cells` (trimmed) read as `variant`, or nil when they are not that variant's.
    init?(cells: [String], line: Int, variant: ImportVariant) {
        var fields: [Field] = []
        var currency: String?
        var offset: Int64 = 0
        var used = [Bool](repeating: false, count: cells.count)
        var next = 0
        for column in variant.columns {
            var found = false
            while next < cells.count {
                let cell = cells[next]
                next += 1
                switch column {
                case .named(let name):
                    found = cell == name || Self.same(cell, name)
                case .currencyPrefixed(let suffix):
                    if let code = Self.currencyPrefix(of: cell, suffix: suffix), currency == nil || currency == code {
                        currency = code
                        found = true
                    }
                case .dateUTC(let name):
                    if let stated = Self.utcOffset(of: cell, name: name) {
                        offset = stated
                        found = true
                    }
                }
                if found {
                    fields.append(Field(index: next - 1, title: cell))
                    used[next - 1] = true
                    break
                }
            }
            guard found else { return nil }
        }
        self.variant = variant
        self.line = line
        self.cells = cells
        self.fields = fields
        self.currency = currency
        self.utcOffsetMilliseconds = offset
        self.unreadColumns = cells.indices.compactMap { index in
            let cell = cells[index]
            return used[index] || cell.isEmpty || variant.newerColumns.contains(where: { Self.same(cell, $0) }) ? nil : cell
        }
    }

    /// `EUR` for `EUR Subtotal` and suffix `Subtotal`; nil when the cell is not so.
    private static func currencyPrefix(of cell: String, suffix: String) -> String? {
        let bytes = Array(cell.utf8)
        let tail = Array(" \(suffix)".utf8)
        guard bytes.count == 3 + tail.count, bytes[3...].elementsEqual(tail, by: Self.sameLetter),
            bytes[..<3].allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) })
        else { return nil }
        return String(decoding: bytes[..<3].map { $0 & 0xDF }, as: UTF8.self)
    }

    /// The offset a `Date(UTC)`, `Date(UTC+8)`, `Date(UTC-5)` or `Date(UTC+05:30)` cell states, in
    /// milliseconds; nil for any other cell.
    static func utcOffset(of cell: String, name: String) -> Int64? {
        let prefix = "\(name)(UTC"
        guard cell.utf8.count > prefix.utf8.count, cell.utf8.prefix(prefix.utf8.count).elementsEqual(prefix.utf8, by: sameLetter),
            cell.hasSuffix(")")
        else { return nil }
        let inner = Array(cell.utf8.dropFirst(prefix.utf8.count).dropLast())
        if inner.isEmpty { return 0 }
        guard inner[0] == UInt8(ascii: "+") || inner[0] == UInt8(ascii: "-") else { return nil }
        let sign: Int64 = inner[0] == UInt8(ascii: "-") ? -1 : 1
        let parts = inner.dropFirst().split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        let hours = Int64(parts[0].reduce(0) { $0 * 10 + Int($1 - 0x30) })
        let minutes = parts.count == 2 ? Int64(parts[1].reduce(0) { $0 * 10 + Int($1 - 0x30) }) : 0
        guard hours <= 14, minutes <= 59 else { return nil }
        return sign * (hours * 3_600_000 + minutes * 60_000)
    }

    /// Whether a header `cell` is `name` but for the letter case of ASCII letters (`name` is a
    /// column as the exchange writes it, ASCII). Called after `==` failed: the exact match stays
    /// the fast path.
    static func same(_ cell: String, _ name: String) -> Bool {
        cell.utf8.count == name.utf8.count && cell.utf8.elementsEqual(name.utf8, by: sameLetter)
    }

    /// Whether two bytes are equal, or the same ASCII letter in either case.
    private static func sameLetter(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (0x61...0x7A).contains(a | 0x20))
    }
}
