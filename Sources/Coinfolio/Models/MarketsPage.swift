/// A decoded `/coins/markets` body: the coins kept, the elements skipped, and the fields of kept
/// coins read as null because of their type (`warnings`).
public struct MarketsPage: Hashable, Sendable {
    /// An element that could not be used, and why.
    public struct Skipped: Hashable, Sendable {
        /// The element's position in the body's array, from 0.
        public var index: Int
        /// Why it was skipped ("not an object", "missing id", "duplicate id …").
        public var reason: String

        /// An element left out at `index` for `reason`.
        public init(index: Int, reason: String) {
            self.index = index
            self.reason = reason
        }
    }

    /// The coins, in body order, never the same id twice.
    public var coins: [Coin]
    /// The elements left out.
    public var skipped: [Skipped]
    /// How many elements the body's array held (coins kept, skipped, and duplicates replaced).
    public var elementCount: Int
    /// Fields of the kept coins read as null (or `""`) because of their type, by element index
    /// then in key order; see `DecodeWarning`.
    public var warnings: [DecodeWarning]

    /// A page of coins (ids unique), the skipped elements and the warnings about kept ones.
    public init(coins: [Coin], skipped: [Skipped] = [], elementCount: Int? = nil, warnings: [DecodeWarning] = []) {
        self.coins = coins
        self.skipped = skipped
        self.elementCount = elementCount ?? coins.count + skipped.count
        self.warnings = warnings
    }
}
