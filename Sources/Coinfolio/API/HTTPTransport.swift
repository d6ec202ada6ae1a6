import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP GET over Foundation's URLSession, made synchronous for the C ABI and bounded by a
/// deadline: the session's own timeouts plus a wait that cancels the task when it runs out.
final class HTTPTransport: Sendable {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    private let timeout: Double
    private let lazySession = Mutex<URLSession?>(nil)

    init(timeout: Double) {
        self.timeout = timeout
    }

    deinit { lazySession.withLock { $0?.invalidateAndCancel() } }

    /// The session, made on first use: creating a URLSessionConfiguration makes
    /// swift-corelibs-foundation set up its shared cookie storage (a folder under
    /// $XDG_DATA_HOME), which a client that never sends a request should not do.
    private var session: URLSession {
        lazySession.withLock { lazySession in
            if let lazySession { return lazySession }
            let configuration = URLSessionConfiguration.ephemeral
            // Foundation on Linux counts these in whole seconds (0.5 s would time out at once), so
            // they are a coarse backstop; the exact per-attempt deadline is the wait in `get`.
            let backstop = max(1, timeout.rounded(.up)) + 1
            configuration.timeoutIntervalForRequest = backstop
            configuration.timeoutIntervalForResource = backstop
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpAdditionalHeaders = ["Accept": "application/json", "User-Agent": "Coinfolio/\(Coinfolio.version)"]
            let made = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
            lazySession = made
            return made
        }
    }

    /// - Throws: `.network` for connection failures and timeouts (never naming headers).
    func get(_ url: URL, headers: [String: String], timeout: Double) throws -> Response {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(1, timeout.rounded(.up)) + 1)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            task.cancel()
            _ = done.wait(timeout: .now() + 5)
            throw CoinfolioError(
                .network, "no complete answer within \(Int(timeout * 1000)) ms (timed out)",
                details: ["reason": .string("timeout")])
        }
        let (data, response, error) = box.get()
        if let error {
            // Fewer bytes than the declared Content-Length: the body was cut short.
            let expected = task.countOfBytesExpectedToReceive
            let truncated = expected > 0 && task.countOfBytesReceived < expected
            throw Self.networkError(error, timeout: timeout, truncated: truncated)
        }
        guard let http = response as? HTTPURLResponse else {
            throw CoinfolioError(.network, "the answer was not HTTP")
        }
        var headerFields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headerFields[name.lowercased()] = value }
        }
        return Response(status: http.statusCode, headers: headerFields, body: data ?? Data())
    }

    /// - Parameter truncated: the answer declared a longer body than arrived.
    private static func networkError(_ error: Error, timeout: Double, truncated: Bool) -> CoinfolioError {
        let reason: String
        let message: String
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut:
                reason = "timeout"; message = "no complete answer within \(Int(timeout * 1000)) ms (timed out)"
            case .cannotConnectToHost:
                reason = "connection_refused"; message = "cannot connect to the host (connection refused)"
            case .cannotFindHost, .dnsLookupFailed:
                reason = "dns"; message = "cannot find the host (DNS lookup failed)"
            case .networkConnectionLost, .badServerResponse:
                reason = "connection_lost"; message = "the connection closed before a complete answer"
            case .notConnectedToInternet:
                reason = "offline"; message = "not connected to the internet"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                reason = "tls"; message = "the TLS connection failed"
            case .unknown where truncated:
                // libcurl reports a body cut short as an unknown error; the byte counts tell.
                reason = "truncated"; message = "the answer ended before its declared length (truncated body)"
            default:
                reason = "url_error_\(urlError.code.rawValue)"; message = "the request failed: \(urlError.localizedDescription)"
            }
        } else {
            reason = "other"; message = "the request failed: \(error.localizedDescription)"
        }
        return CoinfolioError(.network, message, details: ["reason": .string(reason)])
    }

    /// Follows no redirect: CoinGecko's API answers in place, and following one would send the
    /// key header to wherever a 3xx points. The 3xx itself is then classified as an HTTP error.
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    /// The completion handler's arguments, handed from URLSession's queue to the waiting caller.
    private final class ResultBox: Sendable {
        private let value = Mutex<(data: Data?, response: URLResponse?, error: (any Error)?)>((nil, nil, nil))

        func set(data: Data?, response: URLResponse?, error: (any Error)?) {
            value.withLock { $0 = (data, response, error) }
        }

        func get() -> (Data?, URLResponse?, (any Error)?) {
            value.withLock { ($0.data, $0.response, $0.error) }
        }
    }
}
