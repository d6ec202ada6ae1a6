import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP GET over Foundation's URLSession, made synchronous for the C ABI and bounded by a
/// deadline: the session's own timeouts plus a wait that cancels the task when it runs out.
///
/// One URLSession per transport (so per client handle), made on first use and reused by every
/// request: the platform's URLSession/libcurl keeps 58 bytes per request it makes (a bare
/// URLSession program does the same), and a session per request would add to that. The body is
/// read through a delegate that counts the bytes as they arrive, after decompression, and cancels
/// the transfer as soon as they pass `maxBodyBytes`.
final class HTTPTransport: Sendable {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    private let timeout: Double
    private let maxBodyBytes: Int
    private let delegate = SessionDelegate()
    private let lazySession = Mutex<URLSession?>(nil)

    init(timeout: Double, maxBodyBytes: Int = ClientConfiguration.defaultMaxBodyBytes) {
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
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
            let made = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            lazySession = made
            return made
        }
    }

    /// - Parameter timeout: the most this attempt may take, in seconds (headers and body).
    /// - Throws: `.network` for connection failures and timeouts (never naming headers); `.http`
    ///   with `details.reason` `"body_too_large"` when the body passes `maxBodyBytes`.
    func get(_ url: URL, headers: [String: String], timeout: Double) throws -> Response {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(1, timeout.rounded(.up)) + 1)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

        let transfer = Transfer(limit: maxBodyBytes)
        let task = session.dataTask(with: request)
        delegate.register(transfer, for: task)
        defer { delegate.unregister(task) }
        task.resume()
        if transfer.done.wait(timeout: .now() + max(timeout, 0)) == .timedOut {
            task.cancel()
            // The cancellation completes at once; a short wait keeps the call within its bound.
            _ = transfer.done.wait(timeout: .now() + 0.5)
            if !transfer.isTooLarge {
                throw CoinfolioError(
                    .network, "no complete answer within \(Int(timeout * 1000)) ms (timed out)",
                    reason: .timeout)
            }
        }
        let (data, response, error, tooLarge) = transfer.result()
        if tooLarge {
            throw CoinfolioError(
                .http, "the answer is larger than max_body_bytes (\(maxBodyBytes) bytes); the transfer was stopped",
                reason: .bodyTooLarge, details: ["max_body_bytes": .number(Double(maxBodyBytes))])
        }
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
        return Response(status: http.statusCode, headers: headerFields, body: data)
    }

    /// - Parameter truncated: the answer declared a longer body than arrived.
    private static func networkError(_ error: Error, timeout: Double, truncated: Bool) -> CoinfolioError {
        let reason: CoinfolioError.Reason
        let message: String
        var details: [String: CoinfolioError.Detail] = [:]
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut:
                reason = .timeout; message = "no complete answer within \(Int(timeout * 1000)) ms (timed out)"
            case .cannotConnectToHost:
                reason = .connectionRefused; message = "cannot connect to the host (connection refused)"
            case .cannotFindHost, .dnsLookupFailed:
                reason = .dns; message = "cannot find the host (DNS lookup failed)"
            case .networkConnectionLost, .badServerResponse:
                reason = .connectionLost; message = "the connection closed before a complete answer"
            case .notConnectedToInternet:
                reason = .offline; message = "not connected to the internet"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                reason = .tls; message = "the TLS connection failed"
            case .unknown where truncated:
                // libcurl reports a body cut short as an unknown error; the byte counts tell.
                reason = .truncated; message = "the answer ended before its declared length (truncated body)"
            default:
                reason = .other; message = "the request failed: \(urlError.localizedDescription)"
                details["url_error"] = .number(Double(urlError.code.rawValue))
            }
        } else {
            reason = .other; message = "the request failed: \(error.localizedDescription)"
        }
        return CoinfolioError(.network, message, reason: reason, details: details)
    }

    /// One request's state, filled by the session's delegate.
    final class Transfer: Sendable {
        let done = DispatchSemaphore(value: 0)
        let limit: Int
        private struct State {
            var data = Data()
            var response: URLResponse?
            var error: (any Error)?
            var tooLarge = false
        }
        private let state = Mutex(State())

        init(limit: Int) { self.limit = limit }

        var isTooLarge: Bool { state.withLock { $0.tooLarge } }

        /// false when the body is now over the limit (the caller cancels the task).
        func accept(response: URLResponse) -> Bool {
            // A declared length over the limit fails before any byte is read, unless the body is
            // compressed (then only the decompressed bytes count).
            let declaredTooLarge =
                (response as? HTTPURLResponse).map {
                    $0.expectedContentLength > Int64(limit)
                        && ($0.value(forHTTPHeaderField: "Content-Encoding") ?? "identity").lowercased() == "identity"
                } ?? false
            return state.withLock { state in
                state.response = response
                if declaredTooLarge { state.tooLarge = true }
                return !state.tooLarge
            }
        }

        /// false when the body is now over the limit (the caller cancels the task).
        func append(_ chunk: Data) -> Bool {
            state.withLock { state in
                guard !state.tooLarge else { return false }
                if state.data.count + chunk.count > limit {
                    state.tooLarge = true
                    state.data = Data()
                    return false
                }
                state.data.append(chunk)
                return true
            }
        }

        func finish(_ error: (any Error)?) {
            state.withLock { $0.error = error }
            done.signal()
        }

        func result() -> (Data, URLResponse?, (any Error)?, Bool) {
            state.withLock { ($0.data, $0.response, $0.error, $0.tooLarge) }
        }
    }

    /// The session's delegate: routes each task's events to its `Transfer`, counts the body
    /// as it arrives, and follows no redirect (CoinGecko's API answers in place, and following
    /// one would send the key header to wherever a 3xx points; the 3xx itself is then classified
    /// as an HTTP error).
    private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private let transfers = Mutex<[Int: Transfer]>([:])

        func register(_ transfer: Transfer, for task: URLSessionTask) {
            transfers.withLock { $0[task.taskIdentifier] = transfer }
        }

        func unregister(_ task: URLSessionTask) {
            _ = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        }

        private func transfer(_ task: URLSessionTask) -> Transfer? {
            transfers.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let keep = transfer(dataTask)?.accept(response: response) ?? true
            completionHandler(keep ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            if transfer(dataTask)?.append(data) == false { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            transfer(task)?.finish(error)
        }
    }
}
