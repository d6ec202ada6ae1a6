import Foundation

/// The proxy libcurl would send a request through. swift-corelibs-foundation's URLSession (our
/// HTTP stack on Linux) sets no proxy option of its own (`connectionProxyDictionary` is not read),
/// so libcurl takes one from the environment, as libcurl 7.88 (Debian 12) reads it:
///
/// - `http://` URLs: `http_proxy` (lower case only: libcurl ignores `HTTP_PROXY`, which a CGI
///   request can set); `https://` URLs: `https_proxy`, else `HTTPS_PROXY`; then, for either,
///   `all_proxy`, else `ALL_PROXY`. An empty variable counts as unset.
/// - none when `no_proxy` (else `NO_PROXY`) lists the host: `*` alone (every host); a name, which
///   also covers its subdomains (`example.com` covers `api.example.com`; a leading or trailing dot
///   is ignored; any letter case); an IPv4 or IPv6 address, or a network in CIDR form
///   (`127.0.0.0/8`, `::1/128`). Entries are separated by commas (blanks around them allowed).
///
/// Where this reading and a libcurl could differ (entries separated by blanks alone, which
/// libcurl 7.88 accepts and later ones may not), it says "proxied": Coinfolio then refuses a
/// request it could have sent, never sends one through a proxy it meant to avoid.
enum ProxyEnvironment {
    /// The variable whose proxy libcurl would use for `url`, or nil when it would connect directly.
    static func variable(for url: URL, environment: (String) -> String? = Self.processEnvironment) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host else { return nil }
        func value(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        let names = scheme == "https" ? ["https_proxy", "HTTPS_PROXY"] : scheme == "http" ? ["http_proxy"] : []
        guard let proxy = (names + ["all_proxy", "ALL_PROXY"]).first(where: { value($0) != nil }) else { return nil }
        if let exceptions = value("no_proxy") ?? value("NO_PROXY"), excludes(exceptions, host: host) { return nil }
        return proxy
    }

    /// The process's environment, read when a request is made (a host may change it).
    static func processEnvironment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Refuses (nothing is sent) a request to a loopback address that libcurl would send through
    /// a proxy: a local server's traffic, and any key it carries over plain http, would reach the
    /// proxy. Coinfolio cannot tell libcurl to bypass it without changing the process's
    /// environment for every thread of the host, so it says which variable to change instead.
    /// - Throws: `.network` with `details.reason` `"proxy"`, `details.variable` and
    ///   `details.sent` false.
    static func refuseLoopbackThroughProxy(_ url: URL) throws {
        guard let host = url.host, ClientConfiguration.isLoopback(host), let variable = variable(for: url) else { return }
        var bare = host
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
        throw CoinfolioError(
            .network,
            "\(variable) would carry this request for the loopback address \(host) through a proxy; Coinfolio sends loopback "
                + "requests directly or not at all: add \(bare) to no_proxy (for example no_proxy=localhost,127.0.0.0/8,::1); nothing was sent",
            reason: .proxy, details: [.variable: .string(variable), .sent: .bool(false)])
    }

    /// Whether the `no_proxy` list `list` names `host` (the rules above).
    static func excludes(_ list: String, host rawHost: String) -> Bool {
        if list == "*" { return true }
        var host = rawHost.lowercased()
        var isIPv6 = false
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            isIPv6 = true
        }
        var v4 = in_addr()
        let isIPv4 = !isIPv6 && inet_pton(AF_INET, host, &v4) == 1
        if !isIPv6, !isIPv4, host.hasSuffix(".") { host.removeLast() }
        for rawToken in list.split(separator: ",") {
            let token = rawToken.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).lowercased()
            guard !token.isEmpty, !token.contains(" "), !token.contains("\t") else { continue }
            if isIPv4 || isIPv6 {
                if addressMatches(host, network: token, family: isIPv6 ? AF_INET6 : AF_INET) { return true }
                continue
            }
            var name = Substring(token)
            if name.hasSuffix(".") { name = name.dropLast() }
            if name.hasPrefix(".") { name = name.dropFirst() }
            guard !name.isEmpty else { continue }
            if host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }

    /// Whether `address` is `network` (`1.2.3.4`, `::1`) or inside it (`127.0.0.0/8`, `fe80::/10`).
    private static func addressMatches(_ address: String, network: String, family: Int32) -> Bool {
        let parts = network.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let size = family == AF_INET ? 4 : 16
        var bits = size * 8
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...size * 8).contains(value) else { return false }
            bits = value == 0 ? size * 8 : value  // libcurl reads /0 as the whole address
        }
        var a = [UInt8](repeating: 0, count: 16)
        var n = [UInt8](repeating: 0, count: 16)
        guard inet_pton(family, address, &a) == 1, inet_pton(family, String(parts[0]), &n) == 1 else { return false }
        for index in 0..<size {
            let keep = min(8, max(0, bits - index * 8))
            let mask = keep == 0 ? UInt8(0) : UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
            if a[index] & mask != n[index] & mask { return false }
        }
        return true
    }
}
