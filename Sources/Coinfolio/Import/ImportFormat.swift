/// A file format `cf_engine_import` reads (SPEC §18): Coinfolio's own ledger CSV (§12, §16) and
/// what four exchanges and trackers export.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// Coinfolio's ledger CSV (`timestamp,portfolio,coin_id,kind,…`), read strictly (§12).
    case coinfolio
    /// Coinbase's transaction history, variants `v1`…`v4`.
    case coinbase
    /// Binance's Trade History (`trade_history`, `trade_history_old`) and Transaction History
    /// statement (`statement`).
    case binance
    /// Kraken's ledgers export, `ledgers` (without a wallet column) and `ledgers_wallet`.
    case kraken
    /// CoinTracking's trade list export, `default`.
    case cointracking
    /// Koinly's universal CSV, `universal`.
    case koinly

    /// The `format` option's names, `auto` first: "auto, coinfolio, coinbase, …", for messages.
    static let optionList = (["auto"] + allCases.map(\.rawValue)).joined(separator: ", ")
}
