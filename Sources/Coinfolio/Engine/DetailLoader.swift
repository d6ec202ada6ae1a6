import Foundation
import Synchronization

/// The seed's lazy detail loading: `GET /coins/{id}` only when a host opens one coin, cached per
/// id for `ttl` seconds; callers asking for the same id at once share one request.
final class DetailLoader: Sendable {
    private let ttl: Double
    private struct State {
        var cache: [String: (detail: CoinDetail, fetchedAt: Date)] = [:]
        var inFlight: [String: Flight] = [:]
        var hits = 0
    }
    private let state = Mutex(State())

    init(ttl: Double) { self.ttl = ttl }

    var cacheHits: Int { state.withLock { $0.hits } }

    /// One request shared by every caller that arrives while it runs.
    private final class Flight: Sendable {
        let done = DispatchGroup()
        let result = Mutex<Result<CoinDetail, any Error>>(.failure(CoinfolioError(.internalError, "detail request did not finish")))
        init() { done.enter() }
    }

    private enum Lookup {
        case cached(CoinDetail)
        case joining(Flight)
        case leading(Flight)
    }

    /// The cached detail of `id`, or the result of one fetch shared with concurrent callers.
    func detail(id: String, fetch: (String) throws -> CoinDetail) throws -> CoinDetail {
        let lookup = state.withLock { state -> Lookup in
            if let cached = state.cache[id], Date().timeIntervalSince(cached.fetchedAt) < ttl {
                state.hits += 1
                return .cached(cached.detail)
            }
            if let flight = state.inFlight[id] {
                state.hits += 1
                return .joining(flight)
            }
            let flight = Flight()
            state.inFlight[id] = flight
            return .leading(flight)
        }
        let flight: Flight
        switch lookup {
        case .cached(let detail):
            return detail
        case .joining(let running):
            running.done.wait()
            return try running.result.withLock { $0 }.get()
        case .leading(let own):
            flight = own
        }

        let result = Result { try fetch(id) }
        state.withLock { state in
            if case .success(let detail) = result, ttl > 0 {
                let now = Date()
                // Forget expired details as new ones arrive, so the cache holds only live ones.
                state.cache = state.cache.filter { now.timeIntervalSince($0.value.fetchedAt) < ttl }
                state.cache[id] = (detail, now)
            }
            state.inFlight[id] = nil
        }
        flight.result.withLock { $0 = result }
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
