import Foundation
import XCTest

@testable import Coinfolio

/// Issue 31's client findings (SPEC §5, §10, §17), over real HTTP to the loopback server.
final class ClientEdgeTests: LoopbackServerTestCase {
    // MARK: - CoinGecko's error code in each of its three shapes

    func testErrorCodeIsReadInEveryShape() throws {
        let cases: [(status: Int, code: Int, expected: CoinfolioError.Code, reason: String?)] = [
            (400, 10011, .unauthorized, nil),  // a demo key sent to the pro host
            (400, 10010, .unauthorized, nil),  // a pro key sent to the public host
            (401, 10012, .unauthorized, "history_limit"),
            (401, 10002, .unauthorized, nil),
            (400, 10099, .http, nil),
        ]
        for shape in ["status", "error.status", "top_level"] {
            for item in cases {
                let label = "\(shape) \(item.code)"
                try server.control("reset")
                try server.fault([
                    "path": "/api/v3/global", "status": item.status, "error_code": item.code, "error_shape": shape,
                    "error_message": "said for \(item.code)",
                ])
                let error = assertThrows(item.expected) { try self.client().global() }
                XCTAssertEqual(error?.httpStatus, item.status, label)
                XCTAssertEqual(error?.details["error_code"], .number(Double(item.code)), label)
                XCTAssertEqual(error?.details["reason"], item.reason.map { .string($0) }, label)
                XCTAssertTrue(error?.message.hasSuffix(": said for \(item.code)") ?? false, "\(label): \(error?.message ?? "")")
            }
        }
    }

    func testTopLevelErrorCodeOfTheIssue() throws {
        let body =
            #"{"timestamp":"2025-01-10T12:00:00.000+00:00","error_code":10011,"error_message":"If you are using Demo API key, please change your root URL from pro-api.coingecko.com to api.coingecko.com"}"#
        try server.fault(["path": "/api/v3/coins/markets", "status": 400, "body": body])
        let error = assertThrows(.unauthorized) { try self.client().markets(try MarketsRequest()) }
        XCTAssertEqual(error?.details["error_code"], .number(10011))
        XCTAssertEqual(error?.details["http_status"], .number(400))
        XCTAssertEqual(
            error?.message,
            "CoinGecko refused the API key (error 10011): If you are using Demo API key, please change your root URL from pro-api.coingecko.com to api.coingecko.com"
        )
    }

    func testAnErrorCodeThatIsNotAnIntegerIsNoCode() throws {
        for body in [
            #"{"error_code":"10011","error_message":"text"}"#, #"{"error_code":10011.5,"error_message":"half"}"#,
            #"{"error_code":true,"error_message":"yes"}"#,
        ] {
            try server.control("reset")
            try server.fault(["path": "/api/v3/global", "status": 400, "body": body])
            let error = assertThrows(.http) { try self.client().global() }
            XCTAssertNil(error?.details["error_code"], body)
        }
    }

    // MARK: - precision=full (SPEC §17)

    func testMarketsAndSimplePriceAskForFullPrecision() throws {
        try server.route([
            "path": "/api/v3/coins/markets", "body": #"[{"id":"shiba-inu","symbol":"shib","name":"Shiba Inu","current_price":2.6e-13}]"#,
        ])
        try server.route(["path": "/api/v3/simple/price", "body": #"{"shiba-inu":{"btc":2.6e-13}}"#])
        let page = try client().markets(try MarketsRequest(vsCurrency: VsCurrency("btc")))
        XCTAssertEqual(page.coins.first?.currentPrice, 2.6e-13)
        let prices = try client().simplePrice(try SimplePriceRequest(ids: ["shiba-inu"], vsCurrency: VsCurrency("btc")))
        XCTAssertEqual(prices.prices["shiba-inu"]?.price, 2.6e-13)
        for path in ["/api/v3/coins/markets", "/api/v3/simple/price"] {
            let query = try XCTUnwrap(server.requests(to: path).first?["query"] as? [String: String], path)
            XCTAssertEqual(query["precision"], "full", path)
        }
    }

    func testTheServerRefusesARequestWithoutFullPrecision() throws {
        for path in ["coins/markets?vs_currency=usd", "simple/price?ids=bitcoin&vs_currencies=usd"] {
            let url = try XCTUnwrap(URL(string: "\(server.baseURL)/\(path)"))
            XCTAssertEqual(try HTTPTransport(timeout: 5).get(url, headers: [:], timeout: 5).status, 422, path)
        }
    }

    // MARK: - Proxies (finding 2): the environment read as libcurl 7.88 reads it

    private func proxyVariable(_ url: String, _ environment: [String: String]) throws -> String? {
        ProxyEnvironment.variable(for: try XCTUnwrap(URL(string: url)), environment: { environment[$0] })
    }

    func testProxyVariablesAreReadAsLibcurlReadsThem() throws {
        let proxy = "http://127.0.0.1:3128"
        XCTAssertEqual(try proxyVariable("http://127.0.0.1:9/api/v3", ["http_proxy": proxy]), "http_proxy")
        XCTAssertNil(try proxyVariable("http://127.0.0.1:9/api/v3", ["HTTP_PROXY": proxy]), "libcurl never reads HTTP_PROXY")
        XCTAssertNil(try proxyVariable("http://127.0.0.1:9/api/v3", ["https_proxy": proxy]), "https_proxy is for https")
        XCTAssertEqual(try proxyVariable("https://api.coingecko.com/api/v3", ["HTTPS_PROXY": proxy]), "HTTPS_PROXY")
        XCTAssertEqual(try proxyVariable("https://x.example/", ["https_proxy": "", "HTTPS_PROXY": proxy]), "HTTPS_PROXY", "empty is unset")
        XCTAssertEqual(try proxyVariable("http://x.example/", ["http_proxy": "", "all_proxy": proxy]), "all_proxy")
        XCTAssertEqual(try proxyVariable("http://[::1]:9/", ["ALL_PROXY": proxy]), "ALL_PROXY")
        XCTAssertNil(try proxyVariable("http://127.0.0.1:9/", [:]))
        XCTAssertNil(try proxyVariable("http://127.0.0.1:9/", ["http_proxy": proxy, "no_proxy": "", "NO_PROXY": "127.0.0.1"]))
        XCTAssertEqual(
            try proxyVariable("http://127.0.0.1:9/", ["http_proxy": proxy, "no_proxy": "example.org", "NO_PROXY": "127.0.0.1"]),
            "http_proxy", "a set no_proxy hides NO_PROXY")
    }

    func testNoProxyListsAreMatchedAsLibcurlMatchesThem() {
        let cases: [(list: String, host: String, excluded: Bool)] = [
            ("*", "127.0.0.1", true), ("*,example.org", "127.0.0.1", false),
            ("127.0.0.1", "127.0.0.1", true), ("127.0.0.2", "127.0.0.1", false),
            ("127.0.0.0/8", "127.200.3.4", true), ("127.0.0.0/8", "128.0.0.1", false), ("10.0.0.0/33", "10.0.0.1", false),
            ("::1", "[::1]", true), ("::1", "::1", true), ("0:0:0:0:0:0:0:1", "[::1]", true), ("fe80::/10", "[fe80::1]", true),
            ("localhost", "localhost", true), ("localhost", "LOCALHOST", true), ("localhost", "127.0.0.1", false),
            ("example.com", "api.example.com", true), (".example.com", "api.example.com", true),
            ("example.com.", "EXAMPLE.COM", true), ("example.com", "notexample.com", false),
            (" example.org , 127.0.0.1 ", "127.0.0.1", true), ("example.org,,127.0.0.1", "127.0.0.1", true),
            // Blanks alone as separators: libcurl 7.88 reads them, later ones may not; "proxied".
            ("example.org 127.0.0.1", "127.0.0.1", false),
        ]
        for item in cases {
            XCTAssertEqual(ProxyEnvironment.excludes(item.list, host: item.host), item.excluded, "\(item.list) / \(item.host)")
        }
    }

    // MARK: - Compression bombs (finding 3): bounded while decompressing

    func testACompressionBombIsBodyTooLarge() throws {
        for encoding in ["gzip", "deflate"] {
            try server.control("reset")
            // 256 MiB of JSON padding from 260 KB on the wire; the client stops at 1 MiB. (The
            // memory a 2 GiB bomb costs is measured by Tests/probes/bounds.py, in make stress.)
            try server.fault(["path": "/api/v3/global", "body": #"{"data":{}}"#, "bomb_bytes": 256 << 20, "encoding": encoding])
            let error = assertThrows(.http) { try self.client { $0.maxBodyBytes = 1 << 20 }.global() }
            XCTAssertEqual(error?.details["reason"], .string("body_too_large"), encoding)
            XCTAssertEqual(error?.details["max_body_bytes"], .number(Double(1 << 20)), encoding)
        }
        XCTAssertNotNil(try client().global().markets, "the next call works")
    }

    func testACompressedBodyUnderTheLimitDecodes() throws {
        try server.fault(["path": "/api/v3/global", "body": #"{"data":{"markets":7}}"#, "bomb_bytes": 4 << 20, "encoding": "deflate"])
        XCTAssertEqual(try client { $0.maxBodyBytes = 8 << 20 }.global().markets, 7)
    }
}
