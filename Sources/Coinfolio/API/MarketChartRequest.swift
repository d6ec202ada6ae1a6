/// How far back a chart goes: a number of days, or CoinGecko's `max` (all history).
public enum ChartDays: Hashable, Sendable, CustomStringConvertible {
    /// The last `n` days, n ≥ 1.
    case days(Int)
    /// All history CoinGecko has.
    case max

    /// The most days public and demo plans may ask for (CoinGecko error 10012 beyond).
    public static let planLimit = 365
    /// The largest number of days accepted at all (100 years).
    public static let largest = 36_500

    /// The query value: "7", "365", "max".
    public var description: String {
        switch self {
        case .days(let n): return String(n)
        case .max: return "max"
        }
    }

    /// Reads a JSON value: a whole number 1…36500 or the string "max".
    /// - Throws: `.invalidArgument` for anything else.
    init(json value: Any?) throws {
        if let text = value as? String, text == "max" { self = .max; return }
        if let number = value as? Double, number.isFinite, number == number.rounded(), number >= 1, number <= Double(Self.largest) {
            self = .days(Int(number))
            return
        }
        throw CoinfolioError.invalid("days must be a whole number from 1 to \(Self.largest) or \"max\"")
    }
}

/// The query of `GET /coins/{id}/market_chart`.
///
/// JSON form (every key optional): `{"vs_currency":"usd","days":7|"max","interval":"daily"|null}`.
/// Without `interval` CoinGecko picks the granularity from `days` (5-minutely up to 1 day, hourly
/// up to 90 days, daily beyond).
public struct MarketChartRequest: Hashable, Sendable {
    /// Quote currency of the series.
    public var vsCurrency: VsCurrency
    /// How far back.
    public var days: ChartDays
    /// `daily` for one point a day, nil for CoinGecko's automatic granularity.
    public var interval: ChartInterval?

    /// A request; `days` defaults to 7.
    public init(vsCurrency: VsCurrency = .usd, days: ChartDays = .days(7), interval: ChartInterval? = nil) {
        self.vsCurrency = vsCurrency
        self.days = days
        self.interval = interval
    }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad value.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        self.init(
            vsCurrency: try (object["vs_currency"] as? String).map { try VsCurrency($0) } ?? .usd,
            days: try object["days"].map { try ChartDays(json: $0) } ?? .days(7),
            interval: try ChartInterval(json: object["interval"]))
        if let value = object["vs_currency"], !(value is String) { throw CoinfolioError.invalid("vs_currency must be a string") }
    }

    var query: [(String, String)] {
        var items: [(String, String)] = [("vs_currency", vsCurrency.code), ("days", days.description)]
        if let interval { items.append(("interval", interval.rawValue)) }
        return items
    }
}

/// The granularity of a market chart that a host may ask for.
public enum ChartInterval: String, Hashable, Sendable {
    /// One point a day (00:00 UTC).
    case daily

    /// Reads a JSON value: absent, null or "daily".
    /// - Throws: `.invalidArgument` for anything else.
    init?(json value: Any?) throws {
        guard let value, !(value is NSNull) else { return nil }
        guard let text = value as? String, let interval = ChartInterval(rawValue: text) else {
            throw CoinfolioError.invalid("interval must be \"daily\" or null")
        }
        self = interval
    }
}

/// The query of `GET /simple/price`.
///
/// JSON form: `{"ids":["bitcoin",…],"vs_currency":"usd"}`. More than 250 ids are asked in several
/// requests. 24 h change and last-updated time are always asked for.
public struct SimplePriceRequest: Hashable, Sendable {
    /// The coins (CoinGecko ids; the `CoinID` rule, and no comma).
    public var ids: [String]
    /// The quote currency.
    public var vsCurrency: VsCurrency

    /// - Throws: `.invalidArgument` for a bad id or an id with a comma (ids are comma-joined).
    public init(ids: [String], vsCurrency: VsCurrency = .usd) throws {
        for id in ids {
            try CoinID.validate(id)
            if id.contains(",") { throw CoinfolioError.invalid("a coin id cannot contain a comma: \"\(id)\"") }
        }
        self.ids = ids
        self.vsCurrency = vsCurrency
    }

    /// Reads the JSON form.
    /// - Throws: `.invalidArgument` for malformed JSON, a missing or bad `ids`, a bad currency.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        guard let ids = object["ids"] as? [Any], ids.allSatisfy({ $0 is String }) else {
            throw CoinfolioError.invalid("ids must be an array of coin id strings")
        }
        if let value = object["vs_currency"], !(value is String) { throw CoinfolioError.invalid("vs_currency must be a string") }
        try self.init(ids: ids.compactMap { $0 as? String }, vsCurrency: try (object["vs_currency"] as? String).map { try VsCurrency($0) } ?? .usd)
    }
}

import Foundation
