import Foundation
import Synchronization

/// The compact stored form of a snapshot's coins (schema step 4), read back without a JSON parse.
///
/// Layout, little-endian: the magic `CFS1`, the coin count (u32), then one record per coin: a
/// u64 presence mask, the three required strings (`id`, `symbol`, `name`), then each optional
/// field in a fixed order, written only when its mask bit is set (strings as u32 length + UTF-8,
/// numbers as IEEE-754 doubles, the rank as an i64). Sparklines are not in this blob: they are
/// stored one row per coin and read only when a query shows them (the record keeps one mask bit
/// saying whether the coin has one), in either of two forms `sparklinePoints` tells apart by
/// their first byte: `D` and the points as little-endian doubles (`packedSparkline`, for points
/// held as values, and on PostgreSQL for every sparkline since schema step 6), or the JSON text
/// of the price array as CoinGecko sent it (`[`…: on SQLite, a decoder that keeps sparklines
/// undecoded saves their bytes without parsing them).
///
/// Reading is bounds-checked: a truncated or foreign blob throws `.store`, never traps.
enum SnapshotCodec {
    static let magic: UInt32 = 0x3153_4643  // "CFS1"

    /// The coins without their sparklines, and for each coin whether it has a sparkline.
    struct Decoded: Sendable {
        var coins: [Coin]
        var hasSparkline: [Bool]
    }

    /// The compact form of `coins` (a sparkline in memory sets its coin's sparkline bit; the
    /// points are saved apart, one row per coin).
    static func encode(_ coins: [Coin]) -> [UInt8] {
        var w = CompactWriter()
        w.bytes.reserveCapacity(coins.count * 360 + 8)
        w.u32(magic)
        w.u32(UInt32(truncatingIfNeeded: coins.count))
        for coin in coins { appendRecord(coin, hasSparkline: coin.sparkline != nil, to: &w) }
        return w.bytes
    }

    /// Appends `coin`'s record.
    private static func appendRecord(_ coin: Coin, hasSparkline: Bool, to w: inout CompactWriter) {
        w.beginRecord()
        w.string(coin.id); w.string(coin.symbol); w.string(coin.name)
        w.optional(coin.image); w.optional(coin.athDate); w.optional(coin.atlDate); w.optional(coin.lastUpdated)
        w.optional(coin.currentPrice); w.optional(coin.marketCap); w.optional(coin.fullyDilutedValuation)
        w.optional(coin.totalVolume); w.optional(coin.high24h); w.optional(coin.low24h)
        w.optional(coin.priceChange24h); w.optional(coin.priceChangePercentage24h)
        w.optional(coin.marketCapChange24h); w.optional(coin.marketCapChangePercentage24h)
        w.optional(coin.circulatingSupply); w.optional(coin.totalSupply); w.optional(coin.maxSupply)
        w.optional(coin.ath); w.optional(coin.athChangePercentage); w.optional(coin.atl); w.optional(coin.atlChangePercentage)
        w.optional(coin.marketCapRank.map(Int64.init))
        w.flag(coin.roi != nil)
        w.optional(coin.roi?.times); w.optional(coin.roi?.currency); w.optional(coin.roi?.percentage)
        for window in Coin.ChangeWindow.allCases { w.optional(coin.changeWindows[window]) }
        w.flag(hasSparkline)
        w.endRecord()
    }

    /// `blob` (a blob `skim` accepted, `skimmed` its skim) with the records of `changed`'s
    /// positions replaced by those coins' (a price update: same ids, ranks and sparklines; each
    /// keeps its sparkline bit), every other record's bytes copied as they are: no other coin is
    /// decoded or encoded.
    /// - Returns: the new blob and its skim.
    static func replacing(_ changed: [Int: Coin], in blob: UnsafeRawBufferPointer, skimmed: Skimmed) -> (blob: [UInt8], skimmed: Skimmed) {
        let count = skimmed.offsets.count
        let positions = changed.keys.filter { $0 >= 0 && $0 < count }.sorted()
        var w = CompactWriter()
        w.bytes.reserveCapacity(blob.count + positions.count * 64)
        var result = skimmed
        var shift = 0  // how far the records after the last replaced one moved
        var copied = 0  // bytes of `blob` copied or replaced so far
        var next = 0
        for position in 0..<count {
            result.offsets[position] = skimmed.offsets[position] + shift
            guard next < positions.count, positions[next] == position, let coin = changed[position] else { continue }
            next += 1
            let start = skimmed.offsets[position]
            let end = position + 1 < count ? skimmed.offsets[position + 1] : blob.count
            w.bytes.append(contentsOf: blob[copied..<start])
            appendRecord(coin, hasSparkline: skimmed.hasSparkline[position], to: &w)
            shift = w.bytes.count - end
            copied = end
            result.prices[position] = coin.currentPrice
        }
        w.bytes.append(contentsOf: blob[copied..<blob.count])
        return (w.bytes, result)
    }

    /// Every coin decoded (what `CompactCoins` does one record at a time).
    /// - Throws: `.store` (`corrupt`) for a truncated or foreign blob.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> Decoded {
        let index = try skim(bytes)
        var coins: [Coin] = []
        coins.reserveCapacity(index.offsets.count)
        for offset in index.offsets {
            var r = CompactReader(bytes: bytes, corrupt: corrupt)
            r.offset = offset
            coins.append(try record(&r))
        }
        return Decoded(coins: coins, hasSparkline: index.hasSparkline)
    }

    /// What opening a saved snapshot needs of every coin, read without building any `Coin`: where
    /// each record starts, its id, rank and price (the keys of the index and of the two list
    /// orders), and whether it has a sparkline. Walks every field with bounds checks, so that
    /// `record(_:)` cannot fail later on a record that was skimmed.
    /// - Throws: `.store` (`corrupt`) for a truncated or foreign blob.
    static func skim(_ bytes: UnsafeRawBufferPointer) throws -> Skimmed {
        var r = CompactReader(bytes: bytes, corrupt: corrupt)
        guard try r.u32() == magic else { throw corrupt }
        let count = Int(try r.u32())
        // Each record takes at least 20 bytes, so a bad count cannot reserve absurd memory. A
        // saved snapshot has at least one coin (an empty markets answer is never installed).
        guard count > 0, count <= bytes.count / 20 else { throw corrupt }
        var skimmed = Skimmed()
        skimmed.offsets.reserveCapacity(count)
        skimmed.ids.reserveCapacity(count)
        skimmed.ranks.reserveCapacity(count)
        skimmed.prices.reserveCapacity(count)
        skimmed.hasSparkline.reserveCapacity(count)
        for _ in 0..<count {
            skimmed.offsets.append(r.offset)
            try r.beginRecord()
            skimmed.ids.append(try r.string())
            try r.skipString(); try r.skipString()
            for _ in 0..<4 { try r.skipOptionalString() }  // image, ath_date, atl_date, last_updated
            skimmed.prices.append(try r.optionalDouble())
            for _ in 0..<16 { _ = try r.optionalDouble() }  // market_cap … atl_change_percentage
            skimmed.ranks.append(try r.optionalInt().map { Int(truncatingIfNeeded: $0) })
            _ = r.flag()
            _ = try r.optionalDouble(); try r.skipOptionalString(); _ = try r.optionalDouble()
            for _ in Coin.ChangeWindow.allCases { _ = try r.optionalDouble() }
            skimmed.hasSparkline.append(r.flag())
        }
        // The records end the blob: bytes after them are no part of a blob `encode` wrote.
        guard r.offset == bytes.count else { throw corrupt }
        return skimmed
    }

    /// `skim`'s answer: per coin, in order.
    struct Skimmed: Sendable {
        var offsets: [Int] = []
        var ids: [String] = []
        var ranks: [Int?] = []
        var prices: [Double?] = []
        var hasSparkline: [Bool] = []
    }

    /// The coin whose record starts at `r.offset`.
    fileprivate static func record(_ r: inout CompactReader) throws -> Coin {
        try r.beginRecord()
        var coin = Coin(id: try r.string(), symbol: try r.string(), name: try r.string())
        coin.image = try r.optionalString(); coin.athDate = try r.optionalString()
        coin.atlDate = try r.optionalString(); coin.lastUpdated = try r.optionalString()
        coin.currentPrice = try r.optionalDouble(); coin.marketCap = try r.optionalDouble()
        coin.fullyDilutedValuation = try r.optionalDouble(); coin.totalVolume = try r.optionalDouble()
        coin.high24h = try r.optionalDouble(); coin.low24h = try r.optionalDouble()
        coin.priceChange24h = try r.optionalDouble(); coin.priceChangePercentage24h = try r.optionalDouble()
        coin.marketCapChange24h = try r.optionalDouble(); coin.marketCapChangePercentage24h = try r.optionalDouble()
        coin.circulatingSupply = try r.optionalDouble(); coin.totalSupply = try r.optionalDouble()
        coin.maxSupply = try r.optionalDouble(); coin.ath = try r.optionalDouble()
        coin.athChangePercentage = try r.optionalDouble(); coin.atl = try r.optionalDouble()
        coin.atlChangePercentage = try r.optionalDouble()
        coin.marketCapRank = try r.optionalInt().map { Int(truncatingIfNeeded: $0) }
        if r.flag() {
            coin.roi = Coin.ROI(times: try r.optionalDouble(), currency: try r.optionalString(), percentage: try r.optionalDouble())
        } else {
            _ = try (r.optionalDouble(), r.optionalString(), r.optionalDouble())
        }
        // In `allCases` order, held inline (`Coin.ChangeWindows`).
        for window in Coin.ChangeWindow.allCases { coin.changeWindows[window] = try r.optionalDouble() }
        return coin
    }

    /// The coin whose record starts at `offset` of `bytes` (a blob `skim` accepted).
    static func coin(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Coin {
        var r = CompactReader(bytes: bytes, corrupt: corrupt)
        r.offset = offset
        return try record(&r)
    }

    /// A sparkline as `D` and its points as little-endian doubles (a missing point is NaN and
    /// stays NaN; every point bit for bit).
    static func packedSparkline(_ points: [Double]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(points.count * 8 + 1)
        appendPackedSparkline(points, to: &bytes)
        return bytes
    }

    /// Appends `packedSparkline(points)` to `bytes` (on a little-endian host, one copy of the
    /// points' memory).
    static func appendPackedSparkline(_ points: [Double], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "D"))
        #if _endian(little)
            points.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
            for point in points { withUnsafeBytes(of: point.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        #endif
    }

    /// A sparkline as the JSON text of its price array (`[56795.9281,56736.39,null]`): the form
    /// CoinGecko sends, so that a decoder that keeps sparklines undecoded can save its bytes as
    /// they are and read them back lazily. Each number is written in its shortest round-trip
    /// form (a missing point, NaN, as `null`; −0 keeps its sign).
    static func sparklineJSON(_ points: [Double]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(points.count * 12 + 2)
        for (index, point) in points.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if point.isFinite {
                bytes.append(contentsOf: point.description.utf8)
            } else {
                bytes.append(contentsOf: "null".utf8)
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// The points of a saved sparkline: `packedSparkline`'s form, or a JSON array of numbers and
    /// nulls (`sparklineJSON`'s form, whitespace allowed); nil when the bytes are neither.
    static func sparklinePoints(_ json: UnsafeBufferPointer<UInt8>) -> [Double]? {
        if json.first == UInt8(ascii: "D") {
            guard (json.count - 1) % 8 == 0 else { return nil }
            let count = (json.count - 1) / 8
            let raw = UnsafeRawBufferPointer(json)
            return (0..<count).map { index in
                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 1 + index * 8, as: UInt64.self)))
            }
        }
        var i = 0
        let n = json.count
        func space() { while i < n, json[i] == 0x20 || json[i] == 0x0A || json[i] == 0x0D || json[i] == 0x09 { i += 1 } }
        space()
        guard i < n, json[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        space()
        var points: [Double] = []
        points.reserveCapacity(n / 8)
        if i < n, json[i] == UInt8(ascii: "]") {
            i += 1
        } else {
            while true {
                space()
                if n - i >= 4, json[i] == UInt8(ascii: "n"), json[i + 1] == UInt8(ascii: "u"), json[i + 2] == UInt8(ascii: "l"),
                    json[i + 3] == UInt8(ascii: "l")
                {
                    points.append(.nan)
                    i += 4
                } else {
                    guard let value = JSONNumber.read(json, at: &i) else { return nil }
                    points.append(value)
                }
                space()
                guard i < n else { return nil }
                if json[i] == UInt8(ascii: ",") {
                    i += 1
                } else if json[i] == UInt8(ascii: "]") {
                    i += 1
                    break
                } else {
                    return nil
                }
            }
        }
        space()
        return i == n ? points : nil
    }

    static let corrupt = CoinfolioError(.store, "the saved snapshot is damaged or of an unknown format")
}
