#if PostgreSQL
    // Built with the PostgreSQL trait only (SPEC §21): without it nothing links libpq.
    import CPostgres
    import Foundation
    import Synchronization

    /// Asks a PostgreSQL server to cancel the query a connection is running, waiting a bounded time.
    ///
    /// libpq 15 (Debian's) has only the blocking `PQcancel`: it connects to the server, sends the
    /// cancel key and waits for the server to close that connection — forever when the server is
    /// frozen. So it runs on a thread of its own, and the caller waits for it at most `waiting`
    /// seconds; a request the server has not taken by then finishes (or fails) on that thread when
    /// the server answers, without the caller. At most `maximumInFlight` such threads exist at once;
    /// past that no cancel is sent (the caller drops the connection all the same, and a server that
    /// comes back rolls back the dropped connection's transaction).
    enum PostgresCancel {
        /// Cancel requests that may be waiting for a server at once, process-wide.
        static let maximumInFlight = 8
        private static let inFlight = Atomic<Int>(0)

        /// libpq's cancel object, handed to the thread that sends it (and frees it).
        private struct Request: @unchecked Sendable {
            let cancel: OpaquePointer
        }

        /// Whether the server took the request, told by the thread that sent it.
        private final class Outcome: Sendable {
            let taken = Atomic<Bool>(false)
            let done = DispatchSemaphore(value: 0)
        }

        /// Sends a cancel request for the query `connection` runs; returns when the server took it,
        /// when it failed, or after `waiting` seconds, whichever comes first.
        /// - Returns: whether the server took the request within `waiting`.
        @discardableResult
        static func send(for connection: OpaquePointer, waiting: Double) -> Bool {
            guard inFlight.add(1, ordering: .relaxed).newValue <= maximumInFlight else {
                inFlight.subtract(1, ordering: .relaxed)
                return false
            }
            guard let cancel = PQgetCancel(connection) else {
                inFlight.subtract(1, ordering: .relaxed)
                return false
            }
            let request = Request(cancel: cancel)
            let outcome = Outcome()
            Thread.detachNewThread {
                var message = [CChar](repeating: 0, count: 256)
                let sent = PQcancel(request.cancel, &message, Int32(message.count)) == 1
                PQfreeCancel(request.cancel)
                outcome.taken.store(sent, ordering: .relaxed)
                inFlight.subtract(1, ordering: .relaxed)
                outcome.done.signal()
            }
            guard outcome.done.wait(timeout: .now() + max(waiting, 0)) == .success else { return false }
            return outcome.taken.load(ordering: .relaxed)
        }
    }
#endif  // PostgreSQL
