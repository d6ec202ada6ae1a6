import Foundation

extension CoinGeckoBody {
    /// Decodes a `GET /coins/{id}/market_chart` body: `{"prices":[[t_ms,v]…],"market_caps":[…],
    /// "total_volumes":[…]}`.
    ///
    /// A point whose value is null, missing or not a number is kept as a gap (nil value), never
    /// 0; a string holding a whole JSON number (`"0.0421"`) reads as that number. A point with no
    /// usable time cannot be placed: it is left out and reported in `warnings`, as is every value
    /// read as a gap because of its type. A missing series is empty; an empty series is valid.
    /// - Throws: `.invalidArgument` for malformed JSON; `.decode` when the body is not an object
    ///   or a series is not an array.
    public static func marketChart(_ body: Data) throws -> MarketChart {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: prepared(body), options: [.fragmentsAllowed])
        } catch let error as CoinfolioError {
            throw error
        } catch {
            throw CoinfolioError(.invalidArgument, "malformed JSON", details: ["reason": .string("malformed_json")])
        }
        guard let top = object as? [String: Any] else {
            throw CoinfolioError(.decode, "expected a JSON object {\"prices\":[…]} (/coins/{id}/market_chart)")
        }
        var chart = MarketChart()
        chart.prices = try series(top, "prices", warnings: &chart.warnings)
        chart.marketCaps = try series(top, "market_caps", warnings: &chart.warnings)
        chart.totalVolumes = try series(top, "total_volumes", warnings: &chart.warnings)
        return chart
    }

    private static func series(_ top: [String: Any], _ key: String, warnings: inout [MarketChart.Warning]) throws -> [ChartPoint] {
        guard let value = top[key], !(value is NSNull) else { return [] }
        guard let elements = value as? [Any] else {
            throw CoinfolioError(.decode, "\(key) is not an array of [time, value] points (/coins/{id}/market_chart)")
        }
        var points: [ChartPoint] = []
        points.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let pair = element as? [Any], let first = pair.first, let time = jsonNumber(first), time.isFinite else {
                warnings.append(.init(series: key, index: index, reason: "not a [time, value] point: left out"))
                continue
            }
            var value: Double?
            if pair.count > 1 {
                value = jsonNumber(pair[1])
                if value == nil, !(pair[1] is NSNull) {
                    warnings.append(.init(series: key, index: index, reason: "the value is not a number: read as a gap"))
                }
            }
            points.append(ChartPoint(time: time, value: value))
        }
        return points
    }

    /// A JSON number (not a boolean), or a string whose whole content is a JSON number; nil
    /// otherwise (`"12abc"`, `""`, `" 1"`, `"NaN"`, `"0x10"`).
    static func jsonNumber(_ value: Any) -> Double? {
        if let number = value as? NSNumber {
            // JSONSerialization gives booleans as NSNumber too.
            if ConfigJSON.isBoolean(number) { return nil }
            let double = number.doubleValue
            return double.isFinite ? double : nil
        }
        if let text = value as? String, isJSONNumber(text), let double = Double(text), double.isFinite { return double }
        return nil
    }

    /// Whether `text` is exactly a JSON number (RFC 8259 grammar).
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, (0x30...0x39).contains(byte) { bytes.removeFirst(); count += 1 }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        guard let lead = bytes.first else { return false }
        if lead == UInt8(ascii: "0") { bytes.removeFirst() } else if digits() == 0 { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
