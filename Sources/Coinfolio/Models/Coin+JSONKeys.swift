/// A coin's JSON keys (CoinGecko's `/coins/markets` spelling), shared by decoding and writing.
extension Coin {
    /// Every key of a coin's JSON, in the order the writer writes them: the one list the decoders
    /// (`init(from:)`, the simdjson scanner) and the writer (`writeJSON`) read. Spelled as
    /// CoinGecko spells them. The C++ scanner's list, `CF_SJ_COIN_FIELDS` in `CSimdJSON.h`, is
    /// this list in this order (`OnePassDecodingTests` reads both and compares).
    enum JSONKey: String, CodingKey, WireKeys {
        case id, symbol, name, image
        case currentPrice = "current_price"
        case marketCap = "market_cap"
        case marketCapRank = "market_cap_rank"
        case fullyDilutedValuation = "fully_diluted_valuation"
        case totalVolume = "total_volume"
        case high24h = "high_24h"
        case low24h = "low_24h"
        case priceChange24h = "price_change_24h"
        case priceChangePercentage24h = "price_change_percentage_24h"
        case marketCapChange24h = "market_cap_change_24h"
        case marketCapChangePercentage24h = "market_cap_change_percentage_24h"
        case circulatingSupply = "circulating_supply"
        case totalSupply = "total_supply"
        case maxSupply = "max_supply"
        case ath
        case athChangePercentage = "ath_change_percentage"
        case athDate = "ath_date"
        case atl
        case atlChangePercentage = "atl_change_percentage"
        case atlDate = "atl_date"
        case roi
        case lastUpdated = "last_updated"
        case sparklineIn7d = "sparkline_in_7d"
        case pcp1h = "price_change_percentage_1h_in_currency"
        case pcp24h = "price_change_percentage_24h_in_currency"
        case pcp7d = "price_change_percentage_7d_in_currency"
        case pcp14d = "price_change_percentage_14d_in_currency"
        case pcp30d = "price_change_percentage_30d_in_currency"
        case pcp200d = "price_change_percentage_200d_in_currency"
        case pcp1y = "price_change_percentage_1y_in_currency"
    }
}

extension Coin.ROI {
    /// The keys of `roi`.
    enum JSONKey: String, CodingKey, WireKeys { case times, currency, percentage }
}

extension Coin {
    /// The key of `sparkline_in_7d`'s one member.
    enum SparklineKey: String, CodingKey, WireKeys { case price }
}

extension Coin.ChangeWindow {
    /// This window's key, `price_change_percentage_<window>_in_currency`.
    var jsonKey: Coin.JSONKey {
        switch self {
        case .h1: return .pcp1h
        case .h24: return .pcp24h
        case .d7: return .pcp7d
        case .d14: return .pcp14d
        case .d30: return .pcp30d
        case .d200: return .pcp200d
        case .y1: return .pcp1y
        }
    }
}

extension JSONWriter {
    // A coin's writer names its keys `.currentPrice`, not `Coin.JSONKey.currentPrice`.
    /// Writes one of a coin's keys.
    mutating func key(_ key: Coin.JSONKey) { self.key(named: key.rawValue) }
    /// Writes one of `roi`'s keys.
    mutating func key(_ key: Coin.ROI.JSONKey) { self.key(named: key.rawValue) }
    /// Writes `sparkline_in_7d`'s key.
    mutating func key(_ key: Coin.SparklineKey) { self.key(named: key.rawValue) }
}
