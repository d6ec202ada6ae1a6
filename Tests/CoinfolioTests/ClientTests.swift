import Foundation
import XCTest

@testable import Coinfolio

/// SPEC §5: the CoinGecko client over real HTTP to the loopback server.
final class ClientTests: LoopbackServerTestCase {
    func testMarketsSendsTheDefaultQuery() throws {
        let page = try client().markets(try MarketsRequest())
        XCTAssertEqual(page.coins.first?.id, "bitcoin")
        let query = try XCTUnwrap(server.requests(to: "/api/v3/coins/markets").first?["query"] as? [String: String])
        XCTAssertEqual(
            query,
            [
                "vs_currency": "usd", "order": "market_cap_desc", "per_page": "250", "page": "1",
                "sparkline": "true", "price_change_percentage": "24h", "precision": "full",
            ])
    }

    func testMoreThan250IDsAreSplitAndMerged() throws {
        let ids = ["bitcoin", "ethereum"] + (0..<300).map { "unknown-\($0)" } + ["tether"]
        let page = try client().markets(try MarketsRequest(ids: ids))
        XCTAssertEqual(Set(page.coins.map(\.id)), ["bitcoin", "ethereum", "tether"])
        let calls = try server.requests(to: "/api/v3/coins/markets")
        XCTAssertEqual(calls.count, 2)
        let counts = calls.compactMap { ($0["query"] as? [String: String])?["ids"]?.split(separator: ",").count }
        XCTAssertEqual(counts, [250, 53])
    }

    func testKeyHeadersFollowThePlan() throws {
        _ = try client().global()
        _ = try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .demo, apiKey: "demo-key", timeout: 5) }.global()
        _ = try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .pro, apiKey: "pro-key", timeout: 5) }.global()
        let headers = try server.log().compactMap { $0["headers"] as? [String: String] }
        XCTAssertEqual(headers.count, 3)
        XCTAssertNil(headers[0]["x-cg-demo-api-key"]); XCTAssertNil(headers[0]["x-cg-pro-api-key"])
        XCTAssertEqual(headers[1]["x-cg-demo-api-key"], "demo-key"); XCTAssertNil(headers[1]["x-cg-pro-api-key"])
        XCTAssertEqual(headers[2]["x-cg-pro-api-key"], "pro-key"); XCTAssertNil(headers[2]["x-cg-demo-api-key"])
    }

    func testProPlanDefaultsToTheProHost() throws {
        XCTAssertEqual(try ClientConfiguration(json: #"{"plan":"pro","api_key":"k"}"#).baseURL, "https://pro-api.coingecko.com/api/v3")
        XCTAssertEqual(try ClientConfiguration(json: nil).baseURL, "https://api.coingecko.com/api/v3")
    }

    func testBadConfigurationsAreInvalidArguments() {
        for json in [
            #"{"plan":"gold"}"#, #"{"timeout_ms":-1}"#, #"{"base_url":"not a url"}"#, #"{"base_url":"ftp://x"}"#,
            #"{"max_retries":-1}"#, #"{"plan":"demo"}"#, #"{"timeout_ms":"fast"}"#, "[]", "{",
        ] {
            assertThrows(.invalidArgument) { try ClientConfiguration(json: json) }
        }
    }

    /// The server keeps answering 429 for the whole second its Retry-After names (`hold_ms`), so
    /// the call succeeds with exactly two requests only if the client waited it out.
    func testRetryAfterOneSecondIsWaitedThenSucceeds() throws {
        try server.fault([
            "path": "/api/v3/global", "status": 429, "headers": ["Retry-After": "1"], "body": "{\"status\":{\"error_code\":429}}",
            "hold_ms": 1000,
        ])
        let data = try client { $0.maxRetries = 2 }.global()
        XCTAssertEqual(data.marketCapPercentage?["btc"], 42.5)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 2, "one 429, then one request after the wait")
    }

    func testLongRetryAfterFailsAtOnceWithItsValue() throws {
        let body = #"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit."}}"#
        try server.fault(["path": "/api/v3/global", "status": 429, "headers": ["Retry-After": "119"], "body": body])
        let error = assertThrows(.rateLimited) { try client { $0.maxRetries = 2 }.global() }
        XCTAssertEqual(error?.retryAfter, 119)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 1)
    }

    func testServerErrorsWithHTMLAreRetriedThenReported() throws {
        try server.fault([
            "path": "/api/v3/global", "times": 3, "status": 503, "headers": ["Content-Type": "text/html"],
            "body": "<html><body>Service Unavailable</body></html>",
        ])
        let error = assertThrows(.http) { try client { $0.maxRetries = 2 }.global() }
        XCTAssertEqual(error?.httpStatus, 503)
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 3)
    }

    func testTruncatedBodyIsAnErrorNotData() throws {
        try server.fault(["path": "/api/v3/coins/markets", "truncate": true])
        let error = assertThrows(.network) { try client().markets(try MarketsRequest()) }
        XCTAssertNotNil(error)
    }

    /// A body slower than the timeout: the call fails as a timeout and the request is abandoned
    /// (the server sees the connection closed while it still held the body back).
    func testSlowBodyPastTheTimeoutIsANetworkError() throws {
        try server.fault(["path": "/api/v3/global", "delay_ms": 30_000])
        let error = assertThrows(.network) {
            try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, timeout: 0.5, maxRetries: 0) }.global()
        }
        XCTAssertEqual(error?.reason, .timeout)
        XCTAssertTrue(error?.message.hasSuffix(" ms (timed out)") ?? false, error?.message ?? "")
        // The server notices the closed connection as soon as it happens; this only waits for that.
        var abandoned = false
        for _ in 0..<200 where !abandoned {
            abandoned = try server.requests(to: "/api/v3/global").first?["abandoned"] as? Bool ?? false
            if !abandoned { usleep(50_000) }
        }
        XCTAssertTrue(abandoned, "the client closed the connection before the body came")
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 1)
    }

    func testConnectionRefusedIsANetworkError() throws {
        server.stop()
        assertThrows(.network) { try client().global() }
    }

    func testRejectedKeyIsUnauthorizedAndNeverEchoed() throws {
        try server.fault([
            "path": "/api/v3/global", "status": 401,
            "body": #"{"status":{"error_code":10002,"error_message":"API Key Missing or invalid: secret-key-123"}}"#,
        ])
        let error = assertThrows(.unauthorized) {
            try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .demo, apiKey: "secret-key-123", timeout: 5) }
                .global()
        }
        XCTAssertFalse(error?.json.contains("secret-key-123") ?? true)
        let keyed = try client {
            $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .demo, apiKey: "secret-key-123", timeout: 5)
        }
        XCTAssertFalse(keyed.description.contains("secret-key-123"))
    }

    func testNestedErrorShapeAndWrongPlanCodes() throws {
        try server.fault([
            "path": "/api/v3/global", "status": 400, "body": #"{"error":{"status":{"error_code":10011,"error_message":"wrong plan"}}}"#,
        ])
        assertThrows(.unauthorized) { try client().global() }
    }

    func testNotFoundAndOddIDsReachTheirDetail() throws {
        XCTAssertEqual(try client().coinDetail(id: "1move token").id, "1move token")
        XCTAssertEqual(try client().coinDetail(id: "boringdao-[old]").id, "boringdao-[old]")
        assertThrows(.notFound) { try client().coinDetail(id: "bitcoin?x=1") }
        assertThrows(.notFound) { try client().coinDetail(id: "%2e%2e") }
        let paths = try server.log().compactMap { $0["path"] as? String }
        XCTAssertTrue(paths.contains("/api/v3/coins/bitcoin%3Fx%3D1"), "\(paths)")
        XCTAssertFalse(paths.contains { $0.hasSuffix("/global") })
    }

    func testBadIDsAreRejectedBeforeAnyRequest() throws {
        for id in ["..", "../global", "", ".", "a/b"] {
            assertThrows(.invalidArgument) { try client().coinDetail(id: id) }
        }
        XCTAssertEqual(try server.log().count, 0)
    }

    func testA200ThatIsNotTheExpectedJSONIsADecodeError() throws {
        try server.fault(["path": "/api/v3/global", "body": "<html>maintenance</html>"])
        assertThrows(.decode) { try client().global() }
        try server.fault(["path": "/api/v3/coins/markets", "body": "{\"unexpected\":true}"])
        assertThrows(.decode) { try client().markets(try MarketsRequest()) }
    }

    func testSubSecondTimeoutsAllowHealthyAnswersAndKeepClassification() throws {
        // Under a second (what URLSession mishandled), with room for ten healthy answers on a
        // loaded machine under TSan (make sanitize): each must come within the bound.
        let fast = try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, timeout: 0.9, maxRetries: 0) }
        for _ in 0..<10 { XCTAssertEqual(try fast.global().marketCapPercentage?["btc"], 42.5) }
        try server.fault(["path": "/api/v3/global", "status": 500, "body": "oops"])
        assertThrows(.http) { try fast.global() }
    }

    func testKeyIsRedactedBeforeLongMessagesAreCut() throws {
        let key = "CG-SuperSecretKey-0123456789"
        let padding = String(repeating: "x", count: 185)
        try server.fault([
            "path": "/api/v3/global", "status": 401,
            "body": #"{"status":{"error_code":10010,"error_message":"\#(padding) key \#(key)"}}"#,
        ])
        let error = assertThrows(.unauthorized) {
            try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .pro, apiKey: key, timeout: 5, maxRetries: 0) }
                .global()
        }
        XCTAssertFalse(error?.json.contains("CG-Super") ?? true, error?.message ?? "")
        try server.fault(["path": "/api/v3/global", "status": 500, "body": #"{"error":"echo \#(key.lowercased())"}"#])
        let lower = assertThrows(.http) {
            try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .pro, apiKey: key, timeout: 5, maxRetries: 0) }
                .global()
        }
        XCTAssertFalse(lower?.message.lowercased().contains(key.lowercased()) ?? true)
    }

    func testRedirectsAreNotFollowedSoTheKeyStaysHome() throws {
        try server.fault([
            "path": "/api/v3/global", "status": 302, "headers": ["Location": "http://localhost:\(server.port)/elsewhere"], "body": "",
        ])
        let error = assertThrows(.http) {
            try client {
                $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .pro, apiKey: "k-123", timeout: 5, maxRetries: 0)
            }.global()
        }
        XCTAssertEqual(error?.httpStatus, 302)
        XCTAssertEqual(try server.log().compactMap { $0["path"] as? String }, ["/api/v3/global"])
    }

    func testAKeyIsNeverSentOverPlainHTTPToAnotherHost() {
        assertThrows(.invalidArgument) { try ClientConfiguration(baseURL: "http://api.example.com/api/v3", plan: .demo, apiKey: "k") }
        XCTAssertNoThrow(try ClientConfiguration(baseURL: "http://127.0.0.1:8/api/v3", plan: .demo, apiKey: "k"))
        XCTAssertNoThrow(try ClientConfiguration(baseURL: "https://api.example.com/api/v3", plan: .demo, apiKey: "k"))
    }

    func testIDRequestsAskForEveryIDWhateverPerPageSays() throws {
        let page = try client().markets(try MarketsRequest(ids: ["bitcoin", "ethereum", "tether"], perPage: 1, page: 3))
        XCTAssertEqual(Set(page.coins.map(\.id)), ["bitcoin", "ethereum", "tether"])
        let query = try XCTUnwrap(server.requests(to: "/api/v3/coins/markets").first?["query"] as? [String: String])
        XCTAssertEqual(query["per_page"], "250")
        XCTAssertEqual(query["page"], "1")
    }

    func testPiecesOfTheKeyAreRedactedToo() {
        let key = "SECRETKEY123456789abcdef"
        for echoed in [
            String(key.dropLast()), String(key.dropFirst()), String(key.prefix(12)), "SECRETKEY%3123456789abcdef", key.lowercased(),
        ] {
            let redacted = redacting(key, in: "refused: \(echoed), try again")
            XCTAssertEqual(redacted, "refused: [redacted], try again", echoed)
        }
        XCTAssertEqual(redacting(key, in: "API Key Missing or invalid"), "API Key Missing or invalid")
    }

    func testLongIDListsAreSplitBeforeURLsGetTooLong() throws {
        let ids = (0..<120).map { "\($0)-" + String(repeating: "é", count: 40) }
        _ = try client().markets(try MarketsRequest(ids: ids))
        let lengths = try server.requests(to: "/api/v3/coins/markets").compactMap { ($0["raw_query"] as? String)?.utf8.count }
        XCTAssertGreaterThan(lengths.count, 1)
        XCTAssertTrue(lengths.allSatisfy { $0 < 8_000 }, "\(lengths)")
    }
}

/// The URLs the client builds: exact strings, one path segment per coin id, lower-case booleans.
final class RequestURLTests: XCTestCase {
    let base = "http://127.0.0.1:8080/api/v3"

    func testDetailURLHasTheIdAsOneSegment() throws {
        let query = ["localization", "sparkline"].map { RequestURL.QueryItem($0, false) }
        XCTAssertEqual(
            RequestURL.make(base: base, path: ["coins", "1move token"], query: query)?.absoluteString,
            "http://127.0.0.1:8080/api/v3/coins/1move%20token?localization=false&sparkline=false")
        XCTAssertEqual(
            RequestURL.make(base: base, path: ["coins", "bitcoin?x=1#y"])?.absoluteString,
            "http://127.0.0.1:8080/api/v3/coins/bitcoin%3Fx%3D1%23y")
        XCTAssertEqual(RequestURL.make(base: base, path: ["coins", "%2e%2e"])?.path, "/api/v3/coins/%2e%2e")
        XCTAssertEqual(
            RequestURL.make(base: base, path: ["coins", "boringdao-[old]"])?.absoluteString,
            "http://127.0.0.1:8080/api/v3/coins/boringdao-%5Bold%5D")
        XCTAssertEqual(RequestURL.make(base: base, path: ["global"])?.absoluteString, "http://127.0.0.1:8080/api/v3/global")
    }

    func testMarketsURLInCoinGeckosOrder() throws {
        let top = try MarketsRequest(perPage: 100, page: 2, sparkline: false)
        XCTAssertEqual(
            RequestURL.make(base: base, path: ["coins", "markets"], query: top.query(ids: nil))?.absoluteString,
            "http://127.0.0.1:8080/api/v3/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=100&page=2&sparkline=false&price_change_percentage=24h&precision=full"
        )
        let held = try MarketsRequest(vsCurrency: VsCurrency("eur"), ids: ["bitcoin", "a,b", "ü"])
        XCTAssertEqual(
            RequestURL.make(base: base, path: ["coins", "markets"], query: held.query(ids: held.ids))?.absoluteString,
            "http://127.0.0.1:8080/api/v3/coins/markets?vs_currency=eur&ids=bitcoin,a%2Cb,%C3%BC&order=market_cap_desc&per_page=250&page=1&sparkline=true&price_change_percentage=24h&precision=full"
        )
    }

    func testPercentEncodingKeepsOnlyUnreservedBytes() {
        XCTAssertEqual(RequestURL.percentEncoded("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(RequestURL.percentEncoded("€ 😀/%+&="), "%E2%82%AC%20%F0%9F%98%80%2F%25%2B%26%3D")
        XCTAssertEqual(RequestURL.percentEncoded(""), "")
    }
}
