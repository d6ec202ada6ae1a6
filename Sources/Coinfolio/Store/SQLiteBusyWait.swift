import Foundation

/// One SQLite connection's busy handler (in place of `sqlite3_busy_timeout`, which cannot say
/// whether it waited): pauses of 1, 2, 3 … 25 ms while another connection holds the lock, for
/// at most `timeout` seconds from the first call of one wait (or until the call's own bound,
/// `bound`, when that comes first), then gives up and sets `expired`. Used by its connection's
/// calls only, which its owner serializes.
final class BusyWait {
    let timeout: Double
    /// Set when the handler gave up after waiting `timeout`; cleared before each statement.
    var expired = false
    /// The end of the call's budget for this statement's wait (`Database.boundNextWait(by:)`):
    /// set before the call's first statement, cleared after it.
    var bound: ContinuousClock.Instant?
    private var deadline = ContinuousClock.now

    init(timeout: Double) { self.timeout = timeout }

    /// SQLite's busy-handler answer: 1 to try again after a pause, 0 to give up.
    /// - Parameter count: how many times the handler was called for this wait (0 the first).
    func shouldWait(after count: Int32) -> Int32 {
        let now = ContinuousClock.now
        if count == 0 {
            deadline = now + .milliseconds(Int64((min(timeout, DatabaseTimeout.longestSeconds) * 1000).rounded(.up)))
            if let bound, bound < deadline { deadline = bound }
        }
        let (seconds, attoseconds) = now.duration(to: deadline).components
        let left = Double(seconds) + Double(attoseconds) / 1e18
        guard left > 0 else {
            expired = true
            return 0
        }
        let pause = min(Double(min(count, 24) + 1) / 1000, left)
        usleep(UInt32(max(pause, 0) * 1_000_000))
        return 1
    }
}
