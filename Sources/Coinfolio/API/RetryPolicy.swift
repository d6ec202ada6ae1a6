import Foundation

/// Which failures are tried again and how long to wait first: 429 waits `Retry-After` when it is
/// at most `maxRetryWait` (a longer or missing one is final); network failures and 5xx back off
/// exponentially with jitter (0.25 s, 0.5 s, 1 s … each scaled by a random 50–100 %, at most
/// `maxRetryWait`); every other error is final. At most `maxRetries` further attempts.
struct RetryPolicy: Sendable {
    /// Further attempts after the first.
    var maxRetries: Int
    /// The longest wait before an attempt, in seconds.
    var maxRetryWait: Double

    init(maxRetries: Int, maxRetryWait: Double) {
        self.maxRetries = maxRetries
        self.maxRetryWait = maxRetryWait
    }

    init(_ configuration: ClientConfiguration) {
        self.init(maxRetries: configuration.maxRetries, maxRetryWait: configuration.maxRetryWait)
    }

    /// Seconds to wait before attempt `attempt + 1` (0-based `attempt` just failed with `error`),
    /// or nil when the error is final or the attempts are used up.
    func wait(after error: CoinfolioError, attempt: Int) -> Double? {
        guard attempt < maxRetries else { return nil }
        switch error.code {
        case .rateLimited:
            if let retryAfter = error.retryAfter { return retryAfter <= maxRetryWait ? retryAfter : nil }
        case .network:
            break
        case .http:
            guard let status = error.httpStatus, status >= 500 else { return nil }
        default:
            return nil
        }
        let base = 0.25 * pow(2, Double(attempt))
        return min(base * Double.random(in: 0.5...1.0), maxRetryWait)
    }
}
