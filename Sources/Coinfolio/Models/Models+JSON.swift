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

extension MarketsPage {
    /// `{"coins":[…],"skipped":[{"index":i,"reason":"…"}],
    /// "warnings":[{"index":i,"id":"…","field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: coins.count * 1024 + 64)
        w.beginObject()
        w.key("coins"); w.beginArray()
        for coin in coins {
            w.beginObject(); coin.writeJSON(to: &w); w.endObject()
        }
        w.endArray()
        w.key("skipped"); w.beginArray()
        for entry in skipped {
            w.beginObject()
            w.key("index"); w.number(entry.index)
            w.key("reason"); w.string(entry.reason)
            w.endObject()
        }
        w.endArray()
        w.key("warnings"); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}

extension MarketData {
    func writeJSON(to w: inout JSONWriter) {
        func map(_ values: [String: Double]?) {
            guard let values else { w.null(); return }
            w.beginObject()
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { w.key(key); w.number(value) }
            w.endObject()
        }
        w.key("total_market_cap"); map(totalMarketCap)
        w.key("total_volume"); map(totalVolume)
        w.key("market_cap_percentage"); map(marketCapPercentage)
        w.key("market_cap_change_percentage_24h_usd"); w.number(marketCapChangePercentage24hUSD)
        w.key("active_cryptocurrencies"); w.number(activeCryptocurrencies)
        w.key("markets"); w.number(markets)
        w.key("updated_at"); w.number(updatedAt)
    }

    /// `{"market_data":{…},"warnings":[{"index":null,"id":null,"field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("market_data"); w.beginObject(); writeJSON(to: &w); w.endObject()
        w.key("warnings"); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}

extension CoinDetail {
    func writeJSON(to w: inout JSONWriter) {
        w.key("id"); w.string(id)
        w.key("symbol"); w.string(symbol)
        w.key("name"); w.string(name)
        w.key("block_time_in_minutes"); w.number(blockTimeInMinutes)
        w.key("hashing_algorithm"); w.string(hashingAlgorithm)
        w.key("description"); w.string(description)
        w.key("homepage"); w.string(homepage)
        w.key("subreddit_url"); w.string(subredditURL)
        w.key("genesis_date"); w.string(genesisDate)
        w.key("categories"); w.beginArray()
        for category in categories { w.string(category) }
        w.endArray()
    }

    /// `{"detail":{…},"warnings":[{"index":null,"id":"…","field":"…","reason":"…"}]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("detail"); w.beginObject(); writeJSON(to: &w); w.endObject()
        w.key("warnings"); warnings.writeJSON(to: &w)
        w.endObject()
        return w.bytes
    }
}

extension Statistic {
    func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key("title"); w.string(title)
        w.key("value"); w.string(value)
        w.key("percentage_change"); w.number(percentageChange)
        if let coverage { w.key("coverage"); w.number(coverage) }
        w.endObject()
    }
}

extension Array where Element == Statistic {
    func writeJSON(to w: inout JSONWriter) {
        w.beginArray()
        for statistic in self { statistic.writeJSON(to: &w) }
        w.endArray()
    }
}

extension Array where Element == DecodeWarning {
    /// `[{"index":i,"id":"…","field":"…","reason":"…"}…]`
    func writeJSON(to w: inout JSONWriter) {
        w.beginArray()
        for warning in self {
            w.beginObject()
            w.key("index"); w.number(warning.index)
            w.key("id"); w.string(warning.id)
            w.key("field"); w.string(warning.field)
            w.key("reason"); w.string(warning.reason)
            w.endObject()
        }
        w.endArray()
    }
}
