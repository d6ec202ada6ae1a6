import Foundation
import Synchronization

/// A saved snapshot's coins, each decoded from the compact blob on first use (opening an engine
/// on 15,000 coins builds none of them: `home` shows 20 and prices the held ones). The id, rank
/// and price of every coin are read at open (`SnapshotCodec.skim`), for the index and the orders.
final class CompactCoins: Sendable {
    /// The saved coins (`SnapshotCodec`'s form).
    let blob: Data
    let skimmed: SnapshotCodec.Skimmed
    /// Coins decoded so far, by position.
    private let decoded: Mutex<[Int: Coin]>

    /// - Throws: `.store` (`SnapshotCodec.corrupt`) for a truncated or foreign blob.
    init(blob: Data) throws {
        self.blob = blob
        skimmed = try blob.withUnsafeBytes { try SnapshotCodec.skim($0) }
        decoded = Mutex([:])
    }

    private init(blob: Data, skimmed: SnapshotCodec.Skimmed, decoded: [Int: Coin]) {
        self.blob = blob
        self.skimmed = skimmed
        self.decoded = Mutex(decoded)
    }

    /// These coins with the ones at `changed`'s positions replaced (a price update): the other
    /// records' bytes are copied, and the coins decoded so far stay decoded.
    func replacing(_ changed: [Int: Coin]) -> CompactCoins {
        let (bytes, skim) = blob.withUnsafeBytes { SnapshotCodec.replacing(changed, in: $0, skimmed: skimmed) }
        var kept = decoded.withLock { $0 }
        for (position, coin) in changed where position < count { kept[position] = coin }
        return CompactCoins(blob: Data(bytes), skimmed: skim, decoded: kept)
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
