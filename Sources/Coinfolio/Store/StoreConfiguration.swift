/// How a `PortfolioStore` is opened.
///
/// JSON form: `{"database": path | ":memory:" | "postgresql://user[:password]@host[:port]/db[?params]",
/// "owner": "default", "database_timeout": 30, "read_database": "postgresql://…"}`; `database` is
/// required, the others optional.
public struct StoreConfiguration: Sendable {
    /// A SQLite file path, `":memory:"`, or a PostgreSQL URL (`postgres://` too).
    public var database: String
    /// Whose rows the store reads and writes (1–256 bytes, no control characters).
    public var owner: String
    /// `database_timeout`: seconds one wait on the database may last (positive, finite; default
    /// 30). PostgreSQL: every round trip (connect, prepare, execute, `BEGIN`/`COMMIT`/`ROLLBACK`);
    /// past it the call fails with `.store`, `details["reason"]` "timeout", and the next call
    /// reconnects. SQLite: the busy timeout (how long a write waits for another connection's lock).
    public var databaseTimeout: Double
    /// `read_database`: a hot standby of a PostgreSQL `database` that reads go to (SPEC §20; see
    /// `PortfolioStore.init(path:owner:databaseTimeout:readDatabase:)`); nil: none.
    public var readDatabase: String?

    /// A configuration.
    public init(database: String, owner: String = "default", databaseTimeout: Double = 30, readDatabase: String? = nil) {
        self.database = database
        self.owner = owner
        self.databaseTimeout = databaseTimeout
        self.readDatabase = readDatabase
    }
}

extension StoreConfiguration: Decodable {
    private enum CodingKeys: String, CodingKey {
        case database, owner
        case databaseTimeout = "database_timeout"
        case readDatabase = "read_database"
    }

    /// Reads the JSON form; see the type's documentation.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let database = try c.decodeIfPresent(String.self, forKey: .database), !database.isEmpty else {
            throw CoinfolioError(
                .invalidArgument, "database must be a path, \":memory:\" or a postgresql:// URL", details: [.field: .string("database")])
        }
        self.init(
            database: database, owner: try c.decodeIfPresent(String.self, forKey: .owner) ?? "default",
            databaseTimeout: try c.databaseTimeout(.databaseTimeout) ?? DatabaseTimeout.defaultSeconds,
            readDatabase: try c.decodeIfPresent(String.self, forKey: .readDatabase))
    }

    /// Reads the JSON form.
    /// - Throws: `.invalidArgument` for NULL, malformed JSON or a bad value (a `database_timeout`
    ///   that is not a positive finite number: `details["field"]` "database_timeout").
    public init(json: String?) throws {
        guard let json else { throw CoinfolioError.invalid("config_json is NULL") }
        self = try ConfigJSON.decode(StoreConfiguration.self, from: json, default: { StoreConfiguration(database: "") })
    }
}

extension PortfolioStore {
    /// Opens the store `configuration` names; see `init(path:owner:databaseTimeout:)`.
    public convenience init(configuration: StoreConfiguration) throws {
        try self.init(
            path: configuration.database, owner: configuration.owner, databaseTimeout: configuration.databaseTimeout,
            readDatabase: configuration.readDatabase)
    }
}
