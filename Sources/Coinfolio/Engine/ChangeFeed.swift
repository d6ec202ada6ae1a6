import Dispatch
import Foundation
import Synchronization

/// The subscribers of one engine's `changes` and the watcher that looks for changes made
/// elsewhere (SPEC §21).
///
/// Each `stream()` is one subscriber. While there is at least one, a watcher thread of its own
/// (never a cooperative thread) calls `poll` every `interval`: one indexed read of the database's
/// change versions, at most twice a second, so a change made by another engine or process is
/// delivered within a second. With no subscriber left the watcher ends. This engine's own
/// changes are published at once by the calls that make them.
final class ChangeFeed: Sendable {
    /// How often the watcher reads the versions.
    static let interval: Double = 0.5

    private struct State {
        var subscribers: [Int: AsyncStream<EngineChange>.Continuation] = [:]
        var nextSubscriber = 0
        /// Wakes the running watcher (to end it); nil when none runs.
        var watcher: DispatchSemaphore?
        /// The owner's ledger change counter as last accounted for (own writes and reports).
        var ledgerSeen: Int64?
    }
    private let state = Mutex(State())

    /// Whether the watcher has read the ledger counter that changes made elsewhere are counted from.
    var hasBaseline: Bool { state.withLock { $0.ledgerSeen != nil } }

    /// Whether anyone listens (publishing costs nothing otherwise).
    var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// A new subscriber's stream. The first subscriber starts the watcher, which calls `poll` at
    /// once (its first read of the ledger counter is the baseline later changes are counted
    /// from: `hasBaseline`), then every `interval`; `poll` returns false once the engine is gone,
    /// and the watcher then ends.
    func stream(poll: @escaping @Sendable () -> Bool) -> AsyncStream<EngineChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: EngineChange.self, bufferingPolicy: .bufferingNewest(256))
        let startsWatcher = state.withLock { state -> DispatchSemaphore? in
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            guard state.watcher == nil else { return nil }
            let wake = DispatchSemaphore(value: 0)
            state.watcher = wake
            return wake
        }
        if let wake = startsWatcher {
            let thread = Thread { [weak self] in self?.watch(wake, poll: poll) }
            thread.name = "Coinfolio.changes"
            thread.start()
        }
        return stream
    }

    private func remove(_ id: Int) {
        let wake = state.withLock { state -> DispatchSemaphore? in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return nil }
            state.ledgerSeen = nil
            defer { state.watcher = nil }
            return state.watcher
        }
        wake?.signal()
    }

    /// The watcher's loop: poll every `interval` until woken by the last subscriber leaving.
    private func watch(_ wake: DispatchSemaphore, poll: @Sendable () -> Bool) {
        guard poll() else { return }
        while wake.wait(timeout: .now() + Self.interval) == .timedOut {
            guard state.withLock({ $0.watcher === wake }), poll() else { return }
        }
    }

    /// Sends `change` to every subscriber.
    func publish(_ change: EngineChange) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(change) }
    }

    /// This engine wrote its ledger (counter: the owner's change counter after the write):
    /// publishes `.ledger(portfolio:)`. A write by another process in between (the counter
    /// jumped) stays unaccounted, for the watcher to report.
    func ownLedgerWrite(portfolio: String?, counter: Int64?) {
        guard hasSubscribers else { return }
        state.withLock { state in
            if let counter, let seen = state.ledgerSeen, counter == seen + 1 { state.ledgerSeen = counter }
        }
        publish(.ledger(portfolio: portfolio))
    }

    /// The watcher read the owner's change counter: a change not accounted for is reported as
    /// `.ledger(portfolio: nil)`.
    func ledgerCounterRead(_ counter: Int64) {
        let changed = state.withLock { state -> Bool in
            guard let seen = state.ledgerSeen else {
                state.ledgerSeen = counter
                return false
            }
            guard counter > seen else { return false }
            state.ledgerSeen = counter
            return true
        }
        if changed { publish(.ledger(portfolio: nil)) }
    }
}
