import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP GET over Foundation's URLSession, made synchronous for the C ABI and bounded by a
/// deadline: the session's own timeouts plus a wait that cancels the task when it runs out.
///
/// One URLSession for the whole process, made on first use and shared by every transport (so
/// every client and engine handle): a session (libcurl's multi handle, its connection cache and
/// buffers) cost each handle that refreshed about 70 KB, and a service holds an engine per user
/// (SPEC §20). Each request carries its own timeout and body limit; the session's one delegate
/// routes each task's events to its transfer. The platform's URLSession/libcurl keeps 58 bytes
/// per request it makes (a bare URLSession program does the same). The body is
/// read through a delegate that counts the bytes as they arrive, after decompression, and stops
/// the transfer as soon as they pass `maxBodyBytes`.
///
/// Decompression is libcurl's (swift-corelibs-foundation always sets `CURLOPT_ACCEPT_ENCODING`
/// and cannot pause or fail a transfer from its write callback): it inflates a gzip or deflate
/// answer 16 KB at a time and hands each piece to the session's delegate queue without waiting.
/// Through an ordinary queue a 2 MB gzip bomb piled 2 GB of pieces up before the delegate could
/// stop it. `InlineDelegateQueue` runs the delegate inside libcurl's callback, so each piece is
/// counted (and, past the limit, dropped) as it is made: memory stays near `maxBodyBytes`, and
/// the call returns `body_too_large` at once. libcurl still inflates what it reads of that body
/// (dropped as it comes) until the cancel takes effect; that session is retired, so the next
/// request starts on a new one instead of waiting behind it.
final class HTTPTransport: Sendable {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    private let timeout: Double
    private let maxBodyBytes: Int

    init(timeout: Double, maxBodyBytes: Int = ClientConfiguration.defaultMaxBodyBytes) {
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
    }

    /// The process's session and the delegate of every session made here.
    private static let sharedSession = Mutex<URLSession?>(nil)
    private static let delegate = SessionDelegate()

    /// The process's session, made on first use: creating a URLSessionConfiguration makes
    /// swift-corelibs-foundation set up its shared cookie storage (a folder under
    /// $XDG_DATA_HOME), which a process that never sends a request should not do.
    private var session: URLSession {
        Self.sharedSession.withLock { shared in
            if let shared { return shared }
            let configuration = URLSessionConfiguration.ephemeral
            // Every request carries its own timeout (`get`), so the session's are a backstop only.
            configuration.timeoutIntervalForRequest = 3600
            configuration.timeoutIntervalForResource = 3600
            configuration.httpMaximumConnectionsPerHost = 16
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpAdditionalHeaders = ["Accept": "application/json", "User-Agent": "Coinfolio/\(Coinfolio.version)"]
            let made = URLSession(configuration: configuration, delegate: Self.delegate, delegateQueue: InlineDelegateQueue())
            shared = made
            return made
        }
    }

    /// - Parameter timeout: the most this attempt may take, in seconds (headers and body).
    /// - Throws: `.network` for connection failures and timeouts (never naming headers); `.http`
    ///   with `details.reason` `"body_too_large"` when the body passes `maxBodyBytes`;
    ///   `CancellationError` when the async call it serves is cancelled (`WorkCancellation`): the
    ///   transfer is cancelled at once, whatever part of the body had arrived is dropped.
    func get(_ url: URL, headers: [String: String], timeout: Double) throws -> Response {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(1, timeout.rounded(.up)) + 1)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

        let transfer = Transfer(limit: maxBodyBytes)
        let session = self.session
        let task = session.dataTask(with: request)
        Self.delegate.register(transfer, for: task)
        defer { Self.delegate.unregister(task) }
        try WorkCancellation.check()
        task.resume()
        let waited: DispatchTimeoutResult
        do {
            waited = try WorkCancellation.wait(for: transfer.done, until: .now() + max(timeout, 0))
        } catch {
            // The awaiting task was cancelled (SPEC §21): the transfer stops now.
            Self.cancel(task)
            throw error
        }
        if waited == .timedOut {
            Self.cancel(task)
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
            Self.cancel(task)
            retire(session)
            throw CoinfolioError(
                .http, "the answer is larger than max_body_bytes (\(maxBodyBytes) bytes); the transfer was stopped",
                reason: .bodyTooLarge, details: [.maxBodyBytes: .number(Double(maxBodyBytes))])
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

    /// Lets `session` finish alone after a body over the limit: libcurl goes on inflating what it
    /// has read of that body (dropped as it comes) until the cancel takes effect, which for a
    /// bomb is seconds of work on the session's one work queue. The next request gets a new
    /// session instead of waiting behind it; the old one ends when its tasks do.
    private func retire(_ session: URLSession) {
        Self.sharedSession.withLock { current in if current === session { current = nil } }
        DispatchQueue.global().async { session.finishTasksAndInvalidate() }
    }

    /// Cancels `task` from a thread of its own: never from the delegate queue, whose thread a
    /// URLSession that cancels synchronously on its work queue (older swift-corelibs-foundation)
    /// would wait for while that queue waits for the delegate queue.
    private static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    /// - Parameter truncated: the answer declared a longer body than arrived.
    private static func networkError(_ error: Error, timeout: Double, truncated: Bool) -> CoinfolioError {
        let reason: CoinfolioError.Reason
        let message: String
        var details: [CoinfolioError.DetailKey: CoinfolioError.Detail] = [:]
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
                details[.urlError] = .number(Double(urlError.code.rawValue))
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

        /// false when the body is now over the limit (the caller waiting in `get` is woken and
        /// cancels the task).
        func accept(response: URLResponse) -> Bool {
            // A declared length over the limit fails before any byte is read, unless the body is
            // compressed (then only the decompressed bytes count).
            let declaredTooLarge =
                (response as? HTTPURLResponse).map {
                    $0.expectedContentLength > Int64(limit)
                        && ($0.value(forHTTPHeaderField: "Content-Encoding") ?? "identity").lowercased() == "identity"
                } ?? false
            let keep = state.withLock { state in
                state.response = response
                if declaredTooLarge { state.tooLarge = true }
                return !state.tooLarge
            }
            if !keep { done.signal() }
            return keep
        }

        /// Adds a piece of the body; past the limit, drops it (and every later one) and wakes the
        /// caller waiting in `get`, which cancels the task.
        func append(_ chunk: Data) {
            let crossed = state.withLock { state in
                guard !state.tooLarge else { return false }
                if state.data.count + chunk.count > limit {
                    state.tooLarge = true
                    state.data = Data()
                    return true
                }
                state.data.append(chunk)
                return false
            }
            if crossed { done.signal() }
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
        /// By task object (task identifiers restart in each session, and a retired one may still be
        /// draining).
        private let transfers = Mutex<[ObjectIdentifier: Transfer]>([:])

        func register(_ transfer: Transfer, for task: URLSessionTask) {
            transfers.withLock { $0[ObjectIdentifier(task)] = transfer }
        }

        func unregister(_ task: URLSessionTask) {
            _ = transfers.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        }

        private func transfer(_ task: URLSessionTask) -> Transfer? {
            transfers.withLock { $0[ObjectIdentifier(task)] }
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
            // swift-corelibs-foundation ignores the disposition; `get` cancels a declared-too-large answer.
            let keep = transfer(dataTask)?.accept(response: response) ?? true
            completionHandler(keep ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            transfer(dataTask)?.append(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            transfer(task)?.finish(error)
        }
    }
}

/// A session delegate "queue" that runs each delegate callback at once, on the thread that hands
/// it over, instead of queueing it: libcurl's thread, inside its write callback, for every piece
/// of a body. So a body reaches the delegate exactly as fast as libcurl produces it — nothing
/// piles up between them (through an ordinary queue a 2 MB gzip bomb piled 2 GB of pieces up),
/// and once the body passes `max_body_bytes` every further piece is dropped as it comes.
///
/// URLSession hands every callback over with the block form of `addOperation`, always from its
/// work queue (one at a time, in order) or while closing the session. The delegate's callbacks
/// here only count bytes and signal, and never wait for that work queue (`HTTPTransport.cancel`
/// runs elsewhere), so running them inline cannot deadlock.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override init() {
        super.init()
        maxConcurrentOperationCount = 1
        name = "Coinfolio.HTTPTransport.delegate"
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) { block() }
}
