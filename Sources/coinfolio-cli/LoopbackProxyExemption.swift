import Foundation

/// The CLI's loopback requests go directly, whatever proxy the environment names. libcurl (under
/// URLSession) sends a request to 127.0.0.1 through `http_proxy` or `ALL_PROXY` unless `no_proxy`
/// lists it, and the library then refuses it (`ProxyEnvironment`: a local server's traffic and
/// key must not reach a proxy) rather than change a host's environment under its threads. The
/// CLI owns its process: before any thread starts, when a proxy variable is set, it appends
/// `localhost,127.0.0.0/8,::1` to `no_proxy` (after the list `no_proxy` or `NO_PROXY` already
/// holds, which keeps working), so `--base-url http://127.0.0.1:…` connects directly and
/// CoinGecko's https still goes through the proxy.
enum LoopbackProxyExemption {
    /// What is appended to `no_proxy`.
    static let loopback = "localhost,127.0.0.0/8,::1"

    static func apply() {
        func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let proxies = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        guard proxies.contains(where: { value($0) != nil }) else { return }
        let current = value("no_proxy") ?? value("NO_PROXY")
        if current == "*" { return }
        setenv("no_proxy", current.map { "\($0),\(loopback)" } ?? loopback, 1)
    }
}
