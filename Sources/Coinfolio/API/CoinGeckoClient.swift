import Foundation

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
public final class CoinGeckoClient: @unchecked Sendable, CustomStringConvertible {
    /// The configuration the client was opened with.
    public let configuration: ClientConfiguration
    private let transport: HTTPTransport
    private let counterLock = NSLock()
    private var counts: [Endpoint: Int] = [:]

    /// The longest `ids=` value sent in one request, in bytes (URLs stay under 8 KB).
    static let maximumIDsLength = 6_000

    /// Error codes CoinGecko uses for a missing, invalid or wrong-plan key.
    static let unauthorizedErrorCodes: Set<Int> = [10002, 10005, 10010, 10011]

    /// A client for `configuration`. Makes no request until a method is called.
    public init(configuration: ClientConfiguration = ClientConfiguration()) {
        self.configuration = configuration
        self.transport = HTTPTransport(timeout: configuration.timeout, maxBodyBytes: configuration.maxBodyBytes)
    }

    /// The configuration with the API key redacted.
    public var description: String { "CoinGeckoClient(\(configuration))" }

    /// HTTP attempts made so far, by endpoint (retries included).
    public var requestCounts: [Endpoint: Int] {
        counterLock.lock(); defer { counterLock.unlock() }
        return counts
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
            return try fetch(.markets, path: "/coins/markets", query: request.query(ids: nil), decode: CoinGeckoBody.markets)
        }
        var unique: [String] = []
        var seen = Set<String>()
        for id in ids where seen.insert(id).inserted { unique.append(id) }
        var merged = MarketsPage(coins: [])
        var position: [String: Int] = [:]
        var start = 0
        var elementsBefore = 0
        while start < unique.count {
            // At most 250 ids, and at most about 6 KB of them once encoded: servers refuse long
            // URLs (414) well before 250 ids of 128 bytes.
            var end = start
            var length = 0
            while end < unique.count, end - start < MarketsRequest.maximumPerPage {
                let encoded = CoinID.percentEncoded(unique[end]).utf8.count + 1
                if end > start, length + encoded > Self.maximumIDsLength { break }
                length += encoded
                end += 1
            }
            let chunk = Array(unique[start..<end])
            start = end
            let page = try fetch(.markets, path: "/coins/markets", query: request.query(ids: chunk), decode: CoinGeckoBody.markets)
            for coin in page.coins {
                if let index = position[coin.id] {
                    merged.coins[index] = coin
                } else {
                    position[coin.id] = merged.coins.count
                    merged.coins.append(coin)
                }
            }
            // Skipped indexes count from the first element of the first answer.
            merged.skipped += page.skipped.map { MarketsPage.Skipped(index: $0.index + elementsBefore, reason: $0.reason) }
            elementsBefore += page.elementCount
        }
        return merged
    }

    /// `GET /global`: the whole market's figures.
    /// - Throws: `CoinfolioError` as classified in the type's documentation.
    public func global() throws -> MarketData {
        try fetch(.global, path: "/global", query: [], decode: CoinGeckoBody.global)
    }

    /// `GET /coins/{id}` with `localization`, `tickers`, `market_data`, `community_data`,
    /// `developer_data` and `sparkline` all false.
    /// - Parameter id: a coin id (`CoinID` rule), percent-encoded as one path segment.
    /// - Throws: `.invalidArgument` for a bad id (no request made); otherwise as classified.
    public func coinDetail(id: String) throws -> CoinDetail {
        try CoinID.validate(id)
        let query = ["localization", "tickers", "market_data", "community_data", "developer_data", "sparkline"].map { ($0, "false") }
        return try fetch(.detail, path: "/coins/" + CoinID.percentEncoded(id), query: query, decode: CoinGeckoBody.coinDetail)
    }

    // MARK: - Requests, classification, retries

    private func fetch<T>(_ endpoint: Endpoint, path: String, query: [(String, String)], decode: (Data) throws -> T) throws -> T {
        var text = configuration.baseURL + path
        if !query.isEmpty { text += "?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&") }
        guard let url = URL(string: text) else { throw CoinfolioError.invalid("cannot build a URL for \(path)") }
        var headers: [String: String] = [:]
        if let header = configuration.plan.keyHeader, let key = configuration.apiKey { headers[header] = key }

        var attempt = 0
        while true {
            count(endpoint)
            do {
                return try redactingKey { try attemptOnce(url: url, headers: headers, decode: decode) }
            } catch let error as CoinfolioError {
                guard attempt < configuration.maxRetries, let wait = retryWait(after: error, attempt: attempt) else { throw error }
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
                if let apiError = Self.classify(
                    status: response.status, headers: response.headers, body: response.body, apiKey: configuration.apiKey)
                {
                    throw apiError
                }
                throw CoinfolioError(.decode, "the answer is not the expected CoinGecko JSON: \(error.message)")
            }
        }
        throw Self.classify(status: response.status, headers: response.headers, body: response.body, apiKey: configuration.apiKey)
            ?? CoinfolioError(.http, "HTTP \(response.status)", details: ["http_status": .number(Double(response.status))])
    }

    /// How long to wait before trying again, or nil when the error is final.
    private func retryWait(after error: CoinfolioError, attempt: Int) -> Double? {
        switch error.code {
        case .rateLimited:
            if let retryAfter = error.retryAfter { return retryAfter <= configuration.maxRetryWait ? retryAfter : nil }
        case .network:
            break
        case .http:
            guard let status = error.httpStatus, status >= 500 else { return nil }
        default:
            return nil
        }
        // Exponential backoff with jitter: 0.25 s, 0.5 s, 1 s … each scaled by a random 50–100 %.
        let base = 0.25 * pow(2, Double(attempt))
        return min(base * Double.random(in: 0.5...1.0), configuration.maxRetryWait)
    }

    /// Classifies a non-2xx answer (or a 2xx CoinGecko error object). nil: a plain HTTP error.
    /// CoinGecko's own message is quoted with `apiKey` redacted first (any letter case), then cut
    /// to 200 bytes, so no part of the key can survive.
    static func classify(status: Int, headers: [String: String], body: Data, apiKey: String? = nil) -> CoinfolioError? {
        let api = APIErrorBody(body)
        var details: [String: CoinfolioError.Detail] = ["http_status": .number(Double(status))]
        if let code = api?.errorCode { details["error_code"] = .number(Double(code)) }
        let said = api?.message.map { ": \(redacting(apiKey, in: $0).truncated(200))" } ?? ""

        if status == 429 || api?.errorCode == 429 {
            var message = "CoinGecko rate limit reached (HTTP 429)\(said)"
            if let retryAfter = headers["retry-after"].flatMap(parseRetryAfter) {
                details["retry_after_s"] = .number(retryAfter)
                message += "; retry after \(NumberFormat.number(retryAfter).replacingOccurrences(of: ".00", with: "")) s"
            }
            return CoinfolioError(.rateLimited, message, details: details)
        }
        if let code = api?.errorCode, unauthorizedErrorCodes.contains(code) {
            return CoinfolioError(.unauthorized, "CoinGecko refused the API key (error \(code))\(said)", details: details)
        }
        switch status {
        case 200..<300:
            return nil
        case 401, 403:
            return CoinfolioError(.unauthorized, "CoinGecko refused the request (HTTP \(status))\(said)", details: details)
        case 404:
            return CoinfolioError(.notFound, "not found (HTTP 404)\(said)", details: details)
        default:
            return CoinfolioError(.http, "HTTP \(status)\(said)", details: details)
        }
    }

    /// `Retry-After` in seconds: delta-seconds, or an HTTP date.
    static func parseRetryAfter(_ value: String) -> Double? {
        let text = value.trimmingSpaces
        if let seconds = Double(text), seconds.isFinite, seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSinceNow.rounded(.up))
    }

    private func count(_ endpoint: Endpoint) {
        counterLock.lock(); defer { counterLock.unlock() }
        counts[endpoint, default: 0] += 1
    }

    /// Runs `body`, removing the API key from any error message it throws.
    private func redactingKey<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as CoinfolioError {
            error.message = redacting(configuration.apiKey, in: error.message)
            throw error
        }
    }
}

/// `text` with every occurrence of `key` (in any letter case) replaced by "[redacted]".
/// `text` with the key, and any word that is a piece of it, replaced by "[redacted]".
///
/// A word is a run of letters, digits, `-`, `_`, `.` and `%`; it is a piece of the key when,
/// percent-decoded and ignoring case, it is at least 6 characters long and the key contains it
/// (or it contains the key). So a key echoed whole, cut short, cut at the front, or
/// percent-encoded never survives.
func redacting(_ key: String?, in text: String) -> String {
    guard let key, !key.isEmpty else { return text }
    let lowerKey = key.lowercased()
    var out = ""
    var word = ""
    func flush() {
        let decoded = (word.removingPercentEncoding ?? word).lowercased()
        let isPiece = decoded.count >= min(6, lowerKey.count) && (lowerKey.contains(decoded) || decoded.contains(lowerKey))
        out += isPiece && !word.isEmpty ? "[redacted]" : word
        word = ""
    }
    for character in text {
        if character.isLetter || character.isNumber || "-_.%".contains(character) {
            word.append(character)
        } else {
            flush()
            out.append(character)
        }
    }
    flush()
    return out
}

/// CoinGecko's error bodies: `{"status":{"error_code":N,"error_message":"…"}}`,
/// `{"error":{"status":{…}}}`, `{"error":"…"}` and `{"status":500,"error":"…"}`.
/// An HTML or plain-text body reads as nil: it is classified by status alone.
struct APIErrorBody {
    var errorCode: Int?
    var message: String?

    init?(_ body: Data) {
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }),
            first == UInt8(ascii: "{"),
            let object = try? JSONSerialization.jsonObject(with: CoinGeckoBody.withoutBOM(body)) as? [String: Any]
        else { return nil }
        func read(status: [String: Any]) {
            if let code = status["error_code"] as? NSNumber { errorCode = code.intValue }
            if let text = status["error_message"] as? String { message = text.trimmingSpaces }
        }
        if let status = object["status"] as? [String: Any] { read(status: status) }
        if let error = object["error"] as? [String: Any], let status = error["status"] as? [String: Any] { read(status: status) }
        if let text = object["error"] as? String { message = text.trimmingSpaces }
        if errorCode == nil && message == nil { return nil }
    }
}
