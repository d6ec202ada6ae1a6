/// The rows one call writes together (SPEC §16 "groups"): each transaction followed by its fee
/// row when its fee was paid in a coin.
enum LedgerGroup {
    /// `parents` with, right after each one that has a `fee_coin_id` and a fee above 0, its fee
    /// row: kind `fee`, the same portfolio, time, note and group, coin `fee_coin_id`, amount `fee`, and
    /// the price `fee_price`; else the fee coin's stored price at that time (SPEC §16: §17's rule
    /// without its fetch step); else — where §16 would leave it pending — the price the call
    /// itself gives that coin: the parent's own when the fee is in the parent's coin, else another
    /// row of the call in that coin (a trade's fee in the coin it sends takes the sell leg's
    /// price, as Koinly values it); else pending. A price taken from a row carries its
    /// `price_currency` (SPEC §17: converted with the fee coin's own prices). A fee row's external id is
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
            } else if let point = prices.price(of: feeCoinID, in: vsCurrency, at: parent.timestamp) {
                (row.price, row.priceSource, row.priceAt) = (point.price, point.source, point.at)
            } else if let priced = Self.pricing(feeCoinID, parent: parent, among: parents), let price = priced.price {
                (row.price, row.priceSource) = (price, priced.priceSource)
                (row.priceAt, row.priceCurrency) = (priced.priceAt, priced.priceCurrency)
            }
            rows.append(row)
        }
        if let groupExternalID {
            // The first row keeps the id; the others are numbered by their place.
            // `"\(groupExternalID)#\(index + 1)"`, written once (the interpolation appended twice).
            for index in rows.indices.dropFirst() {
                rows[index].externalID = String(joining: groupExternalID, String(index + 1), by: UInt8(ascii: "#"))
            }
        }
        return rows
    }

    /// The row whose price a fee in `coin` takes: the parent when it is in that coin, else the
    /// first priced row of the call in that coin; nil when none is.
    private static func pricing(_ coin: String, parent: Transaction, among parents: [Transaction]) -> Transaction? {
        if coin.utf8.elementsEqual(parent.coinID.utf8) { return parent.price == nil ? nil : parent }
        return parents.first { $0.price != nil && $0.kind != .fee && coin.utf8.elementsEqual($0.coinID.utf8) }
    }
}
