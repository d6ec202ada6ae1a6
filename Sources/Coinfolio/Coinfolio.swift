/// Coinfolio: the engine of a crypto portfolio tracker.
///
/// - `NumberFormat`: prices, amounts, percentages and abbreviations as people read them.
/// - `Coin`, `MarketData`, `CoinDetail`, `Statistic` and `CoinGeckoBody`: CoinGecko's data,
///   decoded tolerantly.
/// - `PortfolioStore`: the user's holdings in a durable SQLite file.
/// - `CoinGeckoClient`: CoinGecko API v3 over URLSession.
/// - `PortfolioEngine`: what the home, portfolio and detail screens show.
public enum Coinfolio {
    /// The library version (semantic versioning).
    public static let version = "0.1.0"

    /// The version of the C ABI, `CF_ABI_VERSION` of include/coinfolio.h (which
    /// `cf_abi_version()` returns; a test in each suite holds the copies equal to the header's).
    @_spi(ABI) public static let abiVersion: Int32 = 1
}
