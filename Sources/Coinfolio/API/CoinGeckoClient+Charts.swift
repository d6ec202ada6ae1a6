extension CoinGeckoClient {
    /// `GET /coins/{id}/market_chart?vs_currency=…&days=N|max[&interval=daily]`: prices, market
    /// caps and volumes over time (see `CoinGeckoBody.marketChart` for gaps and empty series).
    ///
    /// The client sends `days` as given; the engine clamps to what the plan allows. Beyond 365
    /// days on the public and demo plans CoinGecko answers 401 with error code 10012, which is
    /// `.unauthorized` with `details.error_code` 10012, `details.reason` `"history_limit"` and a
    /// message saying so.
    /// - Parameters:
    ///   - id: a coin id (`CoinID` rule), percent-encoded as one path segment.
    ///   - request: currency, days and interval.
    /// - Throws: `.invalidArgument` for a bad id (no request made); otherwise as classified in
    ///   the type's documentation.
    public func marketChart(id: String, _ request: MarketChartRequest = MarketChartRequest()) throws -> MarketChart {
        try CoinID.validate(id)
        return try fetch(.marketChart, path: ["coins", id, "market_chart"], query: request.query, decode: CoinGeckoBody.marketChart)
    }

    /// `GET /coins/{id}/market_chart/range?vs_currency=…&from=…&to=…` (SPEC §17): prices, market
    /// caps and volumes between two times (UNIX seconds), in the shape of `marketChart`.
    ///
    /// CoinGecko spaces the points by the range: 5 minutes within a day of now, hourly up to 90
    /// days, daily at 00:00 UTC beyond. On the public and demo plans a range reaching further back
    /// than 365 days is answered 401 with error code 10012: `.unauthorized` with
    /// `details.error_code` 10012.
    /// - Parameters:
    ///   - id: a coin id (`CoinID` rule), percent-encoded as one path segment.
    ///   - request: currency and the range.
    /// - Throws: `.invalidArgument` for a bad id (no request made); otherwise as classified in the
    ///   type's documentation (`.notFound` for an id CoinGecko does not know).
    public func marketChartRange(id: String, _ request: MarketChartRangeRequest) throws -> MarketChart {
        try CoinID.validate(id)
        return try fetch(
            .marketChartRange, path: ["coins", id, "market_chart", "range"], query: request.query, decode: CoinGeckoBody.marketChart)
    }

    /// `GET /simple/price?ids=…&vs_currencies=…&include_24hr_change=true&include_last_updated_at=true&precision=full`:
    /// the price, 24 h change (percent units) and update time of each id, never rounded by
    /// CoinGecko (SPEC §17).
    ///
    /// More than 250 ids (or about 6 KB of them) are asked in several requests and merged; an
    /// empty list makes no request. An id CoinGecko answers with `{}`, or leaves out, has nil
    /// values: not an error.
    /// - Returns: every asked id, by id.
    /// - Throws: `CoinfolioError` as classified in the type's documentation.
    public func simplePrice(_ request: SimplePriceRequest) throws -> SimplePrices {
        var unique: [String] = []
        var seen = Set<String>()
        for id in request.ids where seen.insert(id).inserted { unique.append(id) }
        var merged = SimplePrices()
        for chunk in Self.idChunks(unique) {
            let query = [
                RequestURL.QueryItem("ids", list: chunk), RequestURL.QueryItem("vs_currencies", request.vsCurrency.code),
                RequestURL.QueryItem("include_24hr_change", true), RequestURL.QueryItem("include_last_updated_at", true),
                RequestURL.QueryItem.fullPrecision,
            ]
            let answer = try fetch(.simplePrice, path: ["simple", "price"], query: query) {
                try CoinGeckoBody.simplePrice($0, vsCurrency: request.vsCurrency, ids: chunk)
            }
            merged.prices.merge(answer.prices) { _, new in new }
        }
        return merged
    }
}
