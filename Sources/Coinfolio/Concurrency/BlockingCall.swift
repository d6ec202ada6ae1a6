/// The bridge from async code to Coinfolio's blocking calls (SPEC §21): the call runs on a worker
/// thread of Coinfolio's own (`WorkerThreads`), never on a cooperative thread, while the awaiting
/// task is suspended; the task's cancellation reaches the work (`WorkCancellation`), which stops
/// its requests and throws `CancellationError` without writing anything half-way.
enum BlockingCall {
    /// Runs `body` on a worker thread and returns what it returns.
    /// - Throws: what `body` throws; `CancellationError` when the task was cancelled before the
    ///   work began (nothing ran), or when the work saw the cancellation and stopped.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let cancellation = WorkCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                WorkerThreads.shared.submit {
                    guard !cancellation.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                    continuation.resume(with: Result { try WorkCancellation.$current.withValue(cancellation) { try body() } })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// `run(_:)` for calls that cannot fail but may block.
    /// - Throws: `CancellationError` when the task was cancelled before the work began.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await run { () throws -> T in body() }
    }
}
