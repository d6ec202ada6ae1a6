/// `fill_prices`' answer (SPEC §17): how many pending rows got a price, how many range requests
/// the call sent, and every row still pending with why.
///
/// JSON: `{"filled":n,"requests":n,"missing":[{"transaction_id","coin_id","timestamp","reason"}…]}`,
/// `missing` in transaction id order.
public struct PriceFill: Hashable, Sendable {
    /// A row left pending.
    public struct Missing: Hashable, Sendable {
        /// The row's id (a string in JSON).
        public var transactionID: Int64
        /// The row's coin.
        public var coinID: String
        /// The row's time, ms since 1970 (RFC 3339 in JSON).
        public var timestamp: Int64
        /// Why: `noPoint`, `unknownCoin`, `historyLimit`, `maxRequests` or `rateLimited`.
        public var reason: PriceGap
    }

    /// The keys of the answer.
    enum JSONKey: String, WireKeys {
        case filled
        case requests
        case missing
    }

    /// The keys of one row of `missing`.
    enum MissingKey: String, WireKeys {
        case transactionID = "transaction_id"
        case coinID = "coin_id"
        case timestamp
        case reason
    }

    /// Rows that got a price (and, for a price given in another currency, their conversion).
    public var filled: Int
    /// `/coins/{id}/market_chart/range` requests sent (retries included).
    public var requests: Int
    /// Rows still pending.
    public var missing: [Missing]

    /// `{"filled","requests","missing":[{"transaction_id","coin_id","timestamp","reason"}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: 64 + missing.count * 120)
        w.beginObject()
        w.key(JSONKey.filled); w.number(filled)
        w.key(JSONKey.requests); w.number(requests)
        w.key(JSONKey.missing); w.beginArray()
        for row in missing {
            w.beginObject()
            w.key(MissingKey.transactionID); w.string(String(row.transactionID))
            w.key(MissingKey.coinID); w.string(row.coinID)
            w.key(MissingKey.timestamp); w.string(LedgerTimestamp.format(row.timestamp))
            w.key(MissingKey.reason); w.string(row.reason.rawValue)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
