import Dispatch
import Synchronization

/// The cancellation of one async call's blocking work (SPEC §21): the `Task` that awaits the call
/// cancels it, and the work, running on a worker thread (`WorkerThreads`), sees it where it waits —
/// an HTTP transfer (`HTTPTransport.get`), a retry's backoff, an import between chunks — and
/// stops there with `CancellationError`, before it writes anything it had not finished.
///
/// Bound to the worker thread for the length of the call (a task-local bound outside any task
/// lives in thread-local storage); a blocking call made outside `BlockingCall` has none, and
/// `check()` then does nothing.
final class WorkCancellation: Sendable {
    @TaskLocal static var current: WorkCancellation?

    private struct State {
        var isCancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
    }
    private let state = Mutex(State())

    /// Whether the awaiting task was cancelled.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Marks the work cancelled and runs every registered handler once (outside the lock).
    func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Runs `body` with `handler` registered: called once, from the cancelling thread, if the
    /// work is cancelled while `body` runs (at once when it already was).
    func whileRunning<T>(onCancel handler: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        let key = state.withLock { state -> Int? in
            guard !state.isCancelled else { return nil }
            state.nextHandler += 1
            state.handlers[state.nextHandler] = handler
            return state.nextHandler
        }
        if key == nil { handler() }
        defer { if let key { _ = state.withLock { $0.handlers.removeValue(forKey: key) } } }
        return try body()
    }

    /// - Throws: `CancellationError` when the current thread's work was cancelled.
    static func check() throws {
        if let current, current.isCancelled { throw CancellationError() }
    }

    /// Waits for `semaphore` until `deadline`, woken early when the current thread's work is
    /// cancelled (the semaphore is then signalled once more than its owner did).
    /// - Returns: `.timedOut` when the deadline passed first.
    /// - Throws: `CancellationError` when the work was cancelled before or while waiting.
    static func wait(for semaphore: DispatchSemaphore, until deadline: DispatchTime) throws -> DispatchTimeoutResult {
        guard let current else { return semaphore.wait(timeout: deadline) }
        let result = current.whileRunning(onCancel: { semaphore.signal() }) { semaphore.wait(timeout: deadline) }
        try check()
        return result
    }

    /// Sleeps `seconds` (a retry's backoff), ending early when the current thread's work is
    /// cancelled.
    /// - Throws: `CancellationError` when the work was cancelled before or while sleeping.
    static func sleep(seconds: Double) throws {
        _ = try wait(for: DispatchSemaphore(value: 0), until: .now() + seconds)
    }
}
