/// How a `PortfolioStore` is opened.
///
/// JSON form: `{"database": path | ":memory:" | "postgresql://user[:password]@host[:port]/db[?params]",
/// "owner": "default"}`; `database` is required, `owner` optional.
public struct StoreConfiguration: Sendable {
    /// A SQLite file path, `":memory:"`, or a PostgreSQL URL (`postgres://` too).
    public var database: String
    /// Whose rows the store reads and writes (1–256 bytes, no control characters).
    public var owner: String

    /// A configuration.
    public init(database: String, owner: String = "default") {
        self.database = database
        self.owner = owner
    }
}

extension StoreConfiguration: Decodable {
    private enum CodingKeys: String, CodingKey { case database, owner }

    /// Reads the JSON form; see the type's documentation.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let database = try c.decodeIfPresent(String.self, forKey: .database), !database.isEmpty else {
            throw CoinfolioError(
                .invalidArgument, "database must be a path, \":memory:\" or a postgresql:// URL", details: ["field": .string("database")])
        }
        self.init(database: database, owner: try c.decodeIfPresent(String.self, forKey: .owner) ?? "default")
    }

    /// Reads the JSON form.
    /// - Throws: `.invalidArgument` for NULL, malformed JSON or a bad value.
    public init(json: String?) throws {
        guard let json else { throw CoinfolioError.invalid("config_json is NULL") }
        self = try ConfigJSON.decode(StoreConfiguration.self, from: json, default: { StoreConfiguration(database: "") })
    }
}

extension PortfolioStore {
    /// Opens the store `configuration` names; see `init(path:owner:)`.
    public convenience init(configuration: StoreConfiguration) throws {
        try self.init(path: configuration.database, owner: configuration.owner)
    }
}
