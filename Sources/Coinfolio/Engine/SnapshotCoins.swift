/// A snapshot's coins by position: values already decoded (a refresh or load), or a saved
/// snapshot's compact records decoded on first use (`CompactCoins`). The id, rank and price of
/// a position are read without decoding the coin.
struct SnapshotCoins: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case values([Coin])
        case compact(CompactCoins)
    }

    private let storage: Storage

    init(_ coins: [Coin]) { storage = .values(coins) }

    init(_ compact: CompactCoins) { storage = .compact(compact) }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .values(let coins): return coins.count
        case .compact(let compact): return compact.count
        }
    }

    subscript(position: Int) -> Coin {
        switch storage {
        case .values(let coins): return coins[position]
        case .compact(let compact): return compact.coin(at: position)
        }
    }

    func id(at position: Int) -> String {
        switch storage {
        case .values(let coins): return coins[position].id
        case .compact(let compact): return compact.skimmed.ids[position]
        }
    }

    func currentPrice(at position: Int) -> Double? {
        switch storage {
        case .values(let coins): return coins[position].currentPrice
        case .compact(let compact): return compact.skimmed.prices[position]
        }
    }

    func marketCapRank(at position: Int) -> Int? {
        switch storage {
        case .values(let coins): return coins[position].marketCapRank
        case .compact(let compact): return compact.skimmed.ranks[position]
        }
    }

    /// `sort.listKey` of the coin at `position`, without decoding it.
    func listKey(_ sort: CoinSort, at position: Int) -> Double? {
        switch sort {
        case .rank, .rankReversed, .holdings, .holdingsReversed: return marketCapRank(at: position).map(Double.init)
        case .price, .priceReversed: return currentPrice(at: position)
        }
    }
}
