import Foundation

/// The query of `GET /coins/{id}/market_chart/range` (SPEC §17): the price, market cap and volume
/// points of one coin between two times.
///
/// JSON form: `{"vs_currency":"usd","from":…,"to":…}`; `vs_currency` defaults to usd, `from` and
/// `to` are required, each a whole number of UNIX seconds (0…253402300799, years 1970…9999) or
/// RFC 3339 text (`"2024-03-01"`, `"2024-03-01T12:30:00+02:00"`; a time without a zone is UTC,
/// never the host's zone). They are sent as UNIX seconds: a text time with milliseconds widens
/// the range to whole seconds (`from` down, `to` up). `from` may not be after `to`.
///
/// CoinGecko picks the points' spacing from the range: 5 minutes for a range within a day of now,
/// hourly up to 90 days, daily (00:00 UTC) beyond. On the public and demo plans only the past 365
/// days may be asked for (older: 401 with error code 10012, `.unauthorized`).
public struct MarketChartRangeRequest: Hashable, Sendable {
    /// Quote currency of the series.
    public var vsCurrency: VsCurrency
    /// The range's start, UNIX seconds (UTC), sent as `from`.
    public var from: Int64
    /// The range's end, UNIX seconds (UTC), sent as `to`.
    public var to: Int64

    /// The latest second accepted: 9999-12-31T23:59:59Z.
    public static let latestSecond: Int64 = 253_402_300_799

    /// A request for `from`…`to` (UNIX seconds).
    /// - Throws: `.invalidArgument` when a time is outside 0…`latestSecond` or `from` is after `to`.
    public init(vsCurrency: VsCurrency = .usd, from: Int64, to: Int64) throws {
        for (name, value) in [("from", from), ("to", to)] where !(0...Self.latestSecond).contains(value) {
            throw CoinfolioError(
                .invalidArgument, "\(name) must be UNIX seconds from 0 to \(Self.latestSecond) (years 1970 to 9999), not \(value)",
                details: [.field: .string(name)])
        }
        guard from <= to else {
            throw CoinfolioError(.invalidArgument, "from (\(from)) is after to (\(to))", details: [.field: .string("from")])
        }
        self.vsCurrency = vsCurrency
        self.from = from
        self.to = to
    }

    /// Reads the JSON form.
    /// - Throws: `.invalidArgument` for malformed JSON, a missing or bad time (`details.field`
    ///   names it), a bad currency.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        if let value = object["vs_currency"], !(value is String) { throw CoinfolioError.invalid("vs_currency must be a string") }
        let vs = try (object["vs_currency"] as? String).map { try VsCurrency($0) } ?? .usd
        try self.init(
            vsCurrency: vs, from: Self.seconds(object["from"], "from", roundingUp: false),
            to: Self.seconds(object["to"], "to", roundingUp: true))
    }

    /// A JSON time: whole UNIX seconds, or RFC 3339 text (milliseconds rounded down for `from`,
    /// up for `to`, so the range covers the text's instant).
    static func seconds(_ value: Any?, _ name: String, roundingUp: Bool) throws -> Int64 {
        func invalid(_ message: String) -> CoinfolioError {
            CoinfolioError(.invalidArgument, message, details: [.field: .string(name)])
        }
        switch value {
        case nil:
            throw invalid("\(name) is required (UNIX seconds or RFC 3339 text)")
        case let number as Double:
            guard number.isFinite, number == number.rounded(), number >= 0, number <= Double(latestSecond) else {
                throw invalid("\(name) must be whole UNIX seconds from 0 to \(latestSecond) (years 1970 to 9999)")
            }
            return Int64(number)
        case let text as String:
            guard let milliseconds = LedgerTimestamp.parse(text) else {
                throw invalid("\(name) must be UNIX seconds or RFC 3339 text (2024-03-01T12:30:00Z), not \"\(text.prefix(64))\"")
            }
            let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
            if remainder == 0 { return quotient }
            // Floor for from, ceiling for to (a time before 1970 is then refused by the range check).
            return remainder < 0 ? (roundingUp ? quotient : quotient - 1) : (roundingUp ? quotient + 1 : quotient)
        default:
            throw invalid("\(name) must be UNIX seconds or RFC 3339 text")
        }
    }

    /// `vs_currency`, `from`, `to`, and `precision=full` so that CoinGecko never rounds a tiny
    /// price (2.6e-13 BTC) in the past either (as SPEC §17 asks of `/coins/markets`).
    var query: [RequestURL.QueryItem] {
        [
            RequestURL.QueryItem("vs_currency", vsCurrency.code), RequestURL.QueryItem("from", String(from)),
            RequestURL.QueryItem("to", String(to)), .fullPrecision,
        ]
    }
}
