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
        // One pass over the bytes: a year of hourly points is about 1 MB, which Foundation's
        // JSONSerialization reads ten times slower than `json.loads`.
        let data = withoutBOM(body)
        return try data.withUnsafeBytes { raw in
            try JSONSyntax.checkUTF8(raw)
            var reader = ChartJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            return try reader.marketChart()
        }
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
