/// The long work (a refresh, a chart download) the current thread is doing, so that a call made
/// from inside it (a progress handler calling back into the engine) that would wait for that
/// same work — which never ends, since it is waiting for the call — is refused with a clear error
/// instead of deadlocking or stopping the process on a recursive lock.
///
/// Bound per thread (a task-local bound outside any task lives in thread-local storage), so
/// other threads are never affected: they wait for the work as usual.
enum WorkInProgress {
    @TaskLocal private static var running: Set<ObjectIdentifier> = []

    /// Runs `body` marked as doing `work` (any object naming it: the engine for its refresh,
    /// a chart's shared request).
    static func doing<T>(_ work: AnyObject, _ body: () throws -> T) rethrows -> T {
        var next = running
        next.insert(ObjectIdentifier(work))
        return try $running.withValue(next, operation: body)
    }

    /// Throws when the current thread is already doing `work`: waiting for it would never end.
    /// - Throws: `.invalidArgument` with `details.reason` "reentrant", saying `what` was called
    ///   from inside the work it would wait for.
    static func refuseNested(_ work: AnyObject, _ what: String) throws {
        guard running.contains(ObjectIdentifier(work)) else { return }
        throw CoinfolioError(
            .invalidArgument,
            "\(what) was called from a progress handler of the work it would wait for (it would never finish)",
            reason: .reentrant)
    }
}
