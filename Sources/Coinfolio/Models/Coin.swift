import Foundation

/// One coin's market row: an element of CoinGecko `GET /coins/markets`.
///
/// Only `id`, `symbol` and `name` are required; every other value is optional because CoinGecko
/// sends null for real coins (`current_price` and `market_cap_rank` among them). Prices, caps and
/// volumes are in the `vs_currency` of the request; percentages are in percent units (1.5 = 1.5 %).
/// Coins are identified by `id` only: symbols are not unique (several `weth` on one page).
public struct Coin: Hashable, Sendable, Identifiable {
    /// CoinGecko's coin id (`bitcoin`, `1move token`, `boringdao-[old]`): the only identity.
    public var id: String
    /// Ticker symbol as CoinGecko sends it (lower case, not unique).
    public var symbol: String
    /// Display name (may hold any Unicode, may be empty).
    public var name: String
    /// Logo URL.
    public var image: String? {
        get { texts[.image] }
        set { texts[.image] = newValue }
    }
    /// `current_price`, in vs_currency.
    public var currentPrice: Double? {
        get { numbers[.currentPrice] }
        set { numbers[.currentPrice] = newValue }
    }
    /// `market_cap`, in vs_currency.
    public var marketCap: Double? {
        get { numbers[.marketCap] }
        set { numbers[.marketCap] = newValue }
    }
    /// `market_cap_rank`, 1 for the largest; nil for unranked coins.
    public var marketCapRank: Int? {
        get { numbers.rank }
        set { numbers.rank = newValue }
    }
    /// `fully_diluted_valuation`, in vs_currency.
    public var fullyDilutedValuation: Double? {
        get { numbers[.fullyDilutedValuation] }
        set { numbers[.fullyDilutedValuation] = newValue }
    }
    /// `total_volume` (24 h), in vs_currency.
    public var totalVolume: Double? {
        get { numbers[.totalVolume] }
        set { numbers[.totalVolume] = newValue }
    }
    /// `high_24h`, in vs_currency.
    public var high24h: Double? {
        get { numbers[.high24h] }
        set { numbers[.high24h] = newValue }
    }
    /// `low_24h`, in vs_currency.
    public var low24h: Double? {
        get { numbers[.low24h] }
        set { numbers[.low24h] = newValue }
    }
    /// `price_change_24h`, in vs_currency.
    public var priceChange24h: Double? {
        get { numbers[.priceChange24h] }
        set { numbers[.priceChange24h] = newValue }
    }
    /// `price_change_percentage_24h`, percent units.
    public var priceChangePercentage24h: Double? {
        get { numbers[.priceChangePercentage24h] }
        set { numbers[.priceChangePercentage24h] = newValue }
    }
    /// `market_cap_change_24h`, in vs_currency.
    public var marketCapChange24h: Double? {
        get { numbers[.marketCapChange24h] }
        set { numbers[.marketCapChange24h] = newValue }
    }
    /// `market_cap_change_percentage_24h`, percent units.
    public var marketCapChangePercentage24h: Double? {
        get { numbers[.marketCapChangePercentage24h] }
        set { numbers[.marketCapChangePercentage24h] = newValue }
    }
    /// `circulating_supply`, in coins.
    public var circulatingSupply: Double? {
        get { numbers[.circulatingSupply] }
        set { numbers[.circulatingSupply] = newValue }
    }
    /// `total_supply`, in coins (4.2e17 happens).
    public var totalSupply: Double? {
        get { numbers[.totalSupply] }
        set { numbers[.totalSupply] = newValue }
    }
    /// `max_supply`, in coins.
    public var maxSupply: Double? {
        get { numbers[.maxSupply] }
        set { numbers[.maxSupply] = newValue }
    }
    /// `ath` (all-time high), in vs_currency.
    public var ath: Double? {
        get { numbers[.ath] }
        set { numbers[.ath] = newValue }
    }
    /// `ath_change_percentage`, percent units.
    public var athChangePercentage: Double? {
        get { numbers[.athChangePercentage] }
        set { numbers[.athChangePercentage] = newValue }
    }
    /// `ath_date` as sent (ISO-8601, with or without milliseconds); see `date(_:)`.
    public var athDate: String? {
        get { texts[.athDate] }
        set { texts[.athDate] = newValue }
    }
    /// `atl` (all-time low), in vs_currency.
    public var atl: Double? {
        get { numbers[.atl] }
        set { numbers[.atl] = newValue }
    }
    /// `atl_change_percentage`, percent units.
    public var atlChangePercentage: Double? {
        get { numbers[.atlChangePercentage] }
        set { numbers[.atlChangePercentage] = newValue }
    }
    /// `atl_date` as sent (ISO-8601).
    public var atlDate: String? {
        get { texts[.atlDate] }
        set { texts[.atlDate] = newValue }
    }
    /// `roi`: return on investment since the ICO, when CoinGecko knows it.
    public var roi: ROI?
    /// `last_updated` as sent (ISO-8601).
    public var lastUpdated: String? {
        get { texts[.lastUpdated] }
        set { texts[.lastUpdated] = newValue }
    }
    /// `sparkline_in_7d.price`: the last 7 days of prices, oldest first, any length (0 to 170+
    /// points); a null point is NaN. nil when the request had `sparkline=false`.
    ///
    /// Decoded from the body's JSON on each read (see `sparkline`): read it once and keep the array.
    public var sparklineIn7d: [Double]? {
        get { sparkline?.prices }
        set { sparkline = newValue.map(Sparkline.init(prices:)) }
    }
    /// `sparkline_in_7d.price` as held: undecoded JSON after decoding a body (parsed only when
    /// `prices` or `sparklineIn7d` is read), or values.
    public var sparkline: Sparkline?
    /// `price_change_percentage_{1h,24h,7d,14d,30d,200d,1y}_in_currency`, percent units, by window.
    ///
    /// Made from the values held inline on each read (`changeWindows`): read it once per coin.
    public var priceChangePercentageInCurrency: [ChangeWindow: Double] {
        get { changeWindows.dictionary }
        set { changeWindows = ChangeWindows(newValue) }
    }
    /// The numbers as held (raw values and a presence mask, `Numbers`).
    var numbers = Numbers()
    /// The change windows as held (no dictionary per coin).
    var changeWindows = ChangeWindows()
    /// `image` and the three dates as held (`Texts`: values, or ranges of a decoded body's bytes).
    var texts = Texts()

    /// A window of `price_change_percentage_<window>_in_currency`.
    public enum ChangeWindow: String, CaseIterable, Sendable, Hashable {
        case h1 = "1h", h24 = "24h", d7 = "7d", d14 = "14d", d30 = "30d", d200 = "200d", y1 = "1y"

        /// The CoinGecko key: `price_change_percentage_7d_in_currency`.
        public var key: String { jsonKey.rawValue }

        /// Hashes the case, not its raw string: every coin keeps a dictionary of these, and
        /// hashing "200d" as text cost a fifth of opening a saved 15,000-coin snapshot.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .h1: hasher.combine(0 as UInt8)
            case .h24: hasher.combine(1 as UInt8)
            case .d7: hasher.combine(2 as UInt8)
            case .d14: hasher.combine(3 as UInt8)
            case .d30: hasher.combine(4 as UInt8)
            case .d200: hasher.combine(5 as UInt8)
            case .y1: hasher.combine(6 as UInt8)
            }
        }
    }

    /// `roi` of `/coins/markets`: `{"times", "currency", "percentage"}`.
    public struct ROI: Hashable, Sendable {
        /// The multiple since the ICO.
        public var times: Double?
        /// The currency of the ICO price.
        public var currency: String?
        /// The return in percent units.
        public var percentage: Double?

        /// An ROI; `percentage` in percent units.
        public init(times: Double? = nil, currency: String? = nil, percentage: Double? = nil) {
            self.times = times
            self.currency = currency
            self.percentage = percentage
        }
    }

    /// A coin with only the required fields; set the others as needed.
    public init(id: String, symbol: String, name: String) {
        self.id = id
        self.symbol = symbol
        self.name = name
    }

    /// Whether `current_price` is known (a finite number).
    public var isPriceAvailable: Bool { currentPrice?.isFinite ?? false }

    /// Parses one of the coin's ISO-8601 date strings (`ath_date`, `atl_date`, `last_updated`),
    /// with or without fractional seconds: `2021-11-10T14:24:11.849Z`, `2021-03-13T20:49:26Z`.
    public static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
