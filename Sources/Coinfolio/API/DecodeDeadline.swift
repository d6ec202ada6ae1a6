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
}
