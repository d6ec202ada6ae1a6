import Dispatch
import Foundation
import Synchronization

/// Market charts on demand: `GET /coins/{id}/market_chart` cached per (id, days, interval) for
/// `ttl` seconds; callers asking for the same chart at once share one request, like details.
final class ChartLoader: Sendable {
    struct Key: Hashable, Sendable {
        var id: String
        var days: ChartDays
        var interval: ChartInterval?
    }

    /// One request shared by every caller that arrives while it runs.
    private final class Flight: @unchecked Sendable {
        let done = DispatchGroup()
        // Written once by the fetching thread before `done.leave()`, read after `done.wait()`.
        var result: Result<MarketChart, Error> = .failure(CoinfolioError(.internalError, "chart request did not finish"))
        init() { done.enter() }
    }

    private struct State {
        var cache: [Key: (chart: MarketChart, fetchedAt: Date)] = [:]
        var inFlight: [Key: Flight] = [:]
        var hits = 0
    }

    private let ttl: Double
    private let state = Mutex(State())

    init(ttl: Double) { self.ttl = ttl }

    /// Answers served from the cache or from another caller's request.
    var cacheHits: Int { state.withLock { $0.hits } }

    /// The cached chart for `key`, or the result of one fetch shared with concurrent callers.
    func chart(_ key: Key, fetch: (Key) throws -> MarketChart) throws -> MarketChart {
        enum Step { case cached(MarketChart), wait(Flight), fetch(Flight) }
        let ttl = self.ttl
        let step: Step = state.withLock { state in
            if let cached = state.cache[key], Date().timeIntervalSince(cached.fetchedAt) < ttl {
                state.hits += 1
                return .cached(cached.chart)
            }
            if let flight = state.inFlight[key] {
                state.hits += 1
                return .wait(flight)
            }
            let flight = Flight()
            state.inFlight[key] = flight
            return .fetch(flight)
        }
        switch step {
        case .cached(let chart):
            return chart
        case .wait(let flight):
            // A progress handler of this very download asking for the same chart: waiting
            // for the flight would never end.
            try WorkInProgress.refuseNested(flight, "chart of \"\(key.id)\"")
            flight.done.wait()
            return try flight.result.get()
        case .fetch(let flight):
            let result = Result { try WorkInProgress.doing(flight) { try fetch(key) } }
            state.withLock { state in
                if case .success(let chart) = result, ttl > 0 {
                    let now = Date()
                    // Forget expired charts as new ones arrive, so the cache holds only live ones.
                    state.cache = state.cache.filter { now.timeIntervalSince($0.value.fetchedAt) < ttl }
                    state.cache[key] = (chart, now)
                }
                state.inFlight[key] = nil
            }
            flight.result = result
            flight.done.leave()
            return try result.get()
        }
    }
}
