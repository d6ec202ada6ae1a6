extension Coin {
    /// The seven `price_change_percentage_<window>_in_currency` values, held inline in the coin
    /// (`priceChangePercentageInCurrency` is this as a dictionary). A dictionary per coin was a
    /// heap allocation and seven hashed inserts for every decoded row, and a free for every coin
    /// of a replaced snapshot: about a tenth of loading 100,000 coins (issue 30).
    ///
    /// An absent window's slot holds 0, so the synthesized equality and hash see only the
    /// windows present (as the dictionary's did; a NaN value is unequal to itself in both).
    struct ChangeWindows: Hashable, Sendable {
        private var h1 = 0.0, h24 = 0.0, d7 = 0.0, d14 = 0.0, d30 = 0.0, d200 = 0.0, y1 = 0.0
        /// Bit `window.slot` set for each window present.
        private var present: UInt8 = 0

        init() {}

        init(_ dictionary: [ChangeWindow: Double]) {
            for (window, value) in dictionary { self[window] = value }
        }

        /// The value of `window`, nil when CoinGecko sent none.
        subscript(window: ChangeWindow) -> Double? {
            get {
                guard present & (1 << window.slot) != 0 else { return nil }
                switch window {
                case .h1: return h1
                case .h24: return h24
                case .d7: return d7
                case .d14: return d14
                case .d30: return d30
                case .d200: return d200
                case .y1: return y1
                }
            }
            set {
                let value = newValue ?? 0
                switch window {
                case .h1: h1 = value
                case .h24: h24 = value
                case .d7: d7 = value
                case .d14: d14 = value
                case .d30: d30 = value
                case .d200: d200 = value
                case .y1: y1 = value
                }
                if newValue == nil { present &= ~(1 << window.slot) } else { present |= 1 << window.slot }
            }
        }

        /// The windows present, as `priceChangePercentageInCurrency` gives them.
        var dictionary: [ChangeWindow: Double] {
            var byWindow = [ChangeWindow: Double](minimumCapacity: present.nonzeroBitCount)
            for window in ChangeWindow.allCases {
                if let value = self[window] { byWindow[window] = value }
            }
            return byWindow
        }
    }
}

extension Coin.ChangeWindow {
    /// The window's place in `allCases` (its bit in `Coin.ChangeWindows`).
    var slot: UInt8 {
        switch self {
        case .h1: return 0
        case .h24: return 1
        case .d7: return 2
        case .d14: return 3
        case .d30: return 4
        case .d200: return 5
        case .y1: return 6
        }
    }
}
