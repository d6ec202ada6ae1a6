import Foundation

/// The instant by which a client call's decoding must end, so that a huge but valid body cannot
/// keep a call busy past its bound (SPEC §5, issue 17). The client sets it around `decode`;
/// decoders call `check()` once per element (about 25 ns). Outside a client call it is nil and
/// `check()` does nothing (`load` and the `cf_decode_*` functions are not time-bound).
enum DecodeDeadline {
    @TaskLocal static var current: DispatchTime?

    /// Thrown through the tolerant per-element decoding, which must not swallow it.
    struct Passed: Error {}

    /// - Throws: `Passed` when the deadline has passed.
    @inline(__always)
    static func check() throws {
        if let deadline = current, DispatchTime.now() > deadline { throw Passed() }
    }

    /// The error a passed deadline becomes: a timeout, like a transfer that ran out of time.
    static let error = CoinfolioError(
        .network, "the answer could not be decoded within the call's time limit (timed out)",
        reason: .deadline)

    /// Bodies up to this size decode on the calling thread (a few milliseconds at most).
    static let inThreadLimit = 1 << 20

    /// Runs `decode` (of a body of `size` bytes) with `deadline` as `current`, and returns by the
    /// deadline whatever it does. A body of at most `inThreadLimit` bytes decodes on the calling
    /// thread. A larger one decodes on a thread of its own while the caller waits until the
    /// deadline at most: the strict reader's whole-body parse (the `/global`, `/coins/{id}`,
    /// chart and price decoders) cannot stop midway, so when `max_body_bytes` is
    /// raised a 200 MB body would otherwise keep the call busy far past its bound. A call whose
    /// deadline passes first throws the timeout and leaves that decode to finish on its thread,
    /// its result dropped (its memory, the body's size or so, is freed then).
    /// - Throws: what `decode` throws, or `error` when the deadline passes first.
    static func decoding<T>(_ size: Int, until deadline: DispatchTime, _ decode: @escaping () throws -> T) throws -> T {
        if size <= inThreadLimit {
            do {
                return try $current.withValue(deadline) { try decode() }
            } catch is Passed {
                throw error
            }
        }
        let outcome = Outcome<T>()
        // Handed over whole: only the worker ever calls it.
        nonisolated(unsafe) let work = decode
        let worker = Thread {
            let result = Result { try $current.withValue(deadline) { try work() } }
            outcome.finish(result)
        }
        worker.stackSize = 8 << 20  // as a main thread's: Foundation's parser recurses per nesting level
        worker.start()
        guard outcome.done.wait(timeout: deadline) == .success, let result = outcome.result else { throw error }
        do {
            return try result.get()
        } catch is Passed {
            throw error
        }
    }

    /// A decode's result, handed from its thread to the waiting caller (the semaphore orders the
    /// write before the read).
    private final class Outcome<T>: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private(set) var result: Result<T, any Error>?

        func finish(_ result: Result<T, any Error>) {
            self.result = result
            done.signal()
        }
    }
}
