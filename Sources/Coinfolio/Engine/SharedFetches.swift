import Dispatch
import Foundation
import Synchronization

/// Values fetched on demand and kept for `ttl` seconds, where callers asking for the same key
/// while it is being fetched wait for that one fetch and share its result: the seed's lazy detail
/// loading (`DetailLoader`) and market charts (`ChartLoader`). Failures are shared with the
/// callers that waited, never kept. Expired values are dropped as new ones arrive.
final class SharedFetches<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What one fetch gave: the value, the time its age counts from, whether to keep it, and
    /// whether it answered without a request (it then counts as a hit).
    struct Fetched {
        var value: Value
        var asOf = Date()
        var keep = true
        var withoutRequest = false
    }

    /// One fetch shared by every caller that arrives while it runs.
    private final class Flight: Sendable {
        let done = DispatchGroup()
        let result = Mutex<Result<Value, any Error>>(.failure(CoinfolioError(.internalError, "the request did not finish")))
        init() { done.enter() }
    }

    /// What a caller does: take the fresh kept value, wait for a fetch, or run one.
    private enum Step {
        case fresh(Value)
        case join(Flight)
        case lead(Flight)
    }

    private struct Kept {
        var value: Value
        var asOf: Date
    }

    private struct State {
        var kept: [Key: Kept] = [:]
        var inFlight: [Key: Flight] = [:]
        var hits = 0
    }

    private let ttl: Double
    private let state = Mutex(State())

    /// - Parameter ttl: seconds a value stays fresh, from its `asOf`.
    init(ttl: Double) { self.ttl = ttl }

    /// Answers given without a request of their own: fresh kept values, shared fetches, and
    /// fetches that said `withoutRequest`.
    var hits: Int { state.withLock { $0.hits } }

    /// The kept value of `key` and when its age counts from, fresh or not; nil when none is kept.
    func kept(_ key: Key) -> (value: Value, asOf: Date)? {
        state.withLock { $0.kept[key].map { ($0.value, $0.asOf) } }
    }

    /// The fresh kept value of `key`, or the result of one `fetch` shared with concurrent callers.
    /// - Parameters:
    ///   - key: what is asked for.
    ///   - what: names the work in the error a nested call gets ("chart of \"bitcoin\"").
    ///   - fetch: runs on the first caller's thread, outside the lock.
    /// - Throws: what `fetch` threw (also to the callers that waited for it, except a
    ///   `CancellationError`: a waiting caller whose own task goes on then fetches again); `.invalidArgument`
    ///   (reason "reentrant") when the caller is the very thread running that fetch (a progress
    ///   handler asking for what it reports on), which would otherwise wait for itself forever.
    func value(for key: Key, what: String, fetch: (Key) throws -> Fetched) throws -> Value {
        let ttl = self.ttl
        let step = state.withLock { state -> Step in
            if let kept = state.kept[key], Date().timeIntervalSince(kept.asOf) < ttl {
                state.hits += 1
                return .fresh(kept.value)
            }
            if let flight = state.inFlight[key] {
                state.hits += 1
                return .join(flight)
            }
            let flight = Flight()
            state.inFlight[key] = flight
            return .lead(flight)
        }
        switch step {
        case .fresh(let value):
            return value
        case .join(let flight):
            try WorkInProgress.refuseNested(flight, what)
            flight.done.wait()
            let result = flight.result.withLock { $0 }
            if case .failure(let error) = result, error is CancellationError {
                // The leading caller's task was cancelled, not this caller's: ask again.
                try WorkCancellation.check()
                return try value(for: key, what: what, fetch: fetch)
            }
            return try result.get()
        case .lead(let flight):
            let fetched = Result { try WorkInProgress.doing(flight) { try fetch(key) } }
            state.withLock { state in
                if case .success(let got) = fetched {
                    if got.withoutRequest { state.hits += 1 }
                    if got.keep, ttl > 0 {
                        let now = Date()
                        state.kept = state.kept.filter { now.timeIntervalSince($0.value.asOf) < ttl }
                        state.kept[key] = Kept(value: got.value, asOf: got.asOf)
                    }
                }
                state.inFlight[key] = nil
            }
            let result = fetched.map { $0.value }
            flight.result.withLock { $0 = result }
            flight.done.leave()
            return try result.get()
        }
    }
}
