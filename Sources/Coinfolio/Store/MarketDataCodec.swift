import Foundation

/// The saved form of a snapshot's `MarketData` (`/global`), in the `snapshot.global` column:
/// `CFM1` and one `CompactBytes` record (the three per-currency maps, the 24 h change, the coin
/// and market counts, `updated_at`), read back without a JSON parse. Rows saved before it hold
/// the data as `/global` JSON (`{"data":{…}}`) and still open: they are read as a `/global` body.
enum MarketDataCodec {
    static let magic: UInt32 = 0x314D_4643  // "CFM1"

    static let corrupt = CoinfolioError(.store, "the saved market data is damaged or of an unknown format")

    /// The compact form of `data` (its decode warnings are not kept: they were reported when it
    /// was decoded).
    static func encode(_ data: MarketData) -> [UInt8] {
        var w = CompactWriter()
        w.u32(magic)
        w.beginRecord()
        w.optional(data.totalMarketCap)
        w.optional(data.totalVolume)
        w.optional(data.marketCapPercentage)
        w.optional(data.marketCapChangePercentage24hUSD)
        w.optional(data.activeCryptocurrencies.map(Int64.init))
        w.optional(data.markets.map(Int64.init))
        w.optional(data.updatedAt.map(Int64.init))
        w.endRecord()
        return w.bytes
    }

    /// Whether `bytes` are in the compact form (not the `/global` JSON saved before).
    static func isCompact(_ bytes: Data) -> Bool {
        bytes.count >= 4 && bytes.prefix(4).elementsEqual([0x43, 0x46, 0x4D, 0x31])
    }

    /// The market data saved as `bytes`: the compact form, or the `/global` JSON saved before.
    /// - Throws: `.store` (`corrupt`) for a damaged compact blob; the `/global` decoder's errors
    ///   for JSON that no longer reads.
    static func decode(_ bytes: Data) throws -> MarketData {
        guard isCompact(bytes) else { return try CoinGeckoBody.global(bytes) }
        return try bytes.withUnsafeBytes { raw in
            var r = CompactReader(bytes: raw, corrupt: corrupt)
            _ = try r.u32()
            try r.beginRecord()
            var data = MarketData()
            data.totalMarketCap = try r.optionalMap()
            data.totalVolume = try r.optionalMap()
            data.marketCapPercentage = try r.optionalMap()
            data.marketCapChangePercentage24hUSD = try r.optionalDouble()
            data.activeCryptocurrencies = try r.optionalInt().map { Int(truncatingIfNeeded: $0) }
            data.markets = try r.optionalInt().map { Int(truncatingIfNeeded: $0) }
            data.updatedAt = try r.optionalInt().map { Int(truncatingIfNeeded: $0) }
            guard r.isAtEnd else { throw corrupt }
            return data
        }
    }
}
