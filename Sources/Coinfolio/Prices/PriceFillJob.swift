/// One unit of `fill_prices`' work (SPEC §17): the pending rows that take their price together.
///
/// - a plain row (a buy, sell, income or fee row): its coin's price in its portfolio's currency;
/// - a row whose price, fee or fee price was given in another currency (`price_currency`): its
///   coin's prices in both currencies, converted (`PriceConversion`);
/// - a trade (a pending sell and a pending buy of one group, same portfolio and time): one value
///   for both legs, from the received coin's price, else the sent coin's (SPEC §16, `Trade`).
struct PriceFillJob {
    /// How the rows take their price.
    enum Shape: Equatable {
        case plain
        case conversion
        /// `row` is the sell leg; `buy` the index of the buy leg.
        case trade(buy: Int)
    }

    /// The row (for a trade, the sell leg), an index into the pending rows.
    var row: Int
    /// The portfolio's quote currency.
    var vsCurrency: String
    var shape: Shape = .plain

    /// One price a job waits for, and the planner's form of it.
    struct Need: Hashable {
        var key: PriceBook.Key
        var time: Int64
        var planned: FillPlanner.Need { FillPlanner.Need(coinID: key.coinID, vsCurrency: key.vsCurrency, time: time) }
    }

    /// The pending rows as jobs: conversions marked, and the two legs of each pending trade made one
    /// job (the buy leg's own job removed).
    static func jobs(_ rows: [Transaction], currency: (Transaction) throws -> String) rethrows -> [PriceFillJob] {
        var jobs: [PriceFillJob] = []
        var legs: [String: (sell: Int?, buy: Int?, count: Int)] = [:]
        for (index, row) in rows.enumerated() {
            var job = PriceFillJob(row: index, vsCurrency: try currency(row))
            if row.priceCurrency != nil { job.shape = .conversion }
            jobs.append(job)
            if let group = row.groupID, row.priceCurrency == nil, row.kind == .sell || row.kind == .buy {
                var entry = legs[group] ?? (nil, nil, 0)
                if row.kind == .sell { entry.sell = index } else { entry.buy = index }
                entry.count += 1
                legs[group] = entry
            }
        }
        var merged: Set<Int> = []
        for (_, entry) in legs where entry.count == 2 {
            guard let sell = entry.sell, let buy = entry.buy, rows[sell].timestamp == rows[buy].timestamp,
                rows[sell].portfolio == rows[buy].portfolio
            else { continue }
            jobs[sell].shape = .trade(buy: buy)
            merged.insert(buy)
        }
        return jobs.filter { !merged.contains($0.row) }
    }

    /// The rows this job prices.
    var rows: [Int] {
        if case .trade(let buy) = shape { return [row, buy] }
        return [row]
    }

    /// Every coin and currency the job may look up.
    func keys(_ rows: [Transaction]) -> [PriceBook.Key] {
        let own = PriceBook.Key(coinID: rows[row].coinID, vsCurrency: vsCurrency)
        switch shape {
        case .plain: return [own]
        case .conversion: return [own, PriceBook.Key(coinID: rows[row].coinID, vsCurrency: rows[row].priceCurrency ?? vsCurrency)]
        case .trade(let buy): return [PriceBook.Key(coinID: rows[buy].coinID, vsCurrency: vsCurrency), own]
        }
    }

    /// The prices the job asks CoinGecko for in `round`: every key's in round 0, except a trade's
    /// sent coin, asked in round 1 only when the received coin had no point or is unknown.
    func needs(round: Int, _ rows: [Transaction], gaps: [PriceGap]) -> [Need] {
        let time = rows[row].timestamp
        let keys = keys(rows)
        guard case .trade = shape else { return round == 0 ? keys.map { Need(key: $0, time: time) } : [] }
        if round == 0 { return [Need(key: keys[0], time: time)] }
        guard let last = gaps.last, last == .noPoint || last == .unknownCoin else { return [] }
        return [Need(key: keys[1], time: time)]
    }

    /// The job's rows with their price (source, `price_at`; a conversion's fee and fee price too),
    /// from `prices`; nil while a price it needs is missing.
    func priced(_ rows: [Transaction], _ prices: StoredPrices) -> [Transaction]? {
        let t = rows[row]
        switch shape {
        case .plain:
            guard let found = prices.price(of: t.coinID, in: vsCurrency, at: t.timestamp) else { return nil }
            var filled = t
            (filled.price, filled.priceSource, filled.priceAt) = (found.price, found.source, found.at)
            return [filled]
        case .conversion:
            guard let given = t.priceCurrency, let portfolioPrice = prices.price(of: t.coinID, in: vsCurrency, at: t.timestamp),
                let givenPrice = prices.price(of: t.coinID, in: given, at: t.timestamp),
                let converted = PriceConversion.converted(t, portfolioPrice: portfolioPrice, givenPrice: givenPrice)
            else { return nil }
            return [converted]
        case .trade(let buyIndex):
            let buy = rows[buyIndex]
            let trade = Trade(
                portfolio: t.portfolio, timestamp: t.timestamp, sent: Trade.Side(coinID: t.coinID, amount: t.amount),
                received: Trade.Side(coinID: buy.coinID, amount: buy.amount))
            guard let legs = try? trade.legs(prices: prices, vsCurrency: vsCurrency), legs.count == 2, legs[0].price != nil,
                legs[1].price != nil
            else { return nil }
            var (sell, bought) = (t, buy)
            (sell.price, sell.priceSource, sell.priceAt) = (legs[0].price, legs[0].priceSource, legs[0].priceAt)
            (bought.price, bought.priceSource, bought.priceAt) = (legs[1].price, legs[1].priceSource, legs[1].priceAt)
            return [sell, bought]
        }
    }
}
