/// `performance` options (SPEC §19): JSON `{"portfolio":"main","range":"24h"|"7d"|"30d"|"90d"|
/// "1y"|"ytd"|"max" or {"from","to"},"benchmark":null or a coin id}`.
public struct PerformanceOptions: Sendable, Equatable {
    /// The period reported.
    public enum Range: Sendable, Equatable {
        /// The last `days` days up to now (24h: 1, 7d, 30d, 90d, 1y: 365).
        case last(days: Int)
        /// From January 1st 00:00 UTC of this year up to now.
        case yearToDate
        /// From 00:00 UTC of the first transaction's day up to now.
        case max
        /// From `from` to `to` (ms, UTC); `to` nil: now.
        case between(from: Int64, to: Int64?)

        /// The named ranges by their names.
        static let named: [String: Range] = [
            "24h": .last(days: 1), "7d": .last(days: 7), "30d": .last(days: 30), "90d": .last(days: 90), "1y": .last(days: 365),
            "ytd": .yearToDate, "max": .max,
        ]
        /// "24h, 7d, 30d, 90d, 1y, ytd or max", for messages.
        static let list = "24h, 7d, 30d, 90d, 1y, ytd or max"

        /// The range a name gives: `24h`, `7d`, `30d`, `90d`, `1y`, `ytd` or `max`.
        /// - Throws: `.invalidArgument` (`details.field` "range") for any other text.
        public init(name: String) throws {
            guard let range = Self.named[name] else {
                throw CoinfolioError(
                    .invalidArgument, "range must be \(Self.list) or {\"from\",\"to\"}, not \"\(name.prefix(64))\"",
                    details: [.field: .string("range")])
            }
            self = range
        }

        /// The range from `from` to `to` (RFC 3339; a date alone is 00:00Z), `to` nil: now.
        /// - Throws: `.invalidArgument` with `details.field` "range.from" or "range.to" for a text
        ///   that is no such time, or a `to` not after `from`.
        public init(from: String, to: String?) throws {
            var members: [String: FlatJSONObject.Value] = ["from": .string(from)]
            if let to { members["to"] = .string(to) }
            try self.init(LedgerJSONFields(FlatJSONObject(members), prefix: "range."))
        }

        /// The range object `{"from","to"}` of the JSON form, read by `fields`.
        init(_ fields: LedgerJSONFields) throws {
            guard let from = try fields.time("from") else { throw fields.invalid("from", "range.from is required") }
            let to = try fields.time("to")
            if let to, to <= from { throw fields.invalid("to", "range.to must come after range.from") }
            self = .between(from: from, to: to)
        }
    }

    /// The portfolio (default "main"); nil: every portfolio of the owner together (of one currency).
    public var portfolio: String?
    /// The period (default `max`).
    public var range: Range
    /// A coin whose price change over the range the answer compares with; nil: none.
    public var benchmark: String?

    /// Options; defaults "main", `max`, no benchmark.
    public init(portfolio: String? = Transaction.defaultPortfolio, range: Range = .max, benchmark: String? = nil) {
        self.portfolio = portfolio
        self.range = range
        self.benchmark = benchmark
    }

    /// Reads the JSON form (nil: every default). `"portfolio"` absent is "main", null every
    /// portfolio; a range object needs `from` (RFC 3339; a date alone is 00:00Z), `to` is now when
    /// absent. - Throws: `.invalidArgument` with `details.field` for malformed JSON or a bad field.
    public init(json: String?) throws {
        self.init()
        guard let json else { return }
        let read = LedgerJSONFields(try FlatJSONObject(json))
        if read.object["portfolio"] == .null { portfolio = nil } else { portfolio = try read.string("portfolio") ?? portfolio }
        if case .object? = read.object["range"], let range = try read.object("range") {
            self.range = try Range(range)
        } else if let name = try read.string("range") {
            self.range = try Range(name: name)
        }
        if let benchmark = try read.string("benchmark") {
            try Self.validate(benchmark: benchmark)
            self.benchmark = benchmark
        }
    }

    /// - Throws: `.invalidArgument` (`details.field` "benchmark") for a text no coin id can be.
    static func validate(benchmark: String) throws {
        do { try CoinID.validate(benchmark) } catch var error as CoinfolioError {
            error.details[.field] = .string("benchmark")
            throw error
        }
    }

    /// The most points a report may hold (a century of days): a longer range is refused.
    static let maximumPoints = 36_600

    /// The range's ends (ms, UTC) for the time `now` and the first transaction's time (nil: no
    /// transaction), and whether it ends now (its last value is then taken from current prices).
    /// - Throws: `.invalidArgument` (`details.field` "range") for a range of more than
    ///   `maximumPoints` days or one starting at or after its end; ("range.from") for one that
    ///   starts at or after now; (`details.field` "benchmark") for a
    ///   benchmark no coin id can be (options made in Swift, not read from JSON).
    func resolve(now: Int64, firstTransaction: Int64?) throws -> (from: Int64, to: Int64, endsNow: Bool) {
        if let benchmark { try Self.validate(benchmark: benchmark) }
        var from: Int64
        var to = now
        switch range {
        case .last(let days): from = now - Int64(days) * UTCDay.milliseconds
        case .yearToDate:
            let (year, _, _) = CivilDate.date(days: Int(UTCDay.number(of: now)))
            from = Int64(CivilDate.days(year: year, month: 1, day: 1)) * UTCDay.milliseconds
        case .max:
            from = UTCDay.start(of: min(firstTransaction ?? now, now))
            if from == now { from -= UTCDay.milliseconds }
        case .between(let start, let end):
            from = start
            if let end, end < now { to = end }
        }
        // "to" later than now is now: a range starting at or after now has no values (saying "not
        // before its end" named an end the caller never gave).
        guard from < now else {
            throw CoinfolioError(
                .invalidArgument,
                "the range starts at \(LedgerTimestamp.format(from)), not before now (\(LedgerTimestamp.format(now))): there are no values after now",
                details: [.field: .string("range.from")])
        }
        guard from < to else {
            throw CoinfolioError(
                .invalidArgument, "the range starts at \(LedgerTimestamp.format(from)), not before its end",
                details: [.field: .string("range")])
        }
        guard (to - from) / UTCDay.milliseconds < Int64(Self.maximumPoints) else {
            throw CoinfolioError(
                .invalidArgument, "the range is longer than \(Self.maximumPoints) days", details: [.field: .string("range")])
        }
        return (from, to, to == now)
    }
}
