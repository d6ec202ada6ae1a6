import Foundation

/// How a `CoinGeckoClient` reaches CoinGecko: the `api` object of the engine config.
///
/// JSON form (every key optional): `{"base_url", "plan": "public"|"demo"|"pro", "api_key",
/// "timeout_ms": 15000, "max_retries": 2, "max_retry_wait_s": 60, "max_body_bytes": 33554432}`.
public struct ClientConfiguration: Sendable, CustomStringConvertible {
    /// CoinGecko's plans: which host and which key header.
    public enum Plan: String, Sendable, CaseIterable {
        /// No key; `https://api.coingecko.com/api/v3`.
        case `public`
        /// Demo key in `x-cg-demo-api-key`; same host as public.
        case demo
        /// Pro key in `x-cg-pro-api-key`; `https://pro-api.coingecko.com/api/v3`.
        case pro

        /// The plan's default base URL.
        public var defaultBaseURL: String {
            switch self {
            case .public, .demo: return "https://api.coingecko.com/api/v3"
            case .pro: return "https://pro-api.coingecko.com/api/v3"
            }
        }

        /// The header that carries the key, nil for `public`.
        public var keyHeader: String? {
            switch self {
            case .public: return nil
            case .demo: return "x-cg-demo-api-key"
            case .pro: return "x-cg-pro-api-key"
            }
        }
    }

    /// The API root without a trailing slash, e.g. `https://api.coingecko.com/api/v3` (tests point
    /// it at loopback).
    public private(set) var baseURL: String
    /// The plan: decides the key header.
    public var plan: Plan
    /// The API key; never printed, logged or put in an error.
    public var apiKey: String?
    /// The most one attempt may take, in seconds (`timeout_ms` / 1000).
    public var timeout: Double
    /// How many times a failed request is tried again (429, 5xx, network failures).
    public var maxRetries: Int
    /// The longest `Retry-After` waited for, in seconds; a longer one fails at once.
    public var maxRetryWait: Double
    /// The largest answer body read, in bytes, counted after decompression and enforced while
    /// reading (default 32 MiB); a larger one fails with `.http`, `details.reason` `"body_too_large"`.
    public var maxBodyBytes: Int

    /// The default `maxBodyBytes`: 32 MiB (a full 250-coin page with sparklines is about 1.3 MB).
    public static let defaultMaxBodyBytes = 32 * 1024 * 1024

    /// - Throws: `.invalidArgument` for a demo or pro plan without a key, a timeout ≤ 0, negative
    ///   retries or wait, or a base URL that is not absolute http(s), or a key with a plain-http
    ///   URL whose host is not a loopback address (the key would cross the network in clear
    ///   text), or a body limit below 1 byte.
    public init(
        baseURL: String?, plan: Plan = .public, apiKey: String? = nil, timeout: Double = 15,
        maxRetries: Int = 2, maxRetryWait: Double = 60, maxBodyBytes: Int = ClientConfiguration.defaultMaxBodyBytes
    ) throws {
        var root = baseURL.flatMap { $0.isEmpty ? nil : $0 } ?? plan.defaultBaseURL
        while root.hasSuffix("/") { root.removeLast() }
        guard let url = URL(string: root), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil, url.query == nil, url.fragment == nil
        else {
            throw CoinfolioError.invalid("base_url must be an absolute http or https URL without query")
        }
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
            throw CoinfolioError.invalid("timeout_ms must be from 1 to 3600000")
        }
        guard maxRetries >= 0, maxRetries <= 10 else { throw CoinfolioError.invalid("max_retries must be from 0 to 10") }
        guard maxRetryWait.isFinite, maxRetryWait >= 0, maxRetryWait <= 86_400 else {
            throw CoinfolioError.invalid("max_retry_wait_s must be from 0 to 86400")
        }
        guard maxBodyBytes >= 1 else { throw CoinfolioError.invalid("max_body_bytes must be at least 1") }
        let key = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        if key != nil, scheme == "http", !Self.isLoopback(url.host ?? "") {
            throw CoinfolioError.invalid(
                "an api_key is only sent over https, or over http to a loopback address (127.0.0.0/8, ::1, localhost)")
        }
        if plan != .public, key == nil { throw CoinfolioError.invalid("plan \(plan.rawValue) needs an api_key") }
        if let key, key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw CoinfolioError.invalid("api_key may not contain control characters")
        }
        self.baseURL = root
        self.plan = plan
        self.apiKey = key
        self.timeout = timeout
        self.maxRetries = maxRetries
        self.maxRetryWait = maxRetryWait
        self.maxBodyBytes = maxBodyBytes
    }

    /// Public plan, default URL, default limits.
    public init() {
        baseURL = Plan.public.defaultBaseURL
        plan = .public
        apiKey = nil
        timeout = 15
        maxRetries = 2
        maxRetryWait = 60
        maxBodyBytes = Self.defaultMaxBodyBytes
    }

    /// Whether `host` (as `URL.host` gives it) *is* a loopback address: an IPv4 address in
    /// 127.0.0.0/8 parsed as an address (so `127.0.0.1.attacker.example` is not), the IPv6
    /// address ::1 in any spelling, or the name `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    /// Describes the configuration with the key redacted.
    public var description: String {
        "ClientConfiguration(base_url: \(baseURL), plan: \(plan.rawValue), api_key: \(apiKey == nil ? "none" : "[redacted]"), timeout_ms: \(Int(timeout * 1000)), max_retries: \(maxRetries), max_retry_wait_s: \(maxRetryWait), max_body_bytes: \(maxBodyBytes))"
    }
}

extension ClientConfiguration: Decodable {
    private enum CodingKeys: String, CodingKey {
        case baseURL = "base_url", plan, apiKey = "api_key", timeoutMS = "timeout_ms"
        case maxRetries = "max_retries", maxRetryWait = "max_retry_wait_s", maxBodyBytes = "max_body_bytes"
    }

    /// Reads the JSON form; see the type's documentation.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var plan = Plan.public
        if let name = try c.decodeIfPresent(String.self, forKey: .plan) {
            guard let known = Plan(rawValue: name.lowercased()) else {
                throw CoinfolioError.invalid("plan must be \"public\", \"demo\" or \"pro\"")
            }
            plan = known
        }
        let timeoutMS = try c.finiteNumber(.timeoutMS, in: 1...3_600_000) ?? 15_000
        try self.init(
            baseURL: try c.decodeIfPresent(String.self, forKey: .baseURL), plan: plan,
            apiKey: try c.decodeIfPresent(String.self, forKey: .apiKey),
            timeout: timeoutMS / 1000, maxRetries: try c.wholeNumber(.maxRetries, in: 0...10) ?? 2,
            maxRetryWait: try c.finiteNumber(.maxRetryWait, in: 0...86_400) ?? 60,
            maxBodyBytes: try c.wholeNumber(.maxBodyBytes, in: 1...(1 << 32)) ?? Self.defaultMaxBodyBytes)
    }

    /// Reads the JSON form; nil means all defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad value.
    public init(json: String?) throws {
        self = try ConfigJSON.decode(ClientConfiguration.self, from: json, default: { ClientConfiguration() })
    }
}
