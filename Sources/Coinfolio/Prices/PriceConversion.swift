/// Prices given in another currency (SPEC §17 `price_currency`): a transaction's price, fee and
/// fee price given in currency G are converted into its portfolio's currency P with the
/// transaction's own coin's prices in both currencies at its time (the `price_at` rule, within
/// its UTC day): value × p_P ÷ p_G, in one step rounded half-to-even to 18 fraction digits. The
/// price as given is kept as `original_price`, G as `price_currency`.
enum PriceConversion {
    /// `value` × `portfolioPrice` ÷ `givenPrice`; nil when `givenPrice` is 0 or the result is
    /// beyond the ledger's range.
    static func convert(_ value: ExactDecimal, portfolioPrice: ExactDecimal, givenPrice: ExactDecimal) -> ExactDecimal? {
        ExactDecimal.product(value, portfolioPrice, dividedBy: givenPrice)
    }

    /// `t` ready to store in a portfolio of currency `vs` (`PortfolioEngine.withPriceCurrency`):
    /// without `priceCurrency`, or with the portfolio's own, as it is (`priceCurrency` cleared);
    /// otherwise `originalPrice` takes the price as given and, when `prices` has the coin's prices
    /// in both currencies at its time, `converted`; when not, the price is pending and the fee and
    /// fee price stay in `priceCurrency` until `fill_prices` converts them.
    static func prepared(_ t: Transaction, portfolioCurrency vs: String, prices: StoredPrices) -> Transaction {
        guard let given = t.priceCurrency else { return t }
        var row = t
        guard given != vs else {
            row.priceCurrency = nil
            return row
        }
        if row.originalPrice == nil, row.priceSource != .pending { row.originalPrice = row.price }
        if let portfolioPrice = prices.price(of: t.coinID, in: vs, at: t.timestamp),
            let givenPrice = prices.price(of: t.coinID, in: given, at: t.timestamp),
            row.originalPrice != nil, let converted = converted(row, portfolioPrice: portfolioPrice, givenPrice: givenPrice)
        {
            return converted
        }
        row.price = nil
        row.priceSource = .pending
        row.priceAt = nil
        return row
    }

    /// `t` (with `priceCurrency` set and its price, fee and fee price still in that currency)
    /// converted with the coin's prices in the portfolio's currency and in `priceCurrency`: the
    /// price from `originalPrice`, the fee when it is money (no `feeCoinID`), and the fee price.
    /// Its source is `user` (the user gave the price; the points only gave the rate) and
    /// `price_at` the time of the portfolio-currency point. A row whose price was pending (no
    /// `originalPrice`: only its fee was given in `priceCurrency`) takes the portfolio-currency
    /// point's price and source. Nil when a value cannot be converted.
    static func converted(_ t: Transaction, portfolioPrice: StoredPrice, givenPrice: StoredPrice) -> Transaction? {
        var result = t
        func convert(_ value: ExactDecimal) -> ExactDecimal? {
            Self.convert(value, portfolioPrice: portfolioPrice.price, givenPrice: givenPrice.price)
        }
        if let original = t.originalPrice {
            guard let price = convert(original) else { return nil }
            result.price = price
        } else {
            result.price = portfolioPrice.price
        }
        if t.feeCoinID == nil {
            guard let fee = convert(t.fee) else { return nil }
            result.fee = fee
        }
        if let feePrice = t.feePrice {
            guard let converted = convert(feePrice) else { return nil }
            result.feePrice = converted
        }
        result.priceSource = t.originalPrice == nil ? portfolioPrice.source : .user
        result.priceAt = portfolioPrice.at
        return result
    }
}
