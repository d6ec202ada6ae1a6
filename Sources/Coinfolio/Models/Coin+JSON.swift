/// The JSON shapes Coinfolio writes (the ABI's output): CoinGecko's snake_case keys, every key
/// present, null for unknown values.
extension Coin {
    /// - Parameter known: false for a held coin with no market row: symbol and name print null.
    func writeJSON(to w: inout JSONWriter, sparkline: Bool = true, known: Bool = true) {
        w.key(.id); w.string(id)
        w.key(.symbol); w.string(known ? symbol : nil)
        w.key(.name); w.string(known ? name : nil)
        w.key(.image); w.string(image)
        w.key(.currentPrice); w.number(currentPrice)
        w.key(.marketCap); w.number(marketCap)
        w.key(.marketCapRank); w.number(marketCapRank)
        w.key(.fullyDilutedValuation); w.number(fullyDilutedValuation)
        w.key(.totalVolume); w.number(totalVolume)
        w.key(.high24h); w.number(high24h)
        w.key(.low24h); w.number(low24h)
        w.key(.priceChange24h); w.number(priceChange24h)
        w.key(.priceChangePercentage24h); w.number(priceChangePercentage24h)
        w.key(.marketCapChange24h); w.number(marketCapChange24h)
        w.key(.marketCapChangePercentage24h); w.number(marketCapChangePercentage24h)
        w.key(.circulatingSupply); w.number(circulatingSupply)
        w.key(.totalSupply); w.number(totalSupply)
        w.key(.maxSupply); w.number(maxSupply)
        w.key(.ath); w.number(ath)
        w.key(.athChangePercentage); w.number(athChangePercentage)
        w.key(.athDate); w.string(athDate)
        w.key(.atl); w.number(atl)
        w.key(.atlChangePercentage); w.number(atlChangePercentage)
        w.key(.atlDate); w.string(atlDate)
        w.key(.roi)
        if let roi {
            w.beginObject()
            w.key(.times); w.number(roi.times)
            w.key(.currency); w.string(roi.currency)
            w.key(.percentage); w.number(roi.percentage)
            w.endObject()
        } else {
            w.null()
        }
        w.key(.lastUpdated); w.string(lastUpdated)
        w.key(.sparklineIn7d)
        if sparkline, let prices = sparklineIn7d {
            w.beginObject()
            w.key(.price); w.beginArray()
            for price in prices { w.number(price) }
            w.endArray()
            w.endObject()
        } else {
            w.null()
        }
        for window in ChangeWindow.allCases {
            w.key(window.jsonKey); w.number(changeWindows[window])
        }
    }
}
