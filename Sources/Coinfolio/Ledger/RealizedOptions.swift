/// `realized` options (SPEC §19): JSON `{"portfolio":"main","method":"fifo","year":2024 or
/// "from"/"to","long_term_after_years":1,"tax_free_after_years":null,"format":"json"|"csv"}`.
public struct RealizedOptions: Sendable, Equatable {
    /// The answer's form: JSON, or the rows as CSV.
    public enum Format: String, Sendable {
        case json
        case csv
    }

    /// The portfolio (default "main"); nil: every portfolio of the owner (of one currency).
    public var portfolio: String?
    /// The cost basis method (default fifo).
    public var method: CostBasisMethod
    /// Disposals and income at or after this time (ms, UTC); nil: from the start.
    public var from: Int64?
    /// Disposals and income before this time (ms, UTC); nil: to the end.
    public var to: Int64?
    /// A lot is long term when disposed of after this anniversary (default 1, the US rule).
    public var longTermAfterYears: Int
    /// A lot disposed of after this anniversary is tax-free (1: the German rule); nil: none is.
    public var taxFreeAfterYears: Int?
    /// JSON (default) or CSV.
    public var format: Format

    /// Options; defaults "main", fifo, every disposal, long term after 1 year, nothing tax-free, JSON.
    public init(
        portfolio: String? = Transaction.defaultPortfolio, method: CostBasisMethod = .fifo, from: Int64? = nil, to: Int64? = nil,
        longTermAfterYears: Int = 1, taxFreeAfterYears: Int? = nil, format: Format = .json
    ) {
        self.portfolio = portfolio
        self.method = method
        self.from = from
        self.to = to
        self.longTermAfterYears = longTermAfterYears
        self.taxFreeAfterYears = taxFreeAfterYears
        self.format = format
    }

    /// The UTC calendar year `year`: [January 1st 00:00Z, the next January 1st).
    /// - Throws: `.invalidArgument` (`details.field` "year") outside 1970…9998.
    public static func year(_ year: Int) throws -> (from: Int64, to: Int64) {
        guard (1970...9998).contains(year) else {
            throw CoinfolioError(.invalidArgument, "year must be 1970…9998, not \(year)", details: [.field: .string("year")])
        }
        let start = Int64(CivilDate.days(year: year, month: 1, day: 1)) * 86_400_000
        return (start, Int64(CivilDate.days(year: year + 1, month: 1, day: 1)) * 86_400_000)
    }

    /// The most years `long_term_after_years` and `tax_free_after_years` may name.
    static let maximumYears = 1000

    /// Reads the JSON form (nil: every default). `"portfolio"` absent is "main", null every
    /// portfolio; `year` and `from`/`to` (RFC 3339; a date alone is 00:00Z) exclude each other.
    /// - Throws: `.invalidArgument` with `details.field` for malformed JSON or a bad field.
    public init(json: String?) throws {
        self.init()
        guard let json else { return }
        let read = LedgerJSONFields(try FlatJSONObject(json))
        if read.object["portfolio"] == .null { portfolio = nil } else { portfolio = try read.string("portfolio") ?? portfolio }
        if let text = try read.string("method") {
            guard let method = CostBasisMethod(rawValue: text) else {
                throw read.invalid("method", "method must be \(CostBasisMethod.list), not \"\(text.prefix(64))\"")
            }
            self.method = method
        }
        if let year = try read.integer("year") {
            guard read.object["from"] == nil, read.object["to"] == nil else {
                throw read.invalid("year", "give either year or from/to, not both")
            }
            (from, to) = try Self.year(year)
        } else {
            from = try read.time("from")
            to = try read.time("to")
            if let from, let to, from >= to { throw read.invalid("to", "to must come after from") }
        }
        longTermAfterYears = try read.integer("long_term_after_years", in: 0...Self.maximumYears) ?? 1
        taxFreeAfterYears = try read.integer("tax_free_after_years", in: 0...Self.maximumYears)
        if let text = try read.string("format") {
            guard let format = Format(rawValue: text) else {
                throw read.invalid("format", "format must be json or csv, not \"\(text.prefix(64))\"")
            }
            self.format = format
        }
    }
}

extension LedgerJSONFields {
    /// A whole number (a JSON number without fraction), nil when absent or null; within `range`.
    func integer(_ key: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let value = Int(text), range.contains(value) else {
                // The bounds only where the key has its own (`year` is checked by its own rule).
                let bounds = range == Int.min...Int.max ? "" : " \(range.lowerBound)…\(range.upperBound)"
                throw invalid(key, "\(prefix + key) must be a whole number\(bounds), not \(text.prefix(64))")
            }
            return value
        default: throw invalid(key, "\(prefix + key) must be a number")
        }
    }

    /// An RFC 3339 time (ms, UTC; a date alone is 00:00Z), nil when absent or null.
    func time(_ key: String) throws -> Int64? {
        guard let text = try string(key) else { return nil }
        guard let parsed = LedgerTimestamp.parse(text) else {
            throw invalid(key, "\(prefix + key) must be RFC 3339 (2024-03-01 or 2024-03-01T12:30:00Z), not \"\(text.prefix(64))\"")
        }
        return parsed
    }
}
