#if PostgreSQL
    // Built with the PostgreSQL trait only (SPEC §21): without it nothing links libpq.
    import CPostgres
    import Foundation

    /// One connection to a PostgreSQL server (Debian's libpq). Not thread-safe by itself: its owner
    /// serializes calls (`StoreConnection` holds it behind its lock).
    ///
    /// Statements are sent with text parameters (blobs binary) and binary results; no named statement
    /// outlives the transaction it was prepared in (`PostgresConnection+Statements`), so every call
    /// works through a transaction-pooling pgbouncer with the same URL. Every round trip (connecting, preparing, running, `BEGIN`, `COMMIT`,
    /// `ROLLBACK`) goes through libpq's asynchronous calls and waits on the socket with a deadline
    /// `timeout` seconds away (`DatabaseTimeout`): past it the query is cancelled (`PostgresCancel`),
    /// the connection dropped, and the call fails with `.store` (`details["reason"]` = "timeout").
    /// A lost or dropped connection fails the call in flight with `.store`; the next call
    /// reconnects and prepares again. No message ever holds the password: the URL is shown without
    /// its user part (`PostgresURL.redactedURL`), an ambiguous URL is refused before libpq reads it,
    /// and libpq's complaints about the URL (which quote it) pass through `SecretRedaction`
    /// (`PostgresURL.scrub`).
    final class PostgresConnection: Database {
        let kind = DatabaseKind.postgres
        /// The connection; nil after `close()` or after a round trip ran out of time (the next call
        /// connects again, unless `isClosed`).
        var connection: OpaquePointer?
        private var isClosed = false
        /// The URL as libpq reads it (scheme in lower case).
        private let url: String
        /// Seconds one round trip may take (`database_timeout`).
        let timeout: Double
        /// SQL (`?N` placeholders) → its statement, ready to bind and send.
        private var statements: [String: PostgresStatement] = [:]
        /// Whether a statement sent twice within one transaction is prepared under a name for the
        /// rest of it (the URL's `prepare`, default true; `prepare=false`: never).
        let namesStatements: Bool
        /// The statements of the current transaction: their names once prepared, and how many times
        /// each was sent (`PostgresConnection+Statements`). Emptied when the transaction ends.
        var transactionStatements = TransactionStatements()
        /// How many sessions this connection has had (a reconnect starts a new one).
        private(set) var session = 0
        /// Whether a `transaction` is running (no silent reconnect then).
        private(set) var inTransaction = false
        /// The end of the call's budget for its next wait (`boundNextWait(by:)`), used once.
        var nextWaitBound: ContinuousClock.Instant?

        /// How many times a serializable transaction that failed with 40001 or 40P01 runs again.
        static let serializationRetries = 20

        /// Connects to `url` (`postgresql://user[:password]@host[:port]/db[?params]`).
        /// - Parameter timeout: seconds each round trip may take, connecting included (the URL's
        ///   `connect_timeout` bounds connecting when it is shorter); a positive finite number.
        /// - Throws: `.invalidArgument` for a bad `timeout`; `.store` with libpq's message, or
        ///   `details["reason"]` "timeout" when the server did not answer in time.
        init(url: String, timeout: Double = DatabaseTimeout.defaultSeconds) throws {
            try DatabaseTimeout.validate(timeout)
            let (url, prepare) = try PostgresURL.takingOwnOptions(PostgresURL.normalized(url))
            self.url = url
            namesStatements = prepare
            self.timeout = timeout
            // A password with an unencoded '@' or '/' ends where libpq says, not where the writer
            // meant: libpq would read the rest of it as a host, port, database or parameter and
            // quote it. Refused before libpq sees it.
            try PostgresURL.checkUnambiguous(url)
            switch Self.connect(url, until: Self.deadline(PostgresURL.connectBound(url, timeout))) {
            case .success(let opened): connection = opened
            case .failure(let failure):
                var message = failure.message
                if !PostgresURL.parses(url) { message = PostgresURL.scrub(message, url) }
                let context = "cannot open database \"\(PostgresURL.redactedURL(url))\""
                if failure.timedOut { throw DatabaseTimeout.error(context, PostgresURL.connectBound(url, timeout)) }
                throw CoinfolioError(.store, "\(context): \(message)")
            }
        }

        deinit { close() }

        func close() {
            isClosed = true
            statements.removeAll()
            transactionStatements = TransactionStatements()
            if let connection { PQfinish(connection) }
            connection = nil
        }

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
                    .store, "connection to the database lost during a transaction", details: [.connectionLost: .number(1)])
            }
            if let connection { PQfinish(connection) }
            connection = nil
            session += 1
            transactionStatements = TransactionStatements()
            switch Self.connect(url, until: nextDeadline(PostgresURL.connectBound(url, timeout))) {
            case .success(let opened):
                connection = opened
                return opened
            case .failure(let failure):
                if failure.timedOut {
                    var error = DatabaseTimeout.error("cannot reconnect to the database", PostgresURL.connectBound(url, timeout))
                    error.details[.connectionLost] = .number(1)
                    throw error
                }
                throw CoinfolioError(
                    .store, "cannot reconnect to the database: \(failure.message)", details: [.connectionLost: .number(1)])
            }
        }

        /// Checks a result: nil when it succeeded, else the error (the result is cleared).
        func failure(_ result: OpaquePointer?, _ context: String) -> CoinfolioError? {
            let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return nil }
            var message = connection.map { String(cString: PQerrorMessage($0)) } ?? ""
            var details: [CoinfolioError.DetailKey: CoinfolioError.Detail] = [:]
            if let result {
                if let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) { message = String(cString: primary) }
                if let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
                    details[.sqlstate] = .string(String(cString: state))
                }
                PQclear(result)
            }
            if let connection, PQstatus(connection) != CONNECTION_OK {
                details[.connectionLost] = .number(1)
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

        func statement(_ sql: String) throws -> any DatabaseStatement {
            _ = try live()
            if let cached = statements[sql] {
                cached.reset()
                cached.clearBindings()
                return cached
            }
            let (translated, count) = PostgresStatement.numberedParameters(sql)
            let statement = PostgresStatement(connection: self, sql: translated, parameterCount: count)
            statements[sql] = statement
            return statement
        }

        func transaction<T>(_ isolation: TransactionIsolation, _ body: () throws -> T) throws -> T {
            var attempt = 0
            while true {
                try execute(isolation == .serializable ? "BEGIN ISOLATION LEVEL SERIALIZABLE" : "BEGIN")
                inTransaction = true
                do {
                    let result = try body()
                    // The statements named in this transaction go with it, in COMMIT's round trip.
                    do {
                        try execute(transactionStatements.named.isEmpty ? "COMMIT" : "DEALLOCATE ALL; COMMIT")
                    } catch var failure as CoinfolioError where Self.commitOutcomeUnknown(failure) {
                        failure.message += " (during COMMIT: whether this write was committed is unknown; read before writing it again)"
                        throw failure
                    }
                    transactionStatements = TransactionStatements()
                    inTransaction = false
                    return result
                } catch {
                    inTransaction = false
                    let rollback = transactionStatements.named.isEmpty ? "ROLLBACK" : "ROLLBACK; DEALLOCATE ALL"
                    transactionStatements = TransactionStatements()
                    if let connection, PQstatus(connection) == CONNECTION_OK, PQtransactionStatus(connection) != PQTRANS_IDLE {
                        // Bounded like any round trip; a ROLLBACK that runs out of time drops the
                        // connection, which rolls back as well (and ends its named statements).
                        if let rolledBack = try? roundTrip(connection, { "cannot roll back" }, { PQsendQuery($0, rollback) }) {
                            PQclear(rolledBack)
                        }
                    }
                    if let failure = error as? CoinfolioError, case .string(let state)? = failure.details[.sqlstate],
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

        /// Whether a failed COMMIT may have been committed all the same: no answer came (the
        /// connection was lost, the round trip ran out of time: no SQLSTATE), or the server or a
        /// pooler ended the session (class 08, connection exception; 57, operator intervention).
        /// A refusal with any other SQLSTATE (40001, 23505, …) rolled the transaction back.
        static func commitOutcomeUnknown(_ failure: CoinfolioError) -> Bool {
            guard case .string(let state)? = failure.details[.sqlstate] else { return true }
            return state.hasPrefix("08") || state.hasPrefix("57")
        }

        func boundNextWait(by deadline: ContinuousClock.Instant) { nextWaitBound = deadline }

        /// Nothing to set: durability and isolation are the server's.
        func prepareForUse() throws {}

        // MARK: - What PostgreSQL spells or does its own way

        /// READ COMMITTED after `ownerLockSQL`: one owner's writes run one after another.
        func ownerTransaction<T>(owner: String, _ body: () throws -> T) throws -> T {
            try transaction(.readCommitted) {
                let lock = try statement(Self.ownerLockSQL)
                lock.bind(1, owner)
                _ = try lock.next()
                lock.reset()
                return try body()
            }
        }

        /// The transaction-scoped advisory lock on one owner's ledger, keyed by
        /// ("cflg", hashtext(owner)) — the two-key space, apart from the schema's one-key lock. Two
        /// owners whose names hash alike only wait for each other.
        static let ownerLockSQL = "SELECT pg_advisory_xact_lock(1667656807, hashtext(?1))"

        /// READ COMMITTED after the currency's transaction-scoped advisory lock (`marketLockSQL`),
        /// waited for at most `database_timeout` (the server's `lock_timeout`, set for this
        /// transaction only, ends the wait a little before the round trip's own deadline would).
        func marketTransaction<T>(vsCurrency: String, _ body: () throws -> T) throws -> T {
            try transaction(.readCommitted) {
                let bound = try statement("SELECT set_config('lock_timeout', ?1, true)")
                bound.bind(1, "\(Self.lockTimeoutMilliseconds(timeout))ms")
                _ = try bound.next()
                bound.reset()
                let lock = try statement(Self.marketLockSQL)
                lock.bind(1, vsCurrency)
                do {
                    _ = try lock.next()
                    lock.reset()
                } catch let error as CoinfolioError where error.details[.sqlstate] == .string("55P03") {
                    throw CoinfolioError(
                        .store,
                        "another engine's refresh of \(vsCurrency) kept its market data locked for more than "
                            + "\(DatabaseTimeout.text(timeout)) s (database_timeout)",
                        reason: .timeout, details: [.sqlstate: .string("55P03")])
                }
                return try body()
            }
        }

        /// The transaction-scoped advisory lock on one currency's market data, keyed by ("cfmk",
        /// hashtext(vs_currency)) — apart from the owners' ("cflg") and the schema's locks.
        static let marketLockSQL = "SELECT pg_advisory_xact_lock(1667657067, hashtext(?1))"

        /// The server's `lock_timeout` for a wait bounded by `seconds`: 95 % of it (at least 1 ms),
        /// so that the server ends the wait with an error before the round trip's deadline cancels it.
        static func lockTimeoutMilliseconds(_ seconds: Double) -> Int64 {
            Int64(max(1, min(seconds, 86_400) * 950).rounded(.down))
        }

        func jsonArrayElements(parameter: Int) -> String {
            "json_array_elements(CAST(?\(parameter) AS json)) AS elements(value)"
        }

        let returningInsertedID = " RETURNING id"

        /// The RETURNING row's id; no row when `ON CONFLICT … DO NOTHING` skipped the insert.
        func insertedID(_ statement: any DatabaseStatement) throws -> Int64? {
            try statement.next() ? statement.int64(0) : nil
        }

        /// `body` as is: the server keeps the pages in its own buffers.
        func withLargeWriteCache<T>(_ body: () throws -> T) throws -> T { try body() }

        /// nil: PostgreSQL gives no number that every change moves (`Database.changeStamp()`).
        func changeStamp() throws -> DatabaseChangeStamp? { nil }

        /// Never: every sparkline is packed (schema step 6).
        let savesSparklineText = false

        /// The key of the advisory lock that serializes migrations of one database ("cfschema" in ASCII).
        static let schemaLockKey: Int64 = 0x6366_7363_6865_6D61

        func lockSchema() throws {
            try execute(
                """
                SELECT pg_advisory_xact_lock(\(Self.schemaLockKey));
                CREATE TABLE IF NOT EXISTS coinfolio_schema (version INTEGER NOT NULL);
                """)
        }

        func schemaVersion() throws -> Int {
            let exists = try statement("SELECT to_regclass('coinfolio_schema') IS NOT NULL")
            guard try exists.scalarInt() == 1 else { return 0 }
            return try statement("SELECT max(version) FROM coinfolio_schema").scalarInt() ?? 0
        }

        func setSchemaVersion(_ version: Int) throws {
            try execute("DELETE FROM coinfolio_schema; INSERT INTO coinfolio_schema (version) VALUES (\(version))")
        }
    }
#endif  // PostgreSQL
