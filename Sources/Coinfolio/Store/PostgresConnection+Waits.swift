#if PostgreSQL
    // Built with the PostgreSQL trait only (SPEC §21): without it nothing links libpq.
    import CPostgres
    import Foundation

    /// Every wait of a `PostgresConnection` on its server — connecting, each round trip, a cancel —
    /// ends by a deadline (`database_timeout`): libpq's asynchronous calls, and `poll()` on the socket.
    extension PostgresConnection {
        /// The longest wait for a cancel request to be taken after a round trip ran out of time, in
        /// seconds (less when `timeout` is shorter).
        static let cancelWait: Double = 2

        /// A point `seconds` from now on the monotonic clock.
        static func deadline(_ seconds: Double) -> ContinuousClock.Instant {
            .now + .milliseconds(Int64((min(seconds, DatabaseTimeout.longestSeconds) * 1000).rounded(.up)))
        }

        enum Readiness { case ready, timedOut }

        /// Waits until `socket` is ready for `events` (POLLIN, POLLOUT) or `deadline` passes. An
        /// error or hang-up on the socket counts as ready: libpq's next call reports it.
        static func wait(_ socket: Int32, _ events: Int32, until deadline: ContinuousClock.Instant) -> Readiness {
            guard socket >= 0 else { return .ready }
            while true {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return .timedOut }
                let (seconds, attoseconds) = left.components
                let milliseconds = min(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000, Int64(Int32.max))
                var descriptor = pollfd(fd: socket, events: Int16(events), revents: 0)
                let ready = poll(&descriptor, 1, Int32(milliseconds))
                if ready > 0 { return .ready }
                if ready < 0, errno != EINTR, errno != EAGAIN { return .ready }
            }
        }

        struct ConnectFailure: Error {
            let message: String
            let timedOut: Bool
        }

        /// The deadline of the wait about to start: `seconds` from now, or the bound the call set
        /// with `boundNextWait(by:)` when that comes first (used once).
        func nextDeadline(_ seconds: Double) -> ContinuousClock.Instant {
            let own = Self.deadline(seconds)
            defer { nextWaitBound = nil }
            guard let bound = nextWaitBound, bound < own else { return own }
            return bound
        }

        /// Opens a connection without blocking past the bound (`PQconnectStartParams` and
        /// `PQconnectPoll` on the socket), in non-blocking mode, notices silenced.
        static func connect(_ url: String, until deadline: ContinuousClock.Instant) -> Result<OpaquePointer, ConnectFailure> {
            // Defaults first, so that the URL's own settings win (expand_dbname: later values override),
            // except the client encoding: Swift strings are UTF-8, and owners must reach the server
            // as the same characters whatever PGCLIENTENCODING or the URL say (else "é" sent as
            // LATIN1 is stored as "Ã©", another owner's name).
            let keywords = ["application_name", "dbname", "client_encoding"]
            let values = ["coinfolio", url, "UTF8"]
            let started = withCStrings(keywords) { keywords in
                withCStrings(values) { values in PQconnectStartParams(keywords, values, 1) }
            }
            guard let started else { return .failure(ConnectFailure(message: "out of memory", timedOut: false)) }
            var polling = PGRES_POLLING_WRITING
            while PQstatus(started) != CONNECTION_BAD, polling != PGRES_POLLING_FAILED {
                if polling == PGRES_POLLING_OK {
                    PQsetnonblocking(started, 1)
                    silenceNotices(started)
                    return .success(started)
                }
                let events = polling == PGRES_POLLING_READING ? POLLIN : POLLOUT
                if wait(PQsocket(started), Int32(events), until: deadline) == .timedOut {
                    PQfinish(started)
                    return .failure(ConnectFailure(message: "", timedOut: true))
                }
                polling = PQconnectPoll(started)
            }
            let message = trimmed(String(cString: PQerrorMessage(started)))
            PQfinish(started)
            return .failure(ConnectFailure(message: message, timedOut: false))
        }

        /// One round trip within `timeout`: `send` queues the request (`PQsend…`), then the output is
        /// flushed and every result read, waiting on the socket with the deadline.
        /// - Returns: the first failed result, else the last one (nil when sending failed: the
        ///   error is the connection's message); the caller clears it.
        /// - Throws: `.store` (`details["reason"]` "timeout") when the deadline passed: the query
        ///   was cancelled and the connection dropped.
        func roundTrip(_ connection: OpaquePointer, _ context: () -> String, _ send: (OpaquePointer) -> Int32) throws -> OpaquePointer? {
            let deadline = nextDeadline(timeout)
            guard send(connection) == 1 else { return nil }
            while true {
                let flushed = PQflush(connection)
                if flushed == 0 { break }
                if flushed < 0 { return nil }
                guard Self.wait(PQsocket(connection), Int32(POLLIN | POLLOUT), until: deadline) == .ready else {
                    throw abandon(context())
                }
                // The server may be sending while we write: read it, or both sides could wait.
                if PQconsumeInput(connection) == 0 { return nil }
            }
            var kept: OpaquePointer?
            while true {
                while PQisBusy(connection) != 0 {
                    guard Self.wait(PQsocket(connection), Int32(POLLIN), until: deadline) == .ready else {
                        if let kept { PQclear(kept) }
                        throw abandon(context())
                    }
                    if PQconsumeInput(connection) == 0, PQisBusy(connection) != 0 {
                        // A read failed on a connection libpq still thinks open: not waiting for it.
                        if let kept { PQclear(kept) }
                        return nil
                    }
                }
                guard let result = PQgetResult(connection) else { return kept }
                if let previous = kept, Self.failed(previous) {
                    PQclear(result)
                } else {
                    if let kept { PQclear(kept) }
                    kept = result
                }
            }
        }

        static func failed(_ result: OpaquePointer) -> Bool {
            let status = PQresultStatus(result)
            return status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK
        }

        /// After a round trip ran out of time: cancels the query (waiting at most `cancelWait`
        /// seconds for the server to take the request), drops the connection — the server rolls
        /// back its open transaction — and returns the timeout error.
        func abandon(_ context: String) -> CoinfolioError {
            if let connection {
                PostgresCancel.send(for: connection, waiting: min(timeout, Self.cancelWait))
                PQfinish(connection)
            }
            connection = nil
            return DatabaseTimeout.error(context, timeout)
        }

        /// Notices ("table already exists, skipping") would go to stderr; the store has no use for them.
        static func silenceNotices(_ connection: OpaquePointer) {
            PQsetNoticeProcessor(connection, { _, _ in }, nil)
        }

        /// The open connection, reconnecting first when it was lost: by the last call, or while the
        /// handle was idle (a restarted server's goodbye waits on the socket), or dropped after a
        /// timeout. Never reconnects inside a transaction: the statements after a reconnect would

        /// NULL-terminated C string arrays for libpq's keyword/value calls.
        static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
            var copies = strings.map { strdup($0) }
            defer { for copy in copies { free(copy) } }
            copies.append(nil)
            return body(copies.map { $0.map { UnsafePointer($0) } })
        }

        /// libpq's multi-line messages on one line, runs of whitespace as one space.
        static func trimmed(_ message: String) -> String {
            message.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
    }
#endif  // PostgreSQL
