/// How a `PortfolioEngine` is set up.
///
/// JSON form (every key optional): `{"database": ":memory:" | path | "postgresql://…",
/// "read_database": "postgresql://…" (a hot standby), "owner": "default", "database_timeout": 30,
/// "refresh_max_age_s": 0, "vs_currency": "usd",
/// "coin_limit": 250, "detail_ttl_s": 600, "stale_after_s": 600, "chart_ttl_s": 300,
/// "price_change_percentage": ["24h"], "api": {client config}}`.
public struct EngineConfiguration: Sendable {
    /// Where holdings and the saved snapshot live: a SQLite file path, `":memory:"` for none on
    /// disk, or a PostgreSQL server `postgresql://user[:password]@host[:port]/db[?params]`
    /// (`postgres://` too). A path starting with `file:` (an SQLite URI) is refused when the
    /// store opens (`.invalidArgument`, `details.reason` `"sqlite_uri"`), and so is any other
    /// string holding `://` that is not such a URL (`postgresql+psycopg2://…`,
    /// `jdbc:postgresql://…`, a space before the scheme: `details.reason` `"unsupported_url"`).
    public var database: String
    /// Whether `database` names a PostgreSQL server (a `postgresql://` or `postgres://` URL)
    /// rather than a SQLite file.
    public var databaseIsServer: Bool { DatabaseLocation.isPostgres(database) }
    /// The SQLite file `database` names (a host may create its folder): nil for `":memory:"`, a
    /// PostgreSQL URL, or a setting the engine refuses to open (an SQLite URI `file:…`, a
    /// string with `://` that is no supported URL, `details.reason` "unsupported_url").
    public var databaseFilePath: String? { DatabaseLocation.filePath(database) }
    /// A hot standby of `database` (a `postgresql://` URL) that reads go to (SPEC §20): writes go
    /// to `database`; after its own write an engine reads from `database` until the standby has
    /// replayed that write (`pg_last_wal_replay_lsn()`), so it always sees what it wrote; while
    /// the standby cannot be reached, reads go to `database`. nil (default): every read goes to
    /// `database`. With a SQLite `database` the engine refuses to open (`.invalidArgument`,
    /// `details.field` "read_database").
    public var readDatabase: String?
    /// `refresh_max_age_s`: a refresh that finds the snapshot saved in the database (by any engine)
    /// fetched less than this many seconds ago, with at least this engine's `coinLimit` and
    /// windows, answers with it without a request (`RefreshSummary.fetched` false). 0 (default):
    /// every refresh fetches, unless it waited for another engine's refresh of the same currency.
    public var refreshMaxAge: Double
    /// Whose rows the engine reads and writes in `database` (default `"default"`): an engine
    /// never sees, changes, counts or deletes another owner's rows.
    public var owner: String
    /// `database_timeout`: seconds one wait on `database` may last (positive, finite; default
    /// 30). PostgreSQL: every round trip (connect, prepare, execute, `BEGIN`/`COMMIT`/`ROLLBACK`);
    /// past it the call fails with `.store`, `details["reason"]` "timeout", and the next call
    /// reconnects. SQLite: the busy timeout (how long a write waits for another connection's lock).
    public var databaseTimeout: Double
    /// Quote currency of every price, value and statistic.
    public var vsCurrency: VsCurrency
    /// How many top coins (by market cap) a refresh downloads, 1…5000 (250 per request).
    public var coinLimit: Int
    /// How long a coin detail stays cached, in seconds.
    public var detailTTL: Double
    /// A snapshot older than this many seconds reports `stale`.
    public var staleAfter: Double
    /// How long a chart stays cached, in seconds (per coin, days and interval).
    public var chartTTL: Double
    /// The `price_change_percentage` windows a refresh asks `/coins/markets` for (each fills
    /// `price_change_percentage_<window>_in_currency`); never empty, `24h` by default.
    public var priceChangePercentage: [Coin.ChangeWindow]
    /// The CoinGecko client's configuration.
    public var api: ClientConfiguration

    /// A configuration; out-of-range numbers are clamped (the JSON form rejects them instead).
    public init(
        database: String = ":memory:", owner: String = "default", databaseTimeout: Double = 30,
        vsCurrency: VsCurrency = .usd, coinLimit: Int = 250,
        detailTTL: Double = 600, staleAfter: Double = 600, chartTTL: Double = 300,
        priceChangePercentage: [Coin.ChangeWindow] = [.h24], api: ClientConfiguration = ClientConfiguration(),
        readDatabase: String? = nil, refreshMaxAge: Double = 0
    ) {
        self.database = database
        self.readDatabase = readDatabase
        self.refreshMaxAge = refreshMaxAge.isFinite ? max(refreshMaxAge, 0) : 0
        self.owner = owner
        self.databaseTimeout = databaseTimeout.isFinite && databaseTimeout > 0 ? databaseTimeout : 30
        self.vsCurrency = vsCurrency
        self.coinLimit = min(max(coinLimit, 1), 5000)
        self.detailTTL = detailTTL.isFinite ? max(detailTTL, 0) : 600
        self.staleAfter = staleAfter.isFinite ? max(staleAfter, 0) : 600
        self.chartTTL = chartTTL.isFinite ? max(chartTTL, 0) : 300
        var windows: [Coin.ChangeWindow] = []
        for window in priceChangePercentage where !windows.contains(window) { windows.append(window) }
        self.priceChangePercentage = windows.isEmpty ? [.h24] : windows
        self.api = api
    }
}

extension EngineConfiguration: Decodable {
    private enum CodingKeys: String, CodingKey {
        case database, owner, readDatabase = "read_database", refreshMaxAge = "refresh_max_age_s", databaseTimeout = "database_timeout",
            vsCurrency = "vs_currency", coinLimit = "coin_limit", detailTTL =
            "detail_ttl_s"
        case staleAfter = "stale_after_s", chartTTL = "chart_ttl_s", priceChangePercentage = "price_change_percentage", api
    }

    /// Reads the JSON form; see the type's documentation.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let database = try c.decodeIfPresent(String.self, forKey: .database) ?? ":memory:"
        guard !database.isEmpty else { throw CoinfolioError.invalid("database must be a path, \":memory:\" or a postgresql:// URL") }
        self.init(
            database: database, owner: try c.decodeIfPresent(String.self, forKey: .owner) ?? "default",
            databaseTimeout: try c.databaseTimeout(.databaseTimeout) ?? DatabaseTimeout.defaultSeconds,
            vsCurrency: try c.decodeIfPresent(String.self, forKey: .vsCurrency).map { try VsCurrency($0) } ?? .usd,
            coinLimit: try c.wholeNumber(.coinLimit, in: 1...5000) ?? 250,
            detailTTL: try c.finiteNumber(.detailTTL, in: 0...31_536_000) ?? 600,
            staleAfter: try c.finiteNumber(.staleAfter, in: 0...31_536_000) ?? 600,
            chartTTL: try c.finiteNumber(.chartTTL, in: 0...31_536_000) ?? 300,
            priceChangePercentage: try Self.windows(c.decodeIfPresent([String].self, forKey: .priceChangePercentage)),
            api: try c.decodeIfPresent(ClientConfiguration.self, forKey: .api) ?? ClientConfiguration(),
            readDatabase: try c.decodeIfPresent(String.self, forKey: .readDatabase),
            refreshMaxAge: try c.finiteNumber(.refreshMaxAge, in: 0...31_536_000) ?? 0)
    }

    /// `price_change_percentage`: each of 1h, 24h, 7d, 14d, 30d, 200d, 1y; nil or empty is 24h.
    private static func windows(_ names: [String]?) throws -> [Coin.ChangeWindow] {
        try (names ?? []).map { name in
            guard let window = Coin.ChangeWindow(rawValue: name) else {
                throw CoinfolioError.invalid("price_change_percentage holds 1h, 24h, 7d, 14d, 30d, 200d or 1y, not \"\(name)\"")
            }
            return window
        }
    }

    /// Reads the JSON form; nil means all defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad value.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(EngineConfiguration.self, from: json, default: { EngineConfiguration() })
    }
}
