/// `price_at`'s answer (SPEC §17): the price of a coin at a time and where it came from.
///
/// JSON: `{"coin_id","vs_currency","timestamp" (the time asked, RFC 3339 UTC),"price","at" (t_ms
/// of the point used: a manual point's time, a CoinGecko point's, or the snapshot's
/// `last_updated`),"source":"manual"|"coingecko"|"snapshot"}`.
public struct HistoricalPrice: Hashable, Sendable {
    /// Where a price came from.
    public enum Source: String, Hashable, Sendable {
        /// The owner's manual point of that UTC day (`set_price`).
        case manual
        /// A stored CoinGecko point (`/coins/{id}/market_chart/range` `prices`) of that UTC day.
        case coingecko
        /// The snapshot's `current_price` (`/coins/markets`), its `last_updated` within an hour.
        case snapshot
    }

    /// The coin.
    public var coinID: String
    /// The quote currency (lower-case code).
    public var vsCurrency: String
    /// The time asked, ms since 1970 (UTC).
    public var time: Int64
    /// The price of one unit in `vsCurrency`: exactly as CoinGecko sent it, or the nearest double
    /// to a manual price (whose exact value is `exactPrice`).
    public var price: Double
    /// The price as the ledger takes it: a manual price exactly; CoinGecko's by its shortest
    /// decimal text, rounded half-to-even to 18 fraction digits.
    public var exactPrice: ExactDecimal
    /// When the price held, ms since 1970 (UTC).
    public var at: Int64
    /// Where it came from.
    public var source: Source

    /// A price from CoinGecko (a point or the snapshot); nil when the ledger cannot hold it (above
    /// 8.5e19).
    init?(coinID: String, vsCurrency: String, time: Int64, marketPrice: Double, at: Int64, source: Source) {
        guard let exact = ExactDecimal(marketPrice) else { return nil }
        self.init(coinID: coinID, vsCurrency: vsCurrency, time: time, price: marketPrice, exactPrice: exact, at: at, source: source)
    }

    /// The price a ledger row takes from it, as a `StoredPrice`: nil for a CoinGecko price above 0
    /// that 18 fraction digits round to 0 (below 5e-19): a coin worth something is never written
    /// as a free coin; the row stays pending (`price_at` still answers the exact double).
    var ledgerPrice: StoredPrice? {
        guard !exactPrice.isZero || source == .manual || price == 0 else { return nil }
        return StoredPrice(price: exactPrice, source: source == .manual ? .manual : .coingecko, at: at)
    }

    /// A manual price.
    init(manual: ManualPrice, time: Int64, at: Int64) {
        self.init(
            coinID: manual.coinID, vsCurrency: manual.vsCurrency, time: time, price: manual.price.double, exactPrice: manual.price,
            at: at, source: .manual)
    }

    init(coinID: String, vsCurrency: String, time: Int64, price: Double, exactPrice: ExactDecimal, at: Int64, source: Source) {
        self.coinID = coinID
        self.vsCurrency = vsCurrency
        self.time = time
        self.price = price
        self.exactPrice = exactPrice
        self.at = at
        self.source = source
    }

    /// The keys of the answer.
    enum JSONKey: String, WireKeys {
        case coinID = "coin_id"
        case vsCurrency = "vs_currency"
        case timestamp
        case price
        case at
        case source
    }

    /// `{"coin_id","vs_currency","timestamp","price","at","source"}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.coinID); w.string(coinID)
        w.key(JSONKey.vsCurrency); w.string(vsCurrency)
        w.key(JSONKey.timestamp); w.string(LedgerTimestamp.format(time))
        w.key(JSONKey.price)
        if source == .manual { w.decimal(exactPrice) } else { w.number(price) }
        w.key(JSONKey.at); w.number(Int(at))
        w.key(JSONKey.source); w.string(source.rawValue)
        w.endObject()
        return w.bytes
    }
}
