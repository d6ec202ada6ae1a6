/// A decoded `/coins/markets` body: the coins kept and the elements skipped.
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

    /// A field of a kept row that read as null (or "") because of its type, or was missing where
    /// it is required (SPEC §10): `{"index","id","field","reason"}`.
    public struct Warning: Hashable, Sendable {
        /// The row's position in the body's array, from 0.
        public var index: Int
        /// The row's coin id.
        public var id: String
        /// The JSON key (`current_price`, `symbol`, `roi.times`, `sparkline_in_7d`).
        public var field: String
        /// Why ("not a number", "a string that is not a number", "not a string", "missing").
        public var reason: String

        /// A warning about `field` of the row at `index`.
        public init(index: Int, id: String, field: String, reason: String) {
            self.index = index
            self.id = id
            self.field = field
            self.reason = reason
        }
    }

    /// The coins, in body order, never the same id twice.
    public var coins: [Coin]
    /// The elements left out.
    public var skipped: [Skipped]
    /// How many elements the body's array held (coins kept, skipped, and duplicates replaced).
    public var elementCount: Int
    /// Fields of kept rows that read as null because of their type, in body order.
    public var warnings: [Warning]

    /// A page of coins (ids unique) and the skipped elements.
    public init(coins: [Coin], skipped: [Skipped] = [], elementCount: Int? = nil, warnings: [Warning] = []) {
        self.coins = coins
        self.skipped = skipped
        self.elementCount = elementCount ?? coins.count + skipped.count
        self.warnings = warnings
    }
}
