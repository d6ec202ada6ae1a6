import Foundation
import Synchronization

/// A CoinGecko API v3 client over Foundation's URLSession (FoundationNetworking on Linux).
///
/// Calls block until an answer, bounded by `timeout` per attempt and at most `maxRetries` further
/// attempts for 429, 5xx and network failures (waiting `Retry-After` when CoinGecko sends one and
/// it is at most `maxRetryWait`, otherwise exponential backoff with jitter). Errors are classified
/// (`CoinfolioError.code`): 429 → `.rateLimited` (details `retry_after_s`); 401/403 and API error
/// codes 10002/10005/10010/10011 → `.unauthorized`; 404 → `.notFound`; other non-2xx → `.http`
/// (details `http_status`); connection failures and timeouts → `.network`; a 2xx body that is not
/// the expected JSON → `.decode`. The API key never appears in an error or a description.
/// Safe to use from several threads.
public final class CoinGeckoClient: Sendable, CustomStringConvertible {
    /// The configuration the client was opened with.
    public let configuration: ClientConfiguration
    private let transport: HTTPTransport
    private let retryPolicy: RetryPolicy
    private let counts = Mutex<[Endpoint: Int]>([:])

    /// The longest `ids=` value sent in one request, in bytes (URLs stay under 8 KB).
    static let maximumIDsLength = 6_000

    /// A client for `configuration`. Makes no request until a method is called.
    public init(configuration: ClientConfiguration = ClientConfiguration()) {
        self.configuration = configuration
        self.transport = HTTPTransport(timeout: configuration.timeout)
        self.retryPolicy = RetryPolicy(configuration)
    }

    /// The configuration with the API key redacted.
    public var description: String { "CoinGeckoClient(\(configuration))" }

    /// HTTP attempts made so far, by endpoint (retries included).
    public var requestCounts: [Endpoint: Int] {
        counts.withLock { $0 }
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
        guard let ids = request.ids else {
            return try fetch(.markets, path: ["coins", "markets"], query: request.query(ids: nil), decode: CoinGeckoBody.markets)
        }
        var unique: [String] = []
        var seen = Set<String>()
        for id in ids where seen.insert(id).inserted { unique.append(id) }
        var merged = MarketsPage(coins: [])
        var rows = LaterRowWins<Coin>()
        var elementsBefore = 0
        for chunk in Self.idChunks(unique) {
            let page = try fetch(.markets, path: ["coins", "markets"], query: request.query(ids: chunk), decode: CoinGeckoBody.markets)
            for coin in page.coins { rows.add(coin) }
            // Skipped indexes count from the first element of the first answer.
            merged.skipped += page.skipped.map { MarketsPage.Skipped(index: $0.index + elementsBefore, reason: $0.reason) }
            merged.warnings += page.warnings.map {
                DecodeWarning(index: $0.index.map { $0 + elementsBefore }, id: $0.id, field: $0.field, reason: $0.reason)
            }
            elementsBefore += page.elementCount
        }
        merged.coins = rows.rows
        return merged
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
        _ endpoint: Endpoint, path: [String], query: [RequestURL.QueryItem] = [], decode: (Data) throws -> T
    ) throws -> T {
        guard let url = RequestURL.make(base: configuration.baseURL, path: path, query: query) else {
            throw CoinfolioError.invalid("cannot build a URL for /\(path.joined(separator: "/"))")
        }
        var headers: [String: String] = [:]
        if let header = configuration.plan.keyHeader, let key = configuration.apiKey { headers[header] = key }

        var attempt = 0
        while true {
            count(endpoint)
            do {
                return try redactingKey(configuration.apiKey) { try attemptOnce(url: url, headers: headers, decode: decode) }
            } catch let error as CoinfolioError {
                guard let wait = retryPolicy.wait(after: error, attempt: attempt) else { throw error }
                attempt += 1
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
        }
    }

    private func attemptOnce<T>(url: URL, headers: [String: String], decode: (Data) throws -> T) throws -> T {
        let response = try transport.get(url, headers: headers, timeout: configuration.timeout)
        if (200..<300).contains(response.status) {
            do {
                return try decode(response.body)
            } catch let error as CoinfolioError {
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
            ?? CoinfolioError(.http, "HTTP \(response.status)", details: ["http_status": .number(Double(response.status))])
    }

    private func count(_ endpoint: Endpoint) {
        counts.withLock { $0[endpoint, default: 0] += 1 }
    }
}
