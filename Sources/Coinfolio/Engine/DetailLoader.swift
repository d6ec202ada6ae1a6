import Foundation

/// The seed's lazy detail loading: `GET /coins/{id}` only when a host opens one coin, cached per
/// id for `ttl` seconds; callers asking for the same id at once share one request.
final class DetailLoader: @unchecked Sendable {
    private let ttl: Double
    private let lock = NSLock()
    private var cache: [String: (detail: CoinDetail, fetchedAt: Date)] = [:]
    private var inFlight: [String: Flight] = [:]
    private var hits = 0

    init(ttl: Double) { self.ttl = ttl }

    var cacheHits: Int {
        lock.lock(); defer { lock.unlock() }
        return hits
    }

    /// One request shared by every caller that arrives while it runs.
    private final class Flight: @unchecked Sendable {
        let done = DispatchGroup()
        var result: Result<CoinDetail, Error> = .failure(CoinfolioError(.internalError, "detail request did not finish"))
        init() { done.enter() }
    }

    /// The cached detail of `id`, or the result of one fetch shared with concurrent callers.
    func detail(id: String, fetch: (String) throws -> CoinDetail) throws -> CoinDetail {
        lock.lock()
        if let cached = cache[id], Date().timeIntervalSince(cached.fetchedAt) < ttl {
            hits += 1
            lock.unlock()
            return cached.detail
        }
        if let flight = inFlight[id] {
            hits += 1
            lock.unlock()
            flight.done.wait()
            return try flight.result.get()
        }
        let flight = Flight()
        inFlight[id] = flight
        lock.unlock()

        let result = Result { try fetch(id) }
        lock.lock()
        if case .success(let detail) = result, ttl > 0 {
            let now = Date()
            // Forget expired details as new ones arrive, so the cache holds only live ones.
            cache = cache.filter { now.timeIntervalSince($0.value.fetchedAt) < ttl }
            cache[id] = (detail, now)
        }
        inFlight[id] = nil
        lock.unlock()
        flight.result = result
        flight.done.leave()
        return try result.get()
    }
}

extension PortfolioEngine {
    /// One coin's detail screen, loaded lazily (see `DetailLoader`).
    /// - Parameter id: a coin id (`CoinID` rule).
    /// - Returns: the snapshot's market row (nil when absent), the detail and its statistics.
    /// - Throws: `.invalidArgument` for a bad id (no request), or the client's errors
    ///   (`.notFound` for an unknown coin).
    public func coinDetail(id: String) throws -> CoinDetailScreen {
        try CoinID.validate(id)
        let detail = try details.detail(id: id) { try client.coinDetail(id: $0) }
        var coin: Coin?
        if let snapshot = currentSnapshot(), let index = snapshot.indexByID[id] { coin = snapshot.coins[index] }
        let lists = detailStatistics(coin: coin, detail: detail)
        return CoinDetailScreen(coin: coin, detail: detail, overview: lists.overview, additional: lists.additional)
    }
}
