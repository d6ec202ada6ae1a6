#if PostgreSQL
    // Built with the PostgreSQL trait only (SPEC §21): without it nothing links libpq.
    import CPostgres

    /// How a `PostgresConnection` sends its statements so that no session state outlives a
    /// transaction (SPEC §20): every call then works through pgbouncer in transaction pooling mode —
    /// whose 1.18 (Debian's) has no prepared-statement support, so a statement named on one server
    /// connection is unknown on the next — with the same URL as a direct connection.
    ///
    /// - Outside a transaction every statement is unnamed (`PQsendQueryParams`: parse, bind and
    ///   execute in one round trip, nothing left on the server).
    /// - Inside a transaction a statement is unnamed the first time it is sent; sent again (a batch
    ///   of inserts, an import's rows, sparkline chunks) it is prepared under a name once and run by
    ///   that name for the rest of the transaction, and every name goes with the transaction:
    ///   `DEALLOCATE ALL` runs in the round trip of its `COMMIT` or `ROLLBACK`. A transaction whose
    ///   connection is dropped (a timeout, a lost server) ends with its session.
    /// - The URL option `prepare=false` (`PostgresURL.takingOwnOptions`) names nothing: every
    ///   statement is unnamed (its cost on a direct connection: `make bench-service`, BENCHMARKS.md).
    extension PostgresConnection {
        /// The current transaction's statements (SQL with `$N` placeholders).
        struct TransactionStatements {
            /// SQL → the name it was prepared under in this transaction.
            var named: [String: String] = [:]
            /// SQL → how many times it was sent in this transaction.
            var sends: [String: Int] = [:]
        }

        /// Sends `sql` with its parameters and reads its result in one round trip (two the first time
        /// a statement is named: its `Prepare`); see the extension's documentation.
        /// - Returns: the result, for `failure` (nil when sending failed: the error is the connection's).
        func send(
            _ sql: String, _ count: Int32, _ values: [UnsafePointer<CChar>?], _ lengths: [Int32], _ formats: [Int32],
            _ context: () -> String
        ) throws -> OpaquePointer? {
            let connection = try live()
            if inTransaction, namesStatements {
                if let name = transactionStatements.named[sql] {
                    return try roundTrip(connection, context) { PQsendQueryPrepared($0, name, count, values, lengths, formats, 1) }
                }
                let sends = (transactionStatements.sends[sql] ?? 0) + 1
                transactionStatements.sends[sql] = sends
                if sends >= 2 {
                    let name = "cf\(transactionStatements.named.count + 1)"
                    let prepareContext = "cannot prepare \"\(sql.prefix(40))\""
                    let prepared = try roundTrip(connection, { prepareContext }) { PQsendPrepare($0, name, sql, 0, nil) }
                    if let error = failure(prepared, prepareContext) { throw error }
                    PQclear(prepared)
                    transactionStatements.named[sql] = name
                    return try roundTrip(connection, context) { PQsendQueryPrepared($0, name, count, values, lengths, formats, 1) }
                }
            }
            return try roundTrip(connection, context) { PQsendQueryParams($0, sql, count, nil, values, lengths, formats, 1) }
        }
    }
#endif  // PostgreSQL
