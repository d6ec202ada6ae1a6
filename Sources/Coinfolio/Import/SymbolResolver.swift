/// How a file's symbols become CoinGecko ids (SPEC §18), in this order:
/// 1. the `symbols` option (`{"BOND":"barnbridge"}`, keys compared upper-cased);
/// 2. money: an ISO 4217 code (`MoneyCodes`) or one of the engine's currencies (its
///    `vs_currency` and the portfolio's) is money, not a coin;
/// 3. the built-in table (`SymbolTable`: the largest coins, stablecoins, exchange tickers);
/// 4. a symbol exactly one coin of the saved snapshot has.
/// Anything else — unknown, or a symbol several coins share — is unresolved, with the ids that
/// share it as candidates.
struct SymbolResolver {
    /// What a symbol is.
    enum Resolution: Sendable, Hashable {
        /// A coin, by CoinGecko id.
        case coin(String)
        /// Money, by lower-case currency code (`usd`, `eur`).
        case money(String)
    }

    /// The `symbols` option, keys upper-cased.
    private let chosen: [String: String]
    /// Currencies of the engine besides ISO 4217 (lower-case: `btc` when a portfolio is in btc).
    private let currencies: Set<String>
    /// The ids of the snapshot's coins that have a (lower-case) symbol.
    private let snapshotIDs: (String) -> [String]

    /// - Parameters:
    ///   - chosen: the `symbols` option: symbol → coin id.
    ///   - currencies: the engine's `vs_currency` and the portfolio's currency (money even where
    ///     they are no ISO 4217 code).
    ///   - snapshotIDs: the ids of the saved snapshot's coins whose symbol is the given lower-case one.
    init(chosen: [String: String], currencies: Set<String>, snapshotIDs: @escaping (String) -> [String]) {
        self.chosen = Dictionary(chosen.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.currencies = Set(currencies.map { $0.lowercased() })
        self.snapshotIDs = snapshotIDs
    }

    /// The resolution of an upper-case symbol, or what is known about it when there is none.
    func resolve(_ symbol: String) -> Result<Resolution, UnknownSymbol> {
        if let id = chosen[symbol] { return .success(.coin(id)) }
        let lower = symbol.lowercased()
        if MoneyCodes.isMoney(lower) || currencies.contains(lower) { return .success(.money(lower)) }
        if let id = SymbolTable.coinID(for: symbol) { return .success(.coin(id)) }
        let ids = snapshotIDs(lower)
        if ids.count == 1 { return .success(.coin(ids[0])) }
        return .failure(UnknownSymbol(symbol: symbol, candidates: ids.sorted()))
    }

    /// Each of `symbols` resolved, and the ones that are not (in the order given).
    func resolveAll<S: Sequence>(_ symbols: S) -> (resolved: [String: Resolution], unresolved: [UnknownSymbol]) where S.Element == String {
        var resolved: [String: Resolution] = [:]
        var unresolved: [UnknownSymbol] = []
        var seen: Set<String> = []
        for symbol in symbols where seen.insert(symbol).inserted {
            switch resolve(symbol) {
            case .success(let resolution): resolved[symbol] = resolution
            case .failure(let missing): unresolved.append(missing)
            }
        }
        return (resolved, unresolved)
    }
}

extension UnknownSymbol: Error {}
