import Foundation

/// The saved form of a `CoinDetail` (`/coins/{id}`), in the `coin_detail.detail` column: `CFD1`
/// and one `CompactBytes` record (id, symbol, name, block time, hashing algorithm, description,
/// homepage, subreddit, genesis date, categories), read back without a JSON parse. Rows saved
/// before it hold the detail as `CoinDetail.writeJSON`'s JSON and still open.
enum CoinDetailCodec {
    static let magic: UInt32 = 0x3144_4643  // "CFD1"

    static let corrupt = CoinfolioError(.store, "the saved coin detail is damaged or of an unknown format")

    /// The compact form of `detail` (its decode warnings are not kept).
    static func encode(_ detail: CoinDetail) -> [UInt8] {
        var w = CompactWriter()
        w.bytes.reserveCapacity(256 + (detail.description?.utf8.count ?? 0))
        w.u32(magic)
        w.beginRecord()
        w.string(detail.id)
        w.string(detail.symbol)
        w.string(detail.name)
        w.optional(detail.blockTimeInMinutes)
        w.optional(detail.hashingAlgorithm)
        w.optional(detail.description)
        w.optional(detail.homepage)
        w.optional(detail.subredditURL)
        w.optional(detail.genesisDate)
        w.strings(detail.categories)
        w.endRecord()
        return w.bytes
    }

    /// The detail saved as `bytes`: the compact form, or the JSON saved before.
    /// - Throws: `.store` (`corrupt`) for a damaged blob or JSON that no longer reads.
    static func decode(_ bytes: Data) throws -> CoinDetail {
        guard bytes.count >= 4, bytes.prefix(4).elementsEqual([0x43, 0x46, 0x44, 0x31]) else { return try decodeJSON(bytes) }
        return try bytes.withUnsafeBytes { raw in
            var r = CompactReader(bytes: raw, corrupt: corrupt)
            _ = try r.u32()
            try r.beginRecord()
            var detail = CoinDetail(id: try r.string(), symbol: try r.string(), name: try r.string())
            detail.blockTimeInMinutes = try r.optionalDouble()
            detail.hashingAlgorithm = try r.optionalString()
            detail.description = try r.optionalString()
            detail.homepage = try r.optionalString()
            detail.subredditURL = try r.optionalString()
            detail.genesisDate = try r.optionalString()
            detail.categories = try r.strings()
            guard r.isAtEnd else { throw corrupt }
            return detail
        }
    }

    /// A detail saved before the compact form: `CoinDetail.writeJSON`'s keys (plain text,
    /// already cleaned of HTML).
    private static func decodeJSON(_ bytes: Data) throws -> CoinDetail {
        guard let value = try? JSONValue.parse(body: bytes), let saved = try? JSONValueDecoder.decode(SavedJSON.self, from: value)
        else { throw corrupt }
        var detail = CoinDetail(id: saved.id, symbol: saved.symbol, name: saved.name)
        detail.blockTimeInMinutes = saved.block_time_in_minutes
        detail.hashingAlgorithm = saved.hashing_algorithm
        detail.description = saved.description
        detail.homepage = saved.homepage
        detail.subredditURL = saved.subreddit_url
        detail.genesisDate = saved.genesis_date
        detail.categories = saved.categories ?? []
        return detail
    }

    private struct SavedJSON: Decodable {
        var id: String
        var symbol: String
        var name: String
        var block_time_in_minutes: Double?
        var hashing_algorithm: String?
        var description: String?
        var homepage: String?
        var subreddit_url: String?
        var genesis_date: String?
        var categories: [String]?
    }
}
