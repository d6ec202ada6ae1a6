/// The store's schema, versioned: SQLite keeps the version in `PRAGMA user_version`, PostgreSQL
/// in the one-row table `coinfolio_schema` (`Database.schemaVersion()`). A new version adds a
/// file `Schema+StepN….swift` declaring its `Step` and appends it to `steps` below, the one
/// place steps are registered; an existing step never changes. Both servers have the same
/// tables, columns and keys; only the DDL differs (types: `REAL`/`DOUBLE PRECISION`,
/// `BLOB`/`BYTEA`, bytewise `COLLATE "C"` text; PostgreSQL's storage settings: blobs kept
/// uncompressed).
///
/// An owner's rows (column `owner`, the configuration's `owner`, default `"default"`, first in
/// every primary key; every statement of the stores names it) are its ledger and its own
/// prices. Market data — snapshots with their sparklines, coin details, price points — has no
/// owner: it is stored once per database and shared by every owner (step 10, SPEC §20).
enum Schema {
    /// One migration: what takes a database from `version - 1` to `version`.
    struct Step: Sendable {
        /// The version the database has after this step (1, 2, … with no gaps).
        let version: Int
        /// What the step adds, for people.
        let summary: String
        /// Statements run inside the migration's transaction on SQLite ("" when the step has
        /// nothing to do there).
        let sqlite: String
        /// Statements run inside the migration's transaction on PostgreSQL ("" when the step
        /// has nothing to do there).
        let postgres: String
        /// Data moves the SQL cannot express, run after it in the same transaction (nil: none).
        var code: (@Sendable (any Database) throws -> Void)? = nil

        func sql(for kind: DatabaseKind) -> String { kind == .sqlite ? sqlite : postgres }
    }

    /// Every step, in version order: `steps[n - 1].version == n`. Each is declared in its own file.
    static let steps: [Step] = [
        step1Holdings, step2Owners, step3Ledger, step4CompactSnapshot, step5Positions, step6PackedSparklines,
        step7NullableNote, step8LedgerHistories, step9CompactSavedForms, step10SharedMarketData,
        step11PricePoints,
    ]

    static var currentVersion: Int { steps.last?.version ?? 0 }

    /// Brings the database to `currentVersion` inside one transaction, so that several processes
    /// opening a new database at once create it exactly once (SQLite: a write transaction;
    /// PostgreSQL: a transaction-scoped advisory lock, `Database.lockSchema()`). A database
    /// already at the current version is only read.
    /// - Throws: `.store` when the server fails or the database was written by a newer Coinfolio.
    ///
    /// `target` below `currentVersion` stops at that step (tests build old databases with it).
    static func migrate(_ database: any Database, upTo target: Int = currentVersion) throws {
        if try checkedVersion(database) >= target { return }
        try database.transaction(.readCommitted) {
            try database.lockSchema()
            let version = try checkedVersion(database)
            for step in steps where step.version > version && step.version <= target {
                let sql = step.sql(for: database.kind)
                if !sql.isEmpty { try database.execute(sql) }
                try step.code?(database)
            }
            if version < target { try database.setSchemaVersion(target) }
        }
    }

    private static func checkedVersion(_ database: any Database) throws -> Int {
        let version = try database.schemaVersion()
        guard version <= currentVersion else {
            throw CoinfolioError(.store, "the database has schema version \(version); this Coinfolio knows up to \(currentVersion)")
        }
        return version
    }
}
