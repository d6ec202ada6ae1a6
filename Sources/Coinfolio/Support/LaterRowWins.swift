/// The merge rule for market rows (SPEC: one row per coin id): a later row with the same id
/// replaces the earlier one in the earlier one's place; a new id is appended. Every market row
/// decoded goes through it once, in `MarketRows` (one per body, or one for a whole refresh).
struct LaterRowWins<Row> {
    /// The merged rows, in the order their ids were first seen.
    private(set) var rows: [Row] = []
    /// Each id's position in `rows` (a snapshot's id index is this dictionary, not built again).
    private(set) var positionByID: [String: Int] = [:]

    init(reservingCapacity capacity: Int = 0) {
        rows.reserveCapacity(capacity)
        positionByID.reserveCapacity(capacity)
    }

    /// Makes room for `capacity` rows in all (a large block of rows on 2 MB pages, `HugePages`:
    /// a 100,000-coin load's 4 KB page faults on them were about a tenth of it).
    mutating func reserveCapacity(_ capacity: Int) {
        HugePages.reserve(&rows, capacity)
        positionByID.reserveCapacity(capacity)
    }

    /// Adds `row` under `id`.
    /// - Returns: the position of the row it replaced, or nil when `id` is new (appended).
    @discardableResult
    mutating func add(_ row: consuming Row, id: String) -> Int? {
        // One lookup for a new id (the usual case): the id is entered at the end's position, and
        // an id seen before gets its earlier position back.
        if let earlier = positionByID.updateValue(rows.count, forKey: id) {
            positionByID[id] = earlier
            rows[earlier] = row
            return earlier
        }
        rows.append(row)
        return nil
    }
}

extension LaterRowWins {
    /// Keeps the first `count` rows and forgets the ids of the others.
    mutating func keepFirst(_ count: Int) {
        guard count < rows.count else { return }
        rows.removeLast(rows.count - count)
        positionByID = positionByID.filter { $0.value < count }
    }
}

extension LaterRowWins where Row == Coin {
    /// Adds `coin` under its id; see `add(_:id:)`.
    @discardableResult
    mutating func add(_ coin: Coin) -> Int? { add(coin, id: coin.id) }
}
