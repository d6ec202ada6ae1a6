import CPostgres
import Foundation

/// One connection to a PostgreSQL server (Debian's libpq). Not thread-safe by itself: its owner
/// serializes calls (`StoreConnection` holds it in a `Mutex`).
///
/// Statements are prepared once per connection and sent with text parameters (blobs binary) and
/// binary results. Every round trip (connecting, preparing, running, `BEGIN`, `COMMIT`,
/// `ROLLBACK`) goes through libpq's asynchronous calls and waits on the socket with a deadline
/// `timeout` seconds away (`DatabaseTimeout`): past it the query is cancelled (`PostgresCancel`),
/// the connection dropped, and the call fails with `.store` (`details["reason"]` = "timeout").
/// A lost or dropped connection fails the call in flight with `.store`; the next call
/// reconnects and prepares again. No message ever holds the password: the URL is
/// shown without it, and libpq's complaints about the URL (which quote it) have the password
/// scrubbed out. The server's messages are never scrubbed: it never sees the password in
/// anything it could quote, and "***" in place of a word ("failed", the user name) would tell
/// what the password is.
final class PostgresConnection: Database {
    let kind = DatabaseKind.postgres
    /// The connection; nil after `close()` or after a round trip ran out of time (the next call
    /// connects again, unless `isClosed`).
    private var connection: OpaquePointer?
    private var isClosed = false
    /// The URL as libpq reads it (scheme in lower case).
    private let url: String
    /// Seconds one round trip may take (`database_timeout`).
    let timeout: Double
    /// SQL → its prepared statement. Each prepares itself again after a reconnect.
    private var prepared: [String: PostgresStatement] = [:]
    /// How many sessions this connection has had: a statement prepared in an earlier one is
    /// prepared again before it runs.
    private(set) var session = 0
    private var statementCount = 0
    /// Whether a `transaction` is running (no silent reconnect then).
    private var inTransaction = false

    /// The longest wait for a cancel request to be taken after a round trip ran out of time, in
    /// seconds (less when `timeout` is shorter).
    static let cancelWait: Double = 2

    /// NULL-terminated C string arrays for libpq's keyword/value calls.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        var copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        copies.append(nil)
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    /// How many times a serializable transaction that failed with 40001 or 40P01 runs again.
    static let serializationRetries = 20

    /// Connects to `url` (`postgresql://user[:password]@host[:port]/db[?params]`).
    /// - Parameter timeout: seconds each round trip may take, connecting included (the URL's
    ///   `connect_timeout` bounds connecting when it is shorter); a positive finite number.
    /// - Throws: `.invalidArgument` for a bad `timeout`; `.store` with libpq's message, or
    ///   `details["reason"]` "timeout" when the server did not answer in time.
    init(url: String, timeout: Double = DatabaseTimeout.defaultSeconds) throws {
        try DatabaseTimeout.validate(timeout)
        // libpq knows the scheme in lower case only.
        let url = url.range(of: "://").map { url[..<$0.lowerBound].lowercased() + url[$0.lowerBound...] } ?? url
        self.url = url
        self.timeout = timeout
        // A user part with an unencoded '@', '/' or '?' ends where libpq says, not where the
        // writer meant: libpq would read the rest of the password as a host, port or database
        // and quote it. Refused before libpq sees it.
        guard !Self.hasStrayAt(url) else {
            throw CoinfolioError(
                .store,
                "cannot open database \"\(Self.redactedURL(url))\": its user or password holds an unencoded '@', '/' or '?'"
                    + " (percent-encode them: %40, %2F, %3F)",
                reason: .ambiguousURL)
        }
        switch Self.connect(url, timeout: timeout) {
        case .success(let opened): connection = opened
        case .failure(let failure):
            var message = failure.message
            if !Self.parses(url) { message = Self.scrub(message, url) }
            let context = "cannot open database \"\(Self.redactedURL(url))\""
            if failure.timedOut { throw DatabaseTimeout.error(context, Self.connectBound(url, timeout)) }
            throw CoinfolioError(.store, "\(context): \(message)")
        }
    }

    deinit { close() }

    func close() {
        isClosed = true
        prepared.removeAll()
        if let connection { PQfinish(connection) }
        connection = nil
    }

    // MARK: - Bounded waits

    /// A point `seconds` from now on the monotonic clock.
    private static func deadline(_ seconds: Double) -> ContinuousClock.Instant {
        .now + .milliseconds(Int64((min(seconds, DatabaseTimeout.longestSeconds) * 1000).rounded(.up)))
    }

    private enum Readiness { case ready, timedOut }

    /// Waits until `socket` is ready for `events` (POLLIN, POLLOUT) or `deadline` passes. An
    /// error or hang-up on the socket counts as ready: libpq's next call reports it.
    private static func wait(_ socket: Int32, _ events: Int32, until deadline: ContinuousClock.Instant) -> Readiness {
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

    private struct ConnectFailure: Error {
        let message: String
        let timedOut: Bool
    }

    /// How long connecting to `url` may take: `timeout`, or the URL's `connect_timeout` when it
    /// is shorter (libpq reads 0 or less as "no limit": `timeout` then).
    private static func connectBound(_ url: String, _ timeout: Double) -> Double {
        guard let options = PQconninfoParse(url, nil) else { return timeout }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout", let value = option.pointee.val,
                let seconds = Double(String(cString: value)), seconds > 0
            {
                return min(timeout, max(seconds, 2))  // libpq's own minimum is 2 s
            }
            option += 1
        }
        return timeout
    }

    /// Opens a connection without blocking past the bound (`PQconnectStartParams` and
    /// `PQconnectPoll` on the socket), in non-blocking mode, notices silenced.
    private static func connect(_ url: String, timeout: Double) -> Result<OpaquePointer, ConnectFailure> {
        let deadline = deadline(connectBound(url, timeout))
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
    private func roundTrip(_ connection: OpaquePointer, _ context: () -> String, _ send: (OpaquePointer) -> Int32) throws -> OpaquePointer?
    {
        let deadline = Self.deadline(timeout)
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

    private static func failed(_ result: OpaquePointer) -> Bool {
        let status = PQresultStatus(result)
        return status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK
    }

    /// After a round trip ran out of time: cancels the query (waiting at most `cancelWait`
    /// seconds for the server to take the request), drops the connection — the server rolls
    /// back its open transaction — and returns the timeout error.
    private func abandon(_ context: String) -> CoinfolioError {
        if let connection {
            PostgresCancel.send(for: connection, waiting: min(timeout, Self.cancelWait))
            PQfinish(connection)
        }
        connection = nil
        return DatabaseTimeout.error(context, timeout)
    }

    /// Notices ("table already exists, skipping") would go to stderr; the store has no use for them.
    private static func silenceNotices(_ connection: OpaquePointer) {
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    /// The open connection, reconnecting first when it was lost: by the last call, or while the
    /// handle was idle (a restarted server's goodbye waits on the socket), or dropped after a
    /// timeout. Never reconnects inside a transaction: the statements after a reconnect would
    /// run outside it.
    func live() throws -> OpaquePointer {
        guard !isClosed else { throw CoinfolioError(.store, "the database is closed") }
        if let connection, !inTransaction, PQstatus(connection) == CONNECTION_OK {
            // Read what waits (the goodbye, then the end of the stream) until nothing does or
            // libpq has seen the connection close.
            var socket = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
            var reads = 0
            while reads < 4, PQstatus(connection) == CONNECTION_OK, poll(&socket, 1, 0) > 0 {
                if PQconsumeInput(connection) == 0 { break }
                reads += 1
            }
        }
        if let connection, PQstatus(connection) == CONNECTION_OK { return connection }
        guard !inTransaction else {
            throw CoinfolioError(
                .store, "connection to the database lost during a transaction", details: ["connection_lost": .number(1)])
        }
        if let connection { PQfinish(connection) }
        connection = nil
        session += 1
        switch Self.connect(url, timeout: timeout) {
        case .success(let opened):
            connection = opened
            return opened
        case .failure(let failure):
            if failure.timedOut {
                var error = DatabaseTimeout.error("cannot reconnect to the database", Self.connectBound(url, timeout))
                error.details["connection_lost"] = .number(1)
                throw error
            }
            throw CoinfolioError(
                .store, "cannot reconnect to the database: \(failure.message)", details: ["connection_lost": .number(1)])
        }
    }

    /// Checks a result: nil when it succeeded, else the error (the result is cleared).
    func failure(_ result: OpaquePointer?, _ context: String) -> CoinfolioError? {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return nil }
        var message = connection.map { String(cString: PQerrorMessage($0)) } ?? ""
        var details: [String: CoinfolioError.Detail] = [:]
        if let result {
            if let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) { message = String(cString: primary) }
            if let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) { details["sqlstate"] = .string(String(cString: state)) }
            PQclear(result)
        }
        if let connection, PQstatus(connection) != CONNECTION_OK {
            details["connection_lost"] = .number(1)
            message = "connection to the database lost: " + message
        }
        return CoinfolioError(.store, "\(context): \(Self.trimmed(message))", details: details)
    }

    func execute(_ sql: String) throws {
        let connection = try live()
        let context = "cannot run \"\(sql.prefix(40))\""
        let result = try roundTrip(connection, { context }) { PQsendQuery($0, sql) }
        if let error = failure(result, context) { throw error }
        PQclear(result)
    }

    /// Sends a prepared statement with its parameters (see `PQsendQueryPrepared`) in one round trip.
    /// - Returns: the result, for `failure`.
    func executePrepared(
        _ connection: OpaquePointer, name: String, _ count: Int32, _ values: [UnsafePointer<CChar>?], _ lengths: [Int32],
        _ formats: [Int32], _ context: () -> String
    ) throws -> OpaquePointer? {
        try roundTrip(connection, context) { PQsendQueryPrepared($0, name, count, values, lengths, formats, 1) }
    }

    func statement(_ sql: String) throws -> any DatabaseStatement {
        let connection = try live()
        if let cached = prepared[sql] {
            cached.reset()
            cached.clearBindings()
            return cached
        }
        let (translated, count) = Self.numberedParameters(sql)
        statementCount += 1
        let name = "cf\(statementCount)"
        try prepare(name: name, sql: translated, connection)
        let statement = PostgresStatement(connection: self, name: name, sql: translated, parameterCount: count, session: session)
        prepared[sql] = statement
        return statement
    }

    /// Prepares `sql` (`$N` placeholders) as `name` in the current session.
    func prepare(name: String, sql: String, _ connection: OpaquePointer) throws {
        let context = "cannot prepare \"\(sql.prefix(40))\""
        let result = try roundTrip(connection, { context }) { PQsendPrepare($0, name, sql, 0, nil) }
        if let error = failure(result, context) { throw error }
        PQclear(result)
    }

    func transaction<T>(_ isolation: TransactionIsolation, _ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            try execute(isolation == .serializable ? "BEGIN ISOLATION LEVEL SERIALIZABLE" : "BEGIN")
            inTransaction = true
            do {
                let result = try body()
                try execute("COMMIT")
                inTransaction = false
                return result
            } catch {
                inTransaction = false
                if let connection, PQstatus(connection) == CONNECTION_OK, PQtransactionStatus(connection) != PQTRANS_IDLE {
                    // Bounded like any round trip; a ROLLBACK that runs out of time drops the
                    // connection, which rolls back as well.
                    if let rolledBack = try? roundTrip(connection, { "cannot roll back" }, { PQsendQuery($0, "ROLLBACK") }) {
                        PQclear(rolledBack)
                    }
                }
                if let failure = error as? CoinfolioError, case .string(let state)? = failure.details["sqlstate"],
                    state == "40001" || state == "40P01", attempt < Self.serializationRetries
                {
                    attempt += 1
                    usleep(UInt32.random(in: 1_000...(5_000 * UInt32(min(attempt, 10)))))
                    continue
                }
                throw error
            }
        }
    }

    func dataVersion() throws -> Int? { nil }

    // MARK: - Text

    /// Whether libpq can read `url` as a connection string (when it cannot, its message quotes
    /// the part it could not read).
    static func parses(_ url: String) -> Bool {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            if let error { PQfreemem(error) }
            return false
        }
        PQconninfoFree(options)
        return true
    }

    /// Removes `url`'s password (as libpq reads it and as written) from libpq's complaint about
    /// the URL: a quoted token holding it, whatever its length, becomes `"***"` (such messages
    /// quote the URL's own text), and so does any other place a password of 4 or more characters appears.
    static func scrub(_ message: String, _ url: String) -> String {
        // A `password=` parameter's value as written too (the URL may not parse because of it).
        let query = url.firstIndex(of: "?").map { url[url.index(after: $0)...].split(separator: "&") } ?? []
        let parameters = query.filter { $0.lowercased().hasPrefix("password=") }.map { String($0.dropFirst("password=".count)) }
        let secrets = ([password(url), writtenPassword(url)].compactMap { $0 } + parameters).filter { !$0.isEmpty }
        guard !secrets.isEmpty else { return message }
        let parts = message.split(separator: "\"", omittingEmptySubsequences: false).enumerated().map { index, part in
            index % 2 == 1 && secrets.contains(where: { part.contains($0) }) ? "***" : String(part)
        }
        var scrubbed = parts.joined(separator: "\"")
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= 4 {
            scrubbed = scrubbed.replacingOccurrences(of: secret, with: "***")
        }
        return scrubbed
    }

    /// libpq's multi-line messages on one line, runs of whitespace as one space.
    private static func trimmed(_ message: String) -> String {
        message.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The password of a connection string as libpq reads it (URL-decoded), if any.
    static func password(_ url: String) -> String? {
        guard let options = PQconninfoParse(url, nil) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val { return String(cString: value) }
            option += 1
        }
        return nil
    }

    /// The span between `user:` and `@` of a URL, as written, if any.
    private static func writtenPassword(_ url: String) -> String? {
        guard let authority = authority(url), let colon = authority.firstIndex(of: ":") else { return nil }
        return String(authority[authority.index(after: colon)...])
    }

    /// The `user[:password]` part of `scheme://user[:password]@host…` as libpq reads it: up to
    /// the first `@` that comes before any `/` (a `?` does not end it); nil when there is none.
    private static func authority(_ url: String) -> Substring? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        guard let end = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[end] == "@" else { return nil }
        return rest[..<end]
    }

    /// Whether an `@` follows the user part before the query, or comes anywhere after a "port"
    /// that is no number: a password with an unencoded `@`, `/` (and `?`), which libpq would
    /// read partly as a host, port, database or parameter.
    static func hasStrayAt(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return false }
        var rest = url[scheme.upperBound...]
        if let authority = authority(url) {
            rest = rest[rest.index(after: authority.endIndex)...]
        } else if rest.contains("@") {
            // No user part: hosts are `host[:port]`, comma-separated, IPv6 in brackets.
            let hosts = rest.prefix { $0 != "/" && $0 != "?" }.split(separator: ",")
            let badPort = hosts.contains { host in
                let afterAddress = host.split(separator: "]", omittingEmptySubsequences: false).last ?? host
                guard let colon = afterAddress.lastIndex(of: ":") else { return false }
                return !afterAddress[afterAddress.index(after: colon)...].allSatisfy { $0.isASCII && $0.isNumber }
            }
            if badPort { return true }
        }
        return rest.prefix { $0 != "?" }.contains("@")
    }

    /// `url` without its password (in the user part or a `password=` parameter). A URL whose
    /// user part is ambiguous (`hasStrayAt`) loses everything up to its last `@`.
    static func redactedURL(_ url: String) -> String {
        var result = url
        if hasStrayAt(url), let scheme = url.range(of: "://") {
            if let at = url[scheme.upperBound...].lastIndex(of: "@") {
                result = String(url[..<scheme.upperBound]) + "…" + url[at...]
            }
        } else if let authority = authority(url), let colon = authority.firstIndex(of: ":") {
            result.replaceSubrange(colon..<authority.endIndex, with: "")
        }
        if let query = result.firstIndex(of: "?") {
            let parameters = result[result.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
            let kept = parameters.map { $0.lowercased().hasPrefix("password=") ? "password=***" : String($0) }
            result = String(result[...query]) + kept.joined(separator: "&")
        }
        return result
    }

    /// `?N` placeholders (outside quotes) as PostgreSQL's `$N`, and the highest N.
    static func numberedParameters(_ sql: String) -> (String, Int) {
        var output = ""
        output.reserveCapacity(sql.utf8.count)
        var highest = 0
        var quote: Character?
        var characters = sql.makeIterator()
        var pending: Character? = characters.next()
        while let character = pending {
            pending = characters.next()
            if let open = quote {
                output.append(character)
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                output.append(character)
                continue
            }
            guard character == "?" else {
                output.append(character)
                continue
            }
            var digits = ""
            while let next = pending, next.isASCII, next.isNumber {
                digits.append(next)
                pending = characters.next()
            }
            output.append("$")
            output.append(digits)
            highest = max(highest, Int(digits) ?? 0)
        }
        return (output, highest)
    }
}

/// A prepared statement of a `PostgresConnection`. Parameters are kept until the statement runs;
/// the rows of a query are read whole into one result, then stepped.
final class PostgresStatement: DatabaseStatement {
    private unowned let connection: PostgresConnection
    private let name: String
    private let sql: String
    /// The connection's session this statement is prepared in.
    private var session: Int
    private enum Value {
        case null
        case text([CChar])
        case borrowed(UnsafeRawBufferPointer)
    }
    private var values: [Value]
    private var result: OpaquePointer?
    private var row: Int32 = -1
    private var rows: Int32 = 0

    init(connection: PostgresConnection, name: String, sql: String, parameterCount: Int, session: Int) {
        self.connection = connection
        self.name = name
        self.sql = sql
        self.session = session
        values = Array(repeating: .null, count: parameterCount)
    }

    deinit { reset() }

    func clearBindings() {
        for index in values.indices { values[index] = .null }
    }

    private func set(_ index: Int32, _ value: Value) {
        let position = Int(index) - 1
        guard values.indices.contains(position) else { return }
        values[position] = value
    }

    func bind(_ index: Int32, _ text: String) { set(index, .text(Array(text.utf8CString))) }
    func bind(_ index: Int32, _ text: String?) { set(index, text.map { .text(Array($0.utf8CString)) } ?? .null) }
    func bind(_ index: Int32, _ value: Double) { set(index, .text(Array("\(value)".utf8CString))) }
    func bind(_ index: Int32, _ value: Int) { set(index, .text(Array(String(value).utf8CString))) }
    func bind(_ index: Int32, _ value: Int64) { set(index, .text(Array(String(value).utf8CString))) }
    func bind(_ index: Int32, borrowing bytes: UnsafeRawBufferPointer?) {
        set(index, bytes.map { .borrowed($0) } ?? .null)
    }

    /// Sends the statement with its parameters; keeps the result for reading.
    private func execute(_ context: () -> String) throws {
        reset()
        let connection = try self.connection.live()
        if session != self.connection.session {
            try self.connection.prepare(name: name, sql: sql, connection)
            session = self.connection.session
        }
        let count = values.count
        // Text parameters go in one buffer, NUL-terminated each; blobs are sent in place.
        var texts: [CChar] = []
        var offsets = [Int](repeating: -1, count: count)
        var lengths = [Int32](repeating: 0, count: count)
        var formats = [Int32](repeating: 0, count: count)
        for (position, value) in values.enumerated() {
            switch value {
            case .null: break
            case .text(let text):
                offsets[position] = texts.count
                texts += text
            case .borrowed(let bytes):
                lengths[position] = Int32(clamping: bytes.count)
                formats[position] = 1
            }
        }
        let sent = try texts.withUnsafeBufferPointer { buffer throws -> OpaquePointer? in
            var pointers = [UnsafePointer<CChar>?](repeating: nil, count: count)
            for (position, value) in values.enumerated() {
                switch value {
                case .null: break
                case .text: pointers[position] = buffer.baseAddress.map { $0 + offsets[position] }
                case .borrowed(let bytes):
                    // A zero-length blob still needs a non-NULL pointer, or it is sent as NULL.
                    let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                    pointers[position] = base?.assumingMemoryBound(to: CChar.self)
                }
            }
            return try self.connection.executePrepared(connection, name: name, Int32(count), pointers, lengths, formats, context)
        }
        if let error = self.connection.failure(sent, context()) { throw error }
        result = sent
        rows = PQntuples(sent)
        row = -1
    }

    @discardableResult
    func run(_ context: @autoclosure () -> String) throws -> Int {
        try execute(context)
        defer { reset() }
        guard let result, let tuples = PQcmdTuples(result) else { return 0 }
        return Int(String(cString: tuples)) ?? 0
    }

    func next() throws -> Bool {
        if result == nil { try execute { "cannot read" } }
        row += 1
        return row < rows
    }

    func reset() {
        if let result { PQclear(result) }
        result = nil
        row = -1
        rows = 0
    }

    // MARK: - Columns (binary results)

    private func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard let result, row >= 0, row < rows, column < PQnfields(result), PQgetisnull(result, row, column) == 0 else { return nil }
        let length = Int(PQgetlength(result, row, column))
        guard let value = PQgetvalue(result, row, column) else { return nil }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(value), count: length)
    }

    private func type(_ column: Int32) -> Oid { result.map { PQftype($0, column) } ?? 0 }

    private static func bigEndian<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as: T.Type) -> T? {
        guard bytes.count == MemoryLayout<T>.size else { return nil }
        var value: T = 0
        for byte in bytes { value = (value << 8) | T(byte) }
        return value
    }

    /// The column as a number when it is one (int2/4/8, float4/8, bool).
    private func number(_ column: Int32) -> (integer: Int64?, real: Double?) {
        guard let bytes = bytes(column) else { return (nil, nil) }
        switch type(column) {
        case 20: return (Self.bigEndian(bytes, as: Int64.self), nil)
        case 23: return (Self.bigEndian(bytes, as: Int32.self).map(Int64.init), nil)
        case 21: return (Self.bigEndian(bytes, as: Int16.self).map(Int64.init), nil)
        case 16: return (bytes.first.map { Int64($0) }, nil)
        case 701: return (nil, Self.bigEndian(bytes, as: UInt64.self).map(Double.init(bitPattern:)))
        case 700: return (nil, Self.bigEndian(bytes, as: UInt32.self).map { Double(Float(bitPattern: $0)) })
        default:
            let text = String(decoding: bytes, as: UTF8.self)
            return (Int64(text), Double(text))
        }
    }

    func text(_ column: Int32) -> String? {
        guard let bytes = bytes(column) else { return nil }
        switch type(column) {
        case 20, 21, 23, 16: return number(column).integer.map { String($0) }
        case 700, 701: return number(column).real.map { "\($0)" }
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    func double(_ column: Int32) -> Double {
        let (integer, real) = number(column)
        return real ?? integer.map(Double.init) ?? 0
    }

    func int64(_ column: Int32) -> Int64 {
        let (integer, real) = number(column)
        if let integer { return integer }
        if let real, real.isFinite, abs(real) < 9.2e18 { return Int64(real) }
        return 0
    }

    func int(_ column: Int32) -> Int { Int(int64(column)) }

    func isNull(_ column: Int32) -> Bool {
        guard let result, row >= 0, row < rows else { return true }
        return PQgetisnull(result, row, column) != 0
    }

    func blob(_ column: Int32) -> Data? {
        guard let bytes = bytes(column) else { return nil }
        return Data(bytes)
    }

    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let bytes = bytes(column) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(bytes.bindMemory(to: UInt8.self))
    }
}
