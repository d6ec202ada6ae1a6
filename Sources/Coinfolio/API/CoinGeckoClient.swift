import Foundation
import Synchronization

/// A CoinGecko API v3 client over Foundation's URLSession (FoundationNetworking on Linux).
///
/// Calls block until an answer, bounded by `timeout` per attempt and at most `maxRetries` further
/// attempts for 429, 5xx and network failures (waiting `Retry-After` when CoinGecko sends one and
/// it is at most `maxRetryWait`, otherwise exponential backoff with jitter). A whole call —
/// attempts, backoff and decoding — ends within `timeout × (maxRetries + 1)` plus the Retry-After
/// waits it chose, plus a small constant; a body over `maxBodyBytes` is stopped while it is read.
/// Errors are classified (`CoinfolioError.code`, see `ErrorClassifier`): 429 → `.rateLimited`
/// (details `retry_after_s`); 401 and API error codes 10002/10005/10010/10011/10012 →
/// `.unauthorized`; 404 → `.notFound`; other non-2xx → `.http` (details `http_status`);
/// connection failures and timeouts → `.network`; a 2xx body that is not the expected JSON →
/// `.decode`. After a 429 whose Retry-After was not waited out (too long, or retries ran out),
/// the client remembers when it may send again; until then every call that would send fails at
/// once with `.rateLimited`, `details.sent` false and `retry_after_s` the seconds left, and
/// nothing is sent (`suppressedRequests` counts these). No run of 6 characters of the API key
/// appears in an error or a description. A request to a loopback address that libcurl would send
/// through a proxy of the environment (`http_proxy`, `ALL_PROXY`…; see `ProxyEnvironment`) is
/// refused unsent: `.network`, `details.reason` `"proxy"`. Safe to use from several threads.
public final class CoinGeckoClient: Sendable, CustomStringConvertible {
    /// The configuration the client was opened with.
    public let configuration: ClientConfiguration
    private let transport: HTTPTransport
    private let retryPolicy: RetryPolicy
    private let counts = Mutex<[Endpoint: Int]>([:])
    /// When this handle may send again after a 429 it did not wait out (monotonic clock), and
    /// how many calls were refused unsent meanwhile.
    private let rateLimit = Mutex<(sendAllowedAt: DispatchTime?, suppressed: Int)>((nil, 0))

    /// The longest Retry-After remembered, in seconds (a hostile "Retry-After: 999999999" would
    /// otherwise silence the handle for decades).
    static let maximumRememberedWait = 86_400.0

    /// The longest `ids=` value sent in one request, in bytes (URLs stay under 8 KB).
    static let maximumIDsLength = 6_000

    /// A client for `configuration`. Makes no request until a method is called.
    public init(configuration: ClientConfiguration = ClientConfiguration()) {
        self.configuration = configuration
        self.transport = HTTPTransport(timeout: configuration.timeout, maxBodyBytes: configuration.maxBodyBytes)
        self.retryPolicy = RetryPolicy(configuration)
    }

    /// The configuration with the API key redacted.
    public var description: String { "CoinGeckoClient(\(configuration))" }

    /// HTTP attempts made so far, by endpoint (retries included).
    public var requestCounts: [Endpoint: Int] {
        counts.withLock { $0 }
    }

    /// Calls refused without sending because a remembered Retry-After had not passed yet.
    public var suppressedRequests: Int {
        rateLimit.withLock { $0.suppressed }
    }

    /// Seconds until this handle may send again after a remembered 429 (0 when it may now).
    public var secondsUntilAllowed: Double {
        guard let until = rateLimit.withLock({ $0.sendAllowedAt }) else { return 0 }
        let now = DispatchTime.now()
        return now < until ? Double(until.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9 : 0
    }

    // MARK: - Endpoints

    /// `GET /coins/markets`: market rows for the top list or for given ids.
    ///
    /// More than 250 ids (or more than about 6 KB of them, percent-encoded) are asked in several
    /// requests and merged (one row per id).
    /// An empty `ids` list makes no request and returns no coins.
    /// - Returns: the coins, and the elements skipped as undecodable.
    /// - Throws: `CoinfolioError` as classified in the type's documentation.
    public func markets(_ request: MarketsRequest) throws -> MarketsPage {
        var rows = MarketRows()
        try markets(request, into: &rows)
        return rows.page()
    }

    /// `markets(_:)` decoding every answer into `rows` (`MarketRows`, the one merge: a refresh
    /// passes the same rows for all its pages). On a throw, `rows` may hold part of the answer or
    /// none of it: the caller drops it.
    func markets(_ request: MarketsRequest, into rows: inout MarketRows) throws {
        // A large body decodes on a thread of its own (`DecodeDeadline.decoding`), so the rows
        // travel in a box that one decode at a time takes and gives back.
        let box = MarketRows.Box(rows)
        rows = MarketRows()
        defer { rows = box.rows() }
        guard let ids = request.ids else {
            try fetch(.markets, path: ["coins", "markets"], query: request.query(ids: nil)) { try box.decode($0) }
            return
        }
        var unique: [String] = []
        var seen = Set<String>()
        for id in ids where seen.insert(id).inserted { unique.append(id) }
        for chunk in Self.idChunks(unique) {
            try fetch(.markets, path: ["coins", "markets"], query: request.query(ids: chunk)) { try box.decode($0) }
        }
    }

    /// `GET /global`: the whole market's figures.
    /// - Throws: `CoinfolioError` as classified in the type's documentation.
    public func global() throws -> MarketData {
        try fetch(.global, path: ["global"], decode: CoinGeckoBody.global)
    }

    /// `GET /coins/{id}` with `localization`, `tickers`, `market_data`, `community_data`,
    /// `developer_data` and `sparkline` all false.
    /// - Parameter id: a coin id (`CoinID` rule), percent-encoded as one path segment.
    /// - Throws: `.invalidArgument` for a bad id (no request made); otherwise as classified.
    public func coinDetail(id: String) throws -> CoinDetail {
        try CoinID.validate(id)
        let query = ["localization", "tickers", "market_data", "community_data", "developer_data", "sparkline"].map {
            RequestURL.QueryItem($0, false)
        }
        return try fetch(.detail, path: ["coins", id], query: query, decode: CoinGeckoBody.coinDetail)
    }

    // MARK: - Requests (retries: RetryPolicy; errors: ErrorClassifier; the key: KeyRedaction)

    /// A small constant on top of the call bound: cancelling a late transfer, building errors.
    static let callBoundSlack = 1.0

    /// `ids` cut into the pieces one request may carry: at most 250 ids, and at most about 6 KB
    /// of them once percent-encoded (servers refuse long URLs, 414, well before 250 ids of 128
    /// bytes). Every id lands in exactly one piece, in order.
    static func idChunks(_ ids: [String]) -> [[String]] {
        var chunks: [[String]] = []
        var start = 0
        while start < ids.count {
            var end = start
            var length = 0
            while end < ids.count, end - start < MarketsRequest.maximumPerPage {
                let encoded = CoinID.percentEncoded(ids[end]).utf8.count + 1
                if end > start, length + encoded > Self.maximumIDsLength { break }
                length += encoded
                end += 1
            }
            chunks.append(Array(ids[start..<end]))
            start = end
        }
        return chunks
    }

    /// GET `path` (one segment per element, each percent-encoded) with `query` under the base URL.
    /// The endpoint files of this type call it (`CoinGeckoClient+Charts.swift`).
    func fetch<T>(
        _ endpoint: Endpoint, path: [String], query: [RequestURL.QueryItem] = [], decode: @escaping (Data) throws -> T
    ) throws -> T {
        guard let url = RequestURL.make(base: configuration.baseURL, path: path, query: query) else {
            throw CoinfolioError.invalid("cannot build a URL for /\(path.joined(separator: "/"))")
        }
        var headers: [String: String] = [:]
        if let header = configuration.plan.keyHeader, let key = configuration.apiKey { headers[header] = key }

        try ProxyEnvironment.refuseLoopbackThroughProxy(url)
        try refuseWhileRateLimited()
        // The call's budget: timeout × (max_retries + 1) for attempts, backoff and decoding; a
        // Retry-After wait the call chooses to make is added to it.
        let timeout = configuration.timeout
        var deadline = DispatchTime.now() + timeout * Double(configuration.maxRetries + 1)
        var attempt = 0
        while true {
            count(endpoint)
            let attemptTimeout = min(timeout, max(secondsLeft(until: deadline), 0.001))
            do {
                return try redactingKey(configuration.apiKey) {
                    try attemptOnce(url: url, headers: headers, decode: decode, timeout: attemptTimeout, deadline: deadline)
                }
            } catch let error as CoinfolioError {
                let wait = retryPolicy.wait(after: error, attempt: attempt)
                let isRetryAfter = error.code == .rateLimited && error.retryAfter != nil
                guard let wait else {
                    // A Retry-After not waited out (too long, or no retry left) is remembered.
                    if isRetryAfter, let retryAfter = error.retryAfter { remember(retryAfter: retryAfter) }
                    throw error
                }
                if isRetryAfter {
                    deadline = deadline + wait
                } else if wait + 0.01 >= secondsLeft(until: deadline) {
                    throw error  // no time left in the call's budget for another attempt
                }
                attempt += 1
                if wait > 0 { try WorkCancellation.sleep(seconds: wait) }
            }
        }
    }

    private func secondsLeft(until deadline: DispatchTime) -> Double {
        let now = DispatchTime.now()
        return now < deadline ? Double(deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9 : 0
    }

    /// Throws `.rateLimited` (nothing sent) while a remembered Retry-After runs.
    private func refuseWhileRateLimited() throws {
        let left: Double? = rateLimit.withLock { state in
            guard let until = state.sendAllowedAt else { return nil }
            let now = DispatchTime.now()
            guard now < until else {
                state.sendAllowedAt = nil
                return nil
            }
            state.suppressed += 1
            return (Double(until.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9).rounded(.up)
        }
        guard let left else { return }
        throw CoinfolioError(
            .rateLimited, "CoinGecko asked to wait before the next request: \(Int(left)) s left; nothing was sent",
            details: [.retryAfterS: .number(left), .sent: .bool(false)])
    }

    private func remember(retryAfter: Double) {
        let until = DispatchTime.now() + min(retryAfter, Self.maximumRememberedWait)
        rateLimit.withLock { state in
            if let current = state.sendAllowedAt, current > until { return }
            state.sendAllowedAt = until
        }
    }

    private func attemptOnce<T>(
        url: URL, headers: [String: String], decode: @escaping (Data) throws -> T, timeout: Double, deadline: DispatchTime
    ) throws -> T {
        let response = try transport.get(url, headers: headers, timeout: timeout)
        if (200..<300).contains(response.status) {
            do {
                let body = response.body
                return try DecodeDeadline.decoding(body.count, until: deadline + Self.callBoundSlack / 2) { try decode(body) }
            } catch let error as CoinfolioError {
                if error.reason == .deadline { throw error }
                // A 2xx error object ({"status":{"error_code":10002}}) is an API error, not data.
                if let apiError = ErrorClassifier.classify(
                    status: response.status, headers: response.headers, body: response.body, apiKey: configuration.apiKey)
                {
                    throw apiError
                }
                throw CoinfolioError(.decode, "the answer is not the expected CoinGecko JSON: \(error.message)")
            }
        }
        throw ErrorClassifier.classify(
            status: response.status, headers: response.headers, body: response.body, apiKey: configuration.apiKey)
            ?? CoinfolioError(.http, "HTTP \(response.status)", details: [.httpStatus: .number(Double(response.status))])
    }

    private func count(_ endpoint: Endpoint) {
        counts.withLock { $0[endpoint, default: 0] += 1 }
    }
}
