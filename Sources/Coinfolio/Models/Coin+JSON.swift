/// The JSON shapes Coinfolio writes (the ABI's output): CoinGecko's snake_case keys, every key
/// present, null for unknown values.
extension Coin {
    /// - Parameter known: false for a held coin with no market row: symbol and name print null.
    func writeJSON(to w: inout JSONWriter, sparkline: Bool = true, known: Bool = true) {
        w.key("id"); w.string(id)
        w.key("symbol"); w.string(known ? symbol : nil)
        w.key("name"); w.string(known ? name : nil)
        w.key("image"); w.string(image)
        w.key("current_price"); w.number(currentPrice)
        w.key("market_cap"); w.number(marketCap)
        w.key("market_cap_rank"); w.number(marketCapRank)
        w.key("fully_diluted_valuation"); w.number(fullyDilutedValuation)
        w.key("total_volume"); w.number(totalVolume)
        w.key("high_24h"); w.number(high24h)
        w.key("low_24h"); w.number(low24h)
        w.key("price_change_24h"); w.number(priceChange24h)
        w.key("price_change_percentage_24h"); w.number(priceChangePercentage24h)
        w.key("market_cap_change_24h"); w.number(marketCapChange24h)
        w.key("market_cap_change_percentage_24h"); w.number(marketCapChangePercentage24h)
        w.key("circulating_supply"); w.number(circulatingSupply)
        w.key("total_supply"); w.number(totalSupply)
        w.key("max_supply"); w.number(maxSupply)
        w.key("ath"); w.number(ath)
        w.key("ath_change_percentage"); w.number(athChangePercentage)
        w.key("ath_date"); w.string(athDate)
        w.key("atl"); w.number(atl)
        w.key("atl_change_percentage"); w.number(atlChangePercentage)
        w.key("atl_date"); w.string(atlDate)
        w.key("roi")
        if let roi {
            w.beginObject()
            w.key("times"); w.number(roi.times)
            w.key("currency"); w.string(roi.currency)
            w.key("percentage"); w.number(roi.percentage)
            w.endObject()
        } else {
            w.null()
        }
        w.key("last_updated"); w.string(lastUpdated)
        w.key("sparkline_in_7d")
        if sparkline, let prices = sparklineIn7d {
            w.beginObject()
            w.key("price"); w.beginArray()
            for price in prices { w.number(price) }
            w.endArray()
            w.endObject()
        } else {
            w.null()
        }
        for window in ChangeWindow.allCases {
            w.key(window.key); w.number(priceChangePercentageInCurrency[window])
        }
    }
}
