/// Prices given in another currency (SPEC §17): converted when the transaction is written, from
/// stored prices only (a ledger write never sends a request), else pending until `fill_prices`.
extension PortfolioEngine {
    /// `t` ready to store in a portfolio of currency `vs`: without `priceCurrency`, or with the
    /// portfolio's own, as it is (`priceCurrency` cleared); otherwise `originalPrice` takes the
    /// price as given and, when the coin's stored prices in both currencies at its time exist
    /// (manual points, stored CoinGecko points, the snapshot within an hour: the rule without its
    /// fetch step), the price, the fee (money, not coin units) and the fee price are converted
    /// (`PriceConversion`); when not, the price is pending and the fee and fee price stay in
    /// `priceCurrency` until `fill_prices` converts them. A row without a price (already pending)
    /// keeps `priceCurrency` so that its fee is converted with its price. `prices`: where the
    /// stored prices are read (nil: `storedPrices`; an import passes its write's).
    func withPriceCurrency(_ t: Transaction, portfolioCurrency vs: String, prices: StoredPrices? = nil) -> Transaction {
        guard t.priceCurrency != nil else { return t }
        return PriceConversion.prepared(t, portfolioCurrency: vs, prices: prices ?? storedPrices)
    }
}
