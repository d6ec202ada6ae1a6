import CPostgres
import Foundation

/// A PostgreSQL connection URL (`postgresql://user[:password]@host[:port]/db[?params]`,
/// `postgres://` too, the scheme in any letter case) as Coinfolio reads it before libpq does:
/// whether its user part is ambiguous, how it is shown in messages (never with its password),
/// and how libpq's complaints about it are cleaned of the password.
enum PostgresURL {
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

    /// How long connecting to `url` may take: `timeout`, or the URL's `connect_timeout` when it
    /// is shorter (libpq reads 0 or less as "no limit": `timeout` then).
    static func connectBound(_ url: String, _ timeout: Double) -> Double {
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
}
