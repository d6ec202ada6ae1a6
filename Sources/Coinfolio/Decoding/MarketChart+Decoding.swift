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
        // JSONSerialization read ten times slower than `json.loads`.
        let data = withoutBOM(body)
        return try data.withUnsafeBytes { raw in
            try JSONSyntax.checkUTF8(raw)
            var reader = ChartJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            return try reader.marketChart()
        }
    }

}
