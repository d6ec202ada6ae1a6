import Foundation

/// The URL of one CoinGecko request, built with `URLComponents`: the base URL, one path segment
/// per element of `path` (a coin id is always exactly one segment, whatever it holds), then the
/// query items in the order given.
///
/// Every path segment, query name and query value is percent-encoded here (all bytes but RFC
/// 3986's unreserved `A–Z a–z 0–9 - . _ ~`), so nothing a caller passes can change the route, and
/// `URLComponents`, which stops the process when handed an invalid percent-encoded part, is only
/// ever handed valid ones.
enum RequestURL {
    /// One `name=value` of a query. A list value (`ids=bitcoin,ethereum`) is its items, each
    /// percent-encoded, joined by commas (CoinGecko splits there; a comma inside an item is `%2C`).
    struct QueryItem: Equatable, Sendable {
        /// The parameter name.
        let name: String
        /// The value's items (one, unless the value is a list).
        let values: [String]

        /// A text value.
        init(_ name: String, _ value: String) {
            self.name = name
            self.values = [value]
        }

        /// A whole number, in decimal.
        init(_ name: String, _ value: Int) { self.init(name, String(value)) }

        /// A flag, as CoinGecko spells it: `true` or `false`.
        init(_ name: String, _ flag: Bool) { self.init(name, flag ? "true" : "false") }

        /// A comma-separated list.
        init(_ name: String, list: [String]) {
            self.name = name
            self.values = list
        }

        /// `precision=full`, which `/coins/markets`, `/simple/price` and
        /// `/coins/{id}/market_chart/range` requests always send (SPEC §17): without it CoinGecko
        /// rounds prices, and a tiny one such as 2.6e-13 BTC is lost.
        static let fullPrecision = QueryItem("precision", "full")

        /// The value as sent: each item percent-encoded, joined by commas.
        var encodedValue: String { values.map(RequestURL.percentEncoded).joined(separator: ",") }
    }

    /// The bytes a path segment or query value keeps as they are: RFC 3986's unreserved set.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` percent-encoded as one path segment or query value: every UTF-8 byte outside the
    /// unreserved set becomes `%XX` (upper-case hex), so `bitcoin?x=1` is `bitcoin%3Fx%3D1`.
    static func percentEncoded(_ text: String) -> String {
        // addingPercentEncoding answers nil only for text that is not Unicode, which a String
        // never is; the byte-wise fallback keeps the promise without relying on that.
        text.addingPercentEncoding(withAllowedCharacters: unreserved)
            ?? text.utf8.map { String(format: "%%%02X", $0) }.joined()
    }

    /// `base` (an absolute http(s) URL without query), then `path` segments, then `query`.
    /// - Returns: nil when `base` does not parse as URL components.
    static func make(base: String, path: [String], query: [QueryItem] = []) -> URL? {
        guard var components = URLComponents(string: base) else { return nil }
        components.percentEncodedPath += path.map { "/" + percentEncoded($0) }.joined()
        if !query.isEmpty {
            components.percentEncodedQueryItems = query.map { URLQueryItem(name: percentEncoded($0.name), value: $0.encodedValue) }
        }
        return components.url
    }
}
