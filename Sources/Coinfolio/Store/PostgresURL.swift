import Foundation

#if PostgreSQL
    import CPostgres
#endif

/// A PostgreSQL connection URL (`postgresql://user[:password]@host[:port]/db[?params]`,
/// `postgres://` too, the scheme in any letter case) as Coinfolio reads it before libpq does:
/// whether it can be read only one way, how it is shown (never with its user part or password),
/// and which secrets libpq's complaints about it must not quote.
///
/// libpq ends the user part at the first `@` before any `/` (a `?` does not end it). A password
/// holding an unencoded `@` or `/` therefore ends early, and libpq would read the rest of it as a
/// host, port, database or query parameter — and quote it. Such a URL is refused before libpq
/// sees it (`isAmbiguous`): after a user part no other `@` may appear (percent-encode it, `%40`,
/// also in a query value); without one, an `@` may only stand in the value of a query parameter
/// libpq knows (`?application_name=me@host`), after hosts whose ports are numbers.
enum PostgresURL {
    /// Whether `location` is a URL of a supported scheme: `postgresql://` or `postgres://`, in any
    /// letter case (RFC 3986 §3.1), with nothing before it.
    static func hasSupportedScheme(_ location: String) -> Bool {
        let scheme = location.utf8.prefix(12).split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = scheme.first, location.utf8.dropFirst(name.count).starts(with: "://".utf8) else { return false }
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        return lowered == "postgresql" || lowered == "postgres"
    }

    /// `url` as libpq reads it: the scheme in lower case (libpq knows no other spelling).
    static func normalized(_ url: String) -> String {
        url.range(of: "://").map { url[..<$0.lowerBound].lowercased() + url[$0.lowerBound...] } ?? url
    }

    /// The options of `url`'s query that are Coinfolio's, not libpq's, and `url` without them
    /// (libpq refuses a parameter it does not know). One today: `prepare` (SPEC §20) — `false`
    /// (also `0`, `no`, `off`) sends every statement unnamed, `true` (`1`, `yes`, `on`; the
    /// default) names a statement sent again within a transaction
    /// (`PostgresConnection+Statements`). The last one given wins.
    /// - Throws: `.invalidArgument` (`details.field` "database") for another value.
    static func takingOwnOptions(_ url: String) throws -> (url: String, prepare: Bool) {
        guard let query = url.firstIndex(of: "?") else { return (url, true) }
        var prepare = true
        var kept: [Substring] = []
        for parameter in url[url.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false) {
            guard parameter.lowercased().hasPrefix("prepare=") else {
                kept.append(parameter)
                continue
            }
            switch parameter.dropFirst("prepare=".count).lowercased() {
            case "false", "0", "no", "off": prepare = false
            case "true", "1", "yes", "on": prepare = true
            default:
                throw CoinfolioError(
                    .invalidArgument, "the database URL's prepare option is true or false",
                    details: [.field: .string("database")])
            }
        }
        let base = String(url[..<query])
        return (kept.isEmpty ? base : base + "?" + kept.joined(separator: "&"), prepare)
    }

    /// Refuses a URL libpq would read otherwise than its writer meant.
    /// - Throws: `.store` with `details.reason` "ambiguous_url", the URL shown without anything
    ///   before its last `@`.
    static func checkUnambiguous(_ url: String) throws {
        guard isAmbiguous(url) else { return }
        throw CoinfolioError(
            .store,
            "cannot open database \"\(redactedURL(url))\": its user or password holds an unencoded '@', '/' or '?'"
                + " (percent-encode them: %40, %2F, %3F)",
            reason: .ambiguousURL)
    }

    /// Whether libpq might read `url` (any `scheme://…` text) otherwise than its writer meant:
    /// see the type's documentation.
    static func isAmbiguous(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return false }
        let rest = url[scheme.upperBound...]
        guard rest.contains("@") else { return false }
        if let authority = authority(url) {
            // Any later `@` (host, port, database or query) may be the one meant to end the user part.
            return rest[rest.index(after: authority.endIndex)...].contains("@")
        }
        // No user part as libpq reads it (a `/` came first), yet an `@`. Hosts are
        // `host[:port]`, comma-separated, IPv6 in brackets: a port that is no number is a
        // password's start ("u:pa/ss@…").
        let hostsEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        for host in rest[..<hostsEnd].split(separator: ",", omittingEmptySubsequences: false) {
            let afterAddress = host.split(separator: "]", omittingEmptySubsequences: false).last ?? host
            guard let colon = afterAddress.lastIndex(of: ":") else { continue }
            let port = afterAddress[afterAddress.index(after: colon)...]
            if port.isEmpty || !port.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        }
        let queryStart = rest[hostsEnd...].firstIndex(of: "?") ?? rest.endIndex
        if rest[hostsEnd..<queryStart].contains("@") { return true }  // in the database name
        guard queryStart < rest.endIndex else { return false }
        for parameter in rest[rest.index(after: queryStart)...].split(separator: "&") where parameter.contains("@") {
            guard let equals = parameter.firstIndex(of: "="), keywords.contains(String(parameter[..<equals])) else { return true }
        }
        return false
    }

    /// `url` (any `scheme://…` text) as it may appear in messages and logs: nothing between its
    /// `//` and its host — `scheme://…@host…` when it has a user part (an ambiguous URL loses
    /// everything up to its last `@`) — and a `password=` parameter's value as `***`.
    static func redactedURL(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        var result = url
        if isAmbiguous(url), let at = url[scheme.upperBound...].lastIndex(of: "@") {
            result = String(url[..<scheme.upperBound]) + "…" + url[at...]
        } else if let authority = authority(url) {
            result = String(url[..<scheme.upperBound]) + "…" + url[authority.endIndex...]
        }
        if let query = result.firstIndex(of: "?") {
            let parameters = result[result.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
            let kept = parameters.map { $0.lowercased().hasPrefix("password=") ? "password=***" : String($0) }
            result = String(result[...query]) + kept.joined(separator: "&")
        }
        return result
    }

    /// What libpq's complaints about `url` must never quote: the password as libpq reads it
    /// (decoded), as written, and the value of each `password=` parameter as written.
    static func secrets(_ url: String) -> [String] {
        let query = url.firstIndex(of: "?").map { url[url.index(after: $0)...].split(separator: "&") } ?? []
        let parameters = query.filter { $0.lowercased().hasPrefix("password=") }.map { String($0.dropFirst("password=".count)) }
        return ([password(url), writtenPassword(url)].compactMap { $0 } + parameters).filter { !$0.isEmpty }
    }

    /// Whether libpq can read `url` as a connection string (when it cannot, its message quotes
    /// the part it could not read).
    static func parses(_ url: String) -> Bool {
        #if !PostgreSQL
            return false
        #else
            var error: UnsafeMutablePointer<CChar>?
            guard let options = PQconninfoParse(url, &error) else {
                if let error { PQfreemem(error) }
                return false
            }
            PQconninfoFree(options)
            return true
        #endif
    }

    /// libpq's complaint about `url` without any of its `secrets` (`SecretRedaction`): such
    /// messages quote the URL's own text (`invalid percent-encoded token: "…"` quotes the whole
    /// password as written). Only libpq's complaints about the URL go through this: the server
    /// never sees the password in anything it could quote, and redacting a word of its message
    /// ("failed", the user name) would tell what the password is.
    static func scrub(_ message: String, _ url: String) -> String {
        SecretRedaction.redacting(secrets(url), in: message)
    }

    /// The password of a connection string as libpq reads it (URL-decoded), if any.
    static func password(_ url: String) -> String? {
        value(of: "password", in: url)
    }

    /// How long connecting to `url` may take: `timeout`, or the URL's `connect_timeout` when it
    /// is shorter (libpq reads 0 or less as "no limit": `timeout` then).
    static func connectBound(_ url: String, _ timeout: Double) -> Double {
        guard let text = value(of: "connect_timeout", in: url), let seconds = Double(text), seconds > 0 else { return timeout }
        return min(timeout, max(seconds, 2))  // libpq's own minimum is 2 s
    }

    /// The value libpq reads for `keyword` in `url`, if any.
    private static func value(of keyword: String, in url: String) -> String? {
        #if !PostgreSQL
            return nil  // a build without libpq opens no PostgreSQL URL
        #else
            guard let options = PQconninfoParse(url, nil) else { return nil }
            defer { PQconninfoFree(options) }
            var option = options
            while let name = option.pointee.keyword {
                if String(cString: name) == keyword, let value = option.pointee.val { return String(cString: value) }
                option += 1
            }
            return nil
        #endif
    }

    /// libpq's connection keywords (`user`, `application_name`, `sslmode` …): the names a query
    /// parameter may have.
    private static let keywords: Set<String> = {
        #if !PostgreSQL
            // Without libpq no parameter name is known: every `@` after the hosts reads as
            // ambiguous, so a message keeps even less of the URL.
            return []
        #else
            guard let options = PQconndefaults() else { return [] }
            defer { PQconninfoFree(options) }
            var names: Set<String> = []
            var option = options
            while let name = option.pointee.keyword {
                names.insert(String(cString: name))
                option += 1
            }
            return names
        #endif
    }()

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
}
