extension Coin {
    /// The coin's seventeen optional doubles and its rank, held as raw values and a presence mask
    /// (`currentPrice` … `atlChangePercentage` and `marketCapRank` keep their names and types,
    /// read from here). As `Double?` each took 16 bytes; a 100,000-coin load moved every `Coin`
    /// into fresh pages, and those page faults and copies were about a tenth of it (issue 30).
    ///
    /// An absent slot holds 0, so the synthesized equality and hash see only the values present
    /// (as the optionals' did; a NaN value is unequal to itself in both).
    struct Numbers: Hashable, Sendable {
        private var currentPrice = 0.0, marketCap = 0.0, fullyDilutedValuation = 0.0, totalVolume = 0.0
        private var high24h = 0.0, low24h = 0.0, priceChange24h = 0.0, priceChangePercentage24h = 0.0
        private var marketCapChange24h = 0.0, marketCapChangePercentage24h = 0.0
        private var circulatingSupply = 0.0, totalSupply = 0.0, maxSupply = 0.0
        private var ath = 0.0, athChangePercentage = 0.0, atl = 0.0, atlChangePercentage = 0.0
        private var marketCapRank = 0
        /// Bit `field.rawValue` set for each value present (bit `Field.rank` for the rank).
        private var present: UInt32 = 0

        /// The doubles' slots, in the order they are held.
        enum Field: Int {
            case currentPrice, marketCap, fullyDilutedValuation, totalVolume, high24h, low24h
            case priceChange24h, priceChangePercentage24h, marketCapChange24h, marketCapChangePercentage24h
            case circulatingSupply, totalSupply, maxSupply, ath, athChangePercentage, atl, atlChangePercentage
        }

        /// The presence bit of `marketCapRank`.
        private static let rankBit: UInt32 = 1 << 17

        init() {}

        /// The seventeen doubles at once from a decoder's record (`MarketsDecoder`): `values` holds
        /// `current_price`, `market_cap`, `market_cap_rank`, then the other fields in `Field`'s
        /// order through `atl_change_percentage`, each present when its bit of `present` is set
        /// (bit i for values[i]). The rank's slot is skipped (set `rank` after checking it).
        @inline(__always) init(record values: UnsafePointer<Double>, present mask: UInt64) {
            @inline(__always) func value(_ slot: Int) -> Double { mask & (1 << UInt64(slot)) != 0 ? values[slot] : 0 }
            currentPrice = value(0)
            marketCap = value(1)
            fullyDilutedValuation = value(3)
            totalVolume = value(4)
            high24h = value(5)
            low24h = value(6)
            priceChange24h = value(7)
            priceChangePercentage24h = value(8)
            marketCapChange24h = value(9)
            marketCapChangePercentage24h = value(10)
            circulatingSupply = value(11)
            totalSupply = value(12)
            maxSupply = value(13)
            ath = value(14)
            athChangePercentage = value(15)
            atl = value(16)
            atlChangePercentage = value(17)
            // Bits 0-1 stay, bits 3-17 move down one (the rank's bit 2 dropped).
            present = UInt32(truncatingIfNeeded: (mask & 0b11) | ((mask >> 1) & (0x7FFF << 2)))
        }

        /// The value of `field`, nil when absent.
        subscript(field: Field) -> Double? {
            // Inlined: every read and write names its field, so the switch folds away.
            @inline(__always) get {
                guard present & (1 << UInt32(field.rawValue)) != 0 else { return nil }
                switch field {
                case .currentPrice: return currentPrice
                case .marketCap: return marketCap
                case .fullyDilutedValuation: return fullyDilutedValuation
                case .totalVolume: return totalVolume
                case .high24h: return high24h
                case .low24h: return low24h
                case .priceChange24h: return priceChange24h
                case .priceChangePercentage24h: return priceChangePercentage24h
                case .marketCapChange24h: return marketCapChange24h
                case .marketCapChangePercentage24h: return marketCapChangePercentage24h
                case .circulatingSupply: return circulatingSupply
                case .totalSupply: return totalSupply
                case .maxSupply: return maxSupply
                case .ath: return ath
                case .athChangePercentage: return athChangePercentage
                case .atl: return atl
                case .atlChangePercentage: return atlChangePercentage
                }
            }
            @inline(__always) set {
                let value = newValue ?? 0
                switch field {
                case .currentPrice: currentPrice = value
                case .marketCap: marketCap = value
                case .fullyDilutedValuation: fullyDilutedValuation = value
                case .totalVolume: totalVolume = value
                case .high24h: high24h = value
                case .low24h: low24h = value
                case .priceChange24h: priceChange24h = value
                case .priceChangePercentage24h: priceChangePercentage24h = value
                case .marketCapChange24h: marketCapChange24h = value
                case .marketCapChangePercentage24h: marketCapChangePercentage24h = value
                case .circulatingSupply: circulatingSupply = value
                case .totalSupply: totalSupply = value
                case .maxSupply: maxSupply = value
                case .ath: ath = value
                case .athChangePercentage: athChangePercentage = value
                case .atl: atl = value
                case .atlChangePercentage: atlChangePercentage = value
                }
                let bit: UInt32 = 1 << UInt32(field.rawValue)
                if newValue == nil { present &= ~bit } else { present |= bit }
            }
        }

        /// `market_cap_rank`, nil when absent.
        var rank: Int? {
            @inline(__always) get { present & Self.rankBit != 0 ? marketCapRank : nil }
            @inline(__always) set {
                marketCapRank = newValue ?? 0
                if newValue == nil { present &= ~Self.rankBit } else { present |= Self.rankBit }
            }
        }
    }
}
