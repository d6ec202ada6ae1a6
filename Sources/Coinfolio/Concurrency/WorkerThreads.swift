import Foundation

/// Threads of Coinfolio's own for the blocking work behind the async API (SPEC §21): a refresh
/// waiting seconds on the network, a query waiting on the database. Never the cooperative pool's
/// threads (a blocked cooperative thread stalls every task of the process); never one thread per
/// call either (starting a thread costs more than a cached query).
///
/// A job goes to an idle thread when there is one, else to a new thread, up to `maximumThreads`;
/// past that, jobs wait in order for the first thread to come free. A thread idle for
/// `idleSeconds` ends, so a process that stops calling keeps none.
final class WorkerThreads: @unchecked Sendable {
    /// The process's workers, shared by every engine and client.
    static let shared = WorkerThreads(maximumThreads: 64, idleSeconds: 10)

    private let maximumThreads: Int
    private let idleSeconds: Double
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var nextJob = 0
    private var threads = 0
    private var idle = 0

    init(maximumThreads: Int, idleSeconds: Double) {
        self.maximumThreads = maximumThreads
        self.idleSeconds = idleSeconds
    }

    /// The threads alive now (for tests).
    var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    /// Runs `job` on a worker thread; returns at once.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let waiting = jobs.count - nextJob
        let startsThread = waiting > idle && threads < maximumThreads
        if startsThread { threads += 1 } else { condition.signal() }
        condition.unlock()
        if startsThread {
            let thread = Thread { [self] in work() }
            thread.name = "Coinfolio.worker"
            thread.stackSize = 8 << 20  // as a main thread's: the strict reader recurses per nesting level
            thread.start()
        }
    }

    /// Whether the current thread is one of these workers (a task-local outside any task lives in
    /// thread-local storage).
    @TaskLocal static var isWorkerThread = false

    /// A worker's loop: take the next job, run it, wait for more until idle too long.
    private func work() {
        Self.$isWorkerThread.withValue(true) { loop() }
    }

    private func loop() {
        condition.lock()
        while true {
            if nextJob < jobs.count {
                let job = jobs[nextJob]
                nextJob += 1
                if nextJob == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    nextJob = 0
                }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            idle += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleSeconds))
            idle -= 1
            if !signalled, nextJob == jobs.count {
                threads -= 1
                condition.unlock()
                return
            }
        }
    }
}
