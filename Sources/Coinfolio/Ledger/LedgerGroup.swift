/// The rows one call writes together (SPEC §16 "groups"): each transaction followed by its fee
/// row when its fee was paid in a coin.
enum LedgerGroup {
    /// `parents` with, right after each one that has a `fee_coin_id` and a fee above 0, its fee
    /// row: kind `fee`, the same portfolio, time, note and group, coin `fee_coin_id`, amount `fee`, and
    /// the price `fee_price`; else the parent's own price when the fee is in the parent's coin;
    /// else the fee coin's stored price at that time; else pending. A price taken from the parent
    /// carries its `price_currency` (SPEC §17: converted with the fee coin's own prices). A fee row's external id is
    /// its parent's with `#n` (its place in the group, from 2), as a trade's legs are numbered.
    static func rows(_ parents: [Transaction], prices: StoredPrices, vsCurrency: String) -> [Transaction] {
        // One row without a fee in a coin is its own group (most rows of a file): no copy.
        if parents.count == 1, parents[0].feeCoinID == nil || parents[0].fee.isZero { return parents }
        var rows: [Transaction] = []
        rows.reserveCapacity(parents.count * 2)
        let groupExternalID = parents.first?.externalID
        for parent in parents {
            rows.append(parent)
            guard let feeCoinID = parent.feeCoinID, !parent.fee.isZero else { continue }
            var row = Transaction(
                portfolio: parent.portfolio, coinID: feeCoinID, kind: .fee, amount: parent.fee, timestamp: parent.timestamp,
                note: parent.note, groupID: parent.groupID)
            if let feePrice = parent.feePrice {
                (row.price, row.priceSource, row.priceCurrency) = (feePrice, .user, parent.priceCurrency)
            } else if feeCoinID.utf8.elementsEqual(parent.coinID.utf8), let price = parent.price {
                (row.price, row.priceSource) = (price, parent.priceSource)
                (row.priceAt, row.priceCurrency) = (parent.priceAt, parent.priceCurrency)
            } else if let point = prices.price(of: feeCoinID, in: vsCurrency, at: parent.timestamp) {
                (row.price, row.priceSource, row.priceAt) = (point.price, point.source, point.at)
            }
            rows.append(row)
        }
        if let groupExternalID {
            // The first row keeps the id; the others are numbered by their place.
            for index in rows.indices.dropFirst() { rows[index].externalID = "\(groupExternalID)#\(index + 1)" }
        }
        return rows
    }
}
