import Foundation
import Synchronization

/// A saved snapshot's coins, each decoded from the compact blob on first use (opening an engine
/// on 15,000 coins builds none of them: `home` shows 20 and prices the held ones). The id, rank
/// and price of every coin are read at open (`SnapshotCodec.skim`), for the index and the orders.
///
/// One instance per distinct blob in the process (`shared(blob:)`): a service holding an engine per
/// user opens the same saved snapshot many times, and each open used to keep its own copy of the
/// blob, the skimmed ids, ranks and prices, and the coins decoded so far (about 145 KB for 250
/// coins with sparklines). Engines whose blobs are byte-for-byte equal now share one, whatever the
/// file or owner it was read from; it is freed when the last engine holding it lets it go.
final class CompactCoins: Sendable {
    /// The saved records.
    let blob: Data
    let skimmed: SnapshotCodec.Skimmed
    /// Coins decoded so far, by position.
    private let decoded: Mutex<[Int: Coin]>

    /// - Throws: `.store` (`SnapshotCodec.corrupt`) for a truncated or foreign blob.
    private init(blob: Data) throws {
        self.blob = blob
        skimmed = try blob.withUnsafeBytes { try SnapshotCodec.skim($0) }
        decoded = Mutex([:])
    }

    private init(blob: Data, skimmed: SnapshotCodec.Skimmed, decoded: [Int: Coin]) {
        self.blob = blob
        self.skimmed = skimmed
        self.decoded = Mutex(decoded)
    }

    /// The records of `blob`: the instance another engine of this process already holds for an
    /// equal blob, or a new one (then shared with later opens).
    /// - Throws: `.store` (`SnapshotCodec.corrupt`) for a truncated or foreign blob.
    static func shared(blob: Data) throws -> CompactCoins {
        let key = key(blob)
        if let found = lookUp(blob, key: key) { return found }
        return register(try CompactCoins(blob: blob), key: key)
    }

    /// These coins with the ones at `changed`'s positions replaced (a price update): the other
    /// records' bytes are copied, and the coins decoded so far stay decoded. Shared with later
    /// opens of the same bytes, like `shared(blob:)`'s.
    func replacing(_ changed: [Int: Coin]) -> CompactCoins {
        let (bytes, skim) = blob.withUnsafeBytes { SnapshotCodec.replacing(changed, in: $0, skimmed: skimmed) }
        var kept = decoded.withLock { $0 }
        for (position, coin) in changed where position < count { kept[position] = coin }
        let replaced = Data(bytes)
        let key = Self.key(replaced)
        if let found = Self.lookUp(replaced, key: key) { return found }
        return Self.register(CompactCoins(blob: replaced, skimmed: skim, decoded: kept), key: key)
    }

    /// The instances engines hold, by a hash of their blob (weakly: an engine that lets its
    /// snapshot go frees it). A bucket's dead entries are dropped when the bucket is next added to.
    private static let open = Mutex<[Int: [Entry]]>([:])

    private struct Entry: Sendable {
        weak var coins: CompactCoins?
    }

    /// A blob's bucket: its length and up to 4 KB sampled from its start, middle and end (two
    /// snapshots' blobs differ there: every record carries prices). Hashing the whole blob (a
    /// few MB for 15,000 coins) was a fifth of an engine's open; the bucket is only a first
    /// sieve, since `lookUp` and `register` compare the blobs' bytes in full.
    private static func key(_ blob: Data) -> Int {
        var hasher = Hasher()
        hasher.combine(blob.count)
        blob.withUnsafeBytes { bytes in
            let piece = 1_365
            if bytes.count <= 3 * piece {
                hasher.combine(bytes: bytes)
            } else {
                let middle = (bytes.count - piece) / 2
                for start in [0, middle, bytes.count - piece] {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<start + piece]))
                }
            }
        }
        return hasher.finalize()
    }

    /// The instance held for a blob equal to `blob` (whose `key` is `key`), if any.
    private static func lookUp(_ blob: Data, key: Int) -> CompactCoins? {
        open.withLock { $0[key]?.lazy.compactMap(\.coins).first { $0.blob == blob } }
    }

    /// `made` (whose blob's `key` is `key`), now shared — or the instance another thread
    /// registered for the same blob meanwhile.
    private static func register(_ made: CompactCoins, key: Int) -> CompactCoins {
        open.withLock { open in
            // Another thread may have made one meanwhile: keep the first, drop entries gone.
            var bucket = (open[key] ?? []).filter { $0.coins != nil }
            if let first = bucket.lazy.compactMap(\.coins).first(where: { $0.blob == made.blob }) { return first }
            bucket.append(Entry(coins: made))
            open[key] = bucket
            return made
        }
    }

    var count: Int { skimmed.offsets.count }

    /// The coin at `position`, decoded once.
    func coin(at position: Int) -> Coin {
        if let coin = decoded.withLock({ $0[position] }) { return coin }
        // `skim` checked every field of every record, so this read cannot fail; the fallback
        // (the id alone) is never reached.
        let coin =
            (try? blob.withUnsafeBytes { try SnapshotCodec.coin($0, at: skimmed.offsets[position]) })
            ?? Coin(id: skimmed.ids[position], symbol: "", name: "")
        decoded.withLock { $0[position] = coin }
        return coin
    }
}
