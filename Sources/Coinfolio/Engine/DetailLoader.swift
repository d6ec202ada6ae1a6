import Foundation

/// The seed's lazy detail loading: `GET /coins/{id}` only when a host opens one coin; callers
/// asking for the same id at once share one request. Each fetched detail is saved in the
/// database with its fetch time, so it outlives the process: a saved detail younger than `ttl`
/// seconds answers without a request, and an older one answers (marked stale) when its refresh
/// fails.
final class DetailLoader: Sendable {
    private let ttl: Double
    private let store: PortfolioStore
    private let fetches: SharedFetches<String, Loaded>

    /// A detail, when it was fetched, and whether it is past its TTL.
    struct Loaded: Sendable {
        var detail: CoinDetail
        var fetchedAt: Date
        var isStale = false
    }

    init(ttl: Double, store: PortfolioStore) {
        self.ttl = ttl
        self.store = store
        fetches = SharedFetches(ttl: ttl)
    }

    var cacheHits: Int { fetches.hits }

    /// The saved detail of `id` (memory first, then the database), fresh or not; no request.
    func saved(id: String) -> Loaded? {
        if let kept = fetches.kept(id) { return kept.value }
        guard let saved = try? store.savedDetail(coinID: id) else { return nil }
        return Loaded(detail: saved.detail, fetchedAt: saved.fetchedAt)
    }

    /// The fresh saved detail of `id`, or the result of one fetch shared with concurrent callers.
    /// When the fetch fails (anything but a bad or unknown id) and a detail was saved, that one is
    /// returned with `isStale` set.
    func detail(id: String, fetch: (String) throws -> CoinDetail) throws -> Loaded {
        let now = Date()
        return try fetches.value(for: id, what: "detail of \"\(id)\"") { id in
            var saved: Loaded?
            if let stored = try? store.savedDetail(coinID: id) { saved = Loaded(detail: stored.detail, fetchedAt: stored.fetchedAt) }
            if let saved, now.timeIntervalSince(saved.fetchedAt) < ttl {
                // A fresh saved detail answers without a request of its own.
                return .init(value: saved, asOf: saved.fetchedAt, withoutRequest: true)
            }
            do {
                let detail = try fetch(id)
                let fetchedAt = Date()
                try? store.saveDetail(detail, fetchedAt: fetchedAt)
                return .init(value: Loaded(detail: detail, fetchedAt: fetchedAt), asOf: fetchedAt)
            } catch let error as CoinfolioError where error.code == .invalidArgument || error.code == .notFound {
                throw error
            } catch let error as CancellationError {
                throw error  // an async call cancelled by its task: no answer, not a stale one
            } catch {
                guard var saved else { throw error }
                saved.isStale = true
                return .init(value: saved, asOf: saved.fetchedAt, keep: false)
            }
        }
    }
}

extension PortfolioEngine {
    /// One coin's detail screen, loaded lazily (see `DetailLoader`): a saved detail younger than
    /// `detail_ttl_s` answers without a request; otherwise `GET /coins/{id}` is asked, and its
    /// answer saved in the database with its fetch time.
    /// - Parameter id: a coin id (`CoinID` rule).
    /// - Returns: the snapshot's market row (nil when absent), the detail and its statistics,
    ///   `asOf` (when the detail was fetched) and `isStale` (true when the refresh failed and the
    ///   saved detail is shown).
    /// - Throws: `.invalidArgument` for a bad id (no request); the client's errors (`.notFound`
    ///   for an unknown coin) when no detail was saved.
    public func coinDetail(id: String) throws -> CoinDetailScreen {
        try CoinID.validate(id)
        return screen(id: id, try details.detail(id: id) { try client.coinDetail(id: $0) })
    }

    /// The saved detail screen of `id`, fresh or not, without any request; nil when no detail
    /// of the coin was ever saved. `isStale` is true past `detail_ttl_s`.
    /// - Throws: `.invalidArgument` for a bad id.
    public func savedCoinDetail(id: String) throws -> CoinDetailScreen? {
        try CoinID.validate(id)
        guard var loaded = details.saved(id: id) else { return nil }
        loaded.isStale = Date().timeIntervalSince(loaded.fetchedAt) >= configuration.detailTTL
        return screen(id: id, loaded)
    }

    /// One coin's market row and statistics from the saved snapshot alone: never a request.
    /// "Block Time" and "Hashing Algorithm" come from a saved detail when there is one, else
    /// they read "n/a".
    /// - Parameter id: a coin id (`CoinID` rule).
    /// - Returns: the coin (prices in vs_currency), overview and additional statistics; `json`
    ///   gives `{"coin","overview","additional"}`.
    /// - Throws: `.invalidArgument` for a bad id; `.noData` without a snapshot in the engine's
    ///   vs_currency; `.notFound` when the coin is not in it.
    public func coinStatistics(id: String) throws -> CoinStatistics {
        try CoinID.validate(id)
        let snapshot = try requireSnapshot()
        guard let position = snapshot.indexByID[id], isListed(position, in: snapshot, held: try heldIDsForListing(snapshot)) else {
            throw CoinfolioError(
                .notFound, "\(id) is not in the saved \(configuration.vsCurrency.code) snapshot",
                details: [.coinID: .string(id)])
        }
        let coin = snapshot.coin(at: position, sparkline: true)
        let detail = details.saved(id: id)?.detail ?? CoinDetail(id: coin.id, symbol: coin.symbol, name: coin.name)
        let lists = detailStatistics(coin: coin, detail: detail)
        return CoinStatistics(coin: coin, overview: lists.overview, additional: lists.additional)
    }

    private func screen(id: String, _ loaded: DetailLoader.Loaded) -> CoinDetailScreen {
        var coin: Coin?
        if let snapshot = currentSnapshot(), let index = snapshot.indexByID[id],
            isListed(index, in: snapshot, held: (try? heldIDsForListing(snapshot)) ?? [])
        {
            coin = snapshot.coin(at: index, sparkline: true)
        }
        let lists = detailStatistics(coin: coin, detail: loaded.detail)
        var screen = CoinDetailScreen(coin: coin, detail: loaded.detail, overview: lists.overview, additional: lists.additional)
        screen.asOf = loaded.fetchedAt
        screen.isStale = loaded.isStale
        return screen
    }
}
