import Foundation
import XCTest

@testable import Coinfolio

/// Issue 17 faults 2–5 and issue 10 items 8–9 (SPEC §5, §10), over real HTTP to the loopback server.
final class HardeningTests: LoopbackServerTestCase {
    // MARK: - Fault 2: a key over plain http only to a host that is a loopback address

    func testPlainHTTPKeyOnlyToALoopbackAddress() {
        for host in [
            "127.0.0.1.attacker.example", "127.attacker.example", "localhost.attacker.example", "127.0.0.1.nip.io", "[::2]",
            "0x7f.0.0.1", "127.1", "example.org",
        ] {
            let error = assertThrows(.invalidArgument) {
                try ClientConfiguration(baseURL: "http://\(host)/api/v3", plan: .demo, apiKey: "CG-abcdefghijklmnop")
            }
            XCTAssertEqual(
                error?.message,
                "an api_key is only sent over https, or over http to a loopback address (127.0.0.0/8, ::1, localhost)", host)
        }
        for host in ["127.0.0.1:8080", "127.255.10.3", "[::1]:9", "[0:0:0:0:0:0:0:1]", "localhost:1234", "LOCALHOST"] {
            XCTAssertNoThrow(try ClientConfiguration(baseURL: "http://\(host)/api/v3", plan: .demo, apiKey: "k"), host)
        }
        XCTAssertNoThrow(try ClientConfiguration(baseURL: "https://127.0.0.1.attacker.example/api/v3", plan: .demo, apiKey: "k"))
        XCTAssertNoThrow(try ClientConfiguration(baseURL: "http://127.0.0.1.attacker.example/api/v3"), "no key, nothing to leak")
    }

    // MARK: - Fault 3: no run of 6 characters of the key anywhere

    /// The longest run of consecutive characters of `key` (ignoring case) in `text`.
    private func longestKeyRun(_ key: String, in text: String) -> Int {
        let k = Array(key.lowercased()), t = Array(text.lowercased())
        var best = 0
        for i in 0..<t.count {
            for j in 0..<k.count {
                var n = 0
                while i + n < t.count, j + n < k.count, t[i + n] == k[j + n] { n += 1 }
                best = max(best, n)
            }
        }
        return best
    }

    static let key = "CG-Zq8WvT3nRk5YhLmP2sXa"

    /// Eleven ways an API echoes a key back.
    static let echoShapes: [String] = [
        "Invalid API key: \(key.prefix(14))...",
        "Invalid API key: \(key)",
        "key \(key.prefix(8))…\(key.suffix(8)) is not valid",
        "invalid key '\(key.lowercased())'",
        "x_cg_demo_api_key=\(key)&vs_currency=usd",
        "key=\(key.dropFirst(3))",
        "The key ending in \(key.suffix(10)) was revoked",
        "API key \(key.uppercased()) unknown",
        "bad key: CG%2D\(key.dropFirst(3).prefix(12))",
        "\(key.prefix(6))****\(key.suffix(6))",
        "{\"key\":\"\(key)\"}",
    ]

    func testNoRunOfSixKeyCharactersSurvivesRedaction() {
        for shape in Self.echoShapes {
            let redacted = redacting(Self.key, in: shape)
            XCTAssertLessThan(longestKeyRun(Self.key, in: redacted), 6, "\(shape) → \(redacted)")
        }
        XCTAssertEqual(redacting(Self.key, in: "Invalid API key: \(Self.key.prefix(14))..."), "Invalid API key: [redacted]...")
        XCTAssertEqual(redacting(Self.key, in: "API Key Missing"), "API Key Missing")
    }

    func testNoRunOfSixKeyCharactersInClientErrors() throws {
        for (index, shape) in Self.echoShapes.enumerated() {
            try server.control("reset")
            let body = try JSONSerialization.data(withJSONObject: ["status": ["error_code": 10002, "error_message": shape]])
            try server.fault(["path": "/api/v3/global", "status": 401, "body": String(decoding: body, as: UTF8.self)])
            let error = assertThrows(.unauthorized) {
                try self.client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, plan: .demo, apiKey: Self.key, maxRetries: 0) }
                    .global()
            }
            XCTAssertLessThan(longestKeyRun(Self.key, in: error?.json ?? ""), 6, "shape \(index): \(error?.json ?? "")")
        }
    }

    // MARK: - Fault 4: bounded bodies and bounded calls

    func testMaxBodyBytesDefaultsTo32MiB() throws {
        XCTAssertEqual(ClientConfiguration().maxBodyBytes, 33_554_432)
        XCTAssertEqual(try ClientConfiguration(json: #"{"max_body_bytes":1000}"#).maxBodyBytes, 1000)
        assertThrows(.invalidArgument) { try ClientConfiguration(json: #"{"max_body_bytes":0}"#) }
        assertThrows(.invalidArgument) { try ClientConfiguration(json: #"{"max_body_bytes":1.5}"#) }
    }

    func testABodyOverTheLimitIsStoppedWithBodyTooLarge() throws {
        try server.fault(["path": "/api/v3/global", "body": "{\"data\":{}}", "pad_bytes": 5000])
        let error = assertThrows(.http) { try self.client { $0.maxBodyBytes = 1000 }.global() }
        XCTAssertEqual(error?.details["reason"], .string("body_too_large"))
        XCTAssertEqual(error?.details["max_body_bytes"], .number(1000))
    }

    func testTheLimitCountsBytesAfterDecompression() throws {
        // 4 MiB of JSON that gzip makes a few KB: only the decompressed size counts.
        try server.fault(["path": "/api/v3/global", "body": "{\"data\":{}}", "pad_bytes": 4 << 20, "gzip": true])
        let error = assertThrows(.http) { try self.client { $0.maxBodyBytes = 1 << 20 }.global() }
        XCTAssertEqual(error?.details["reason"], .string("body_too_large"))
        // Under the limit, the same compressed body is read.
        try server.fault(["path": "/api/v3/global", "body": "{\"data\":{}}", "pad_bytes": 1000, "gzip": true])
        XCTAssertNoThrow(try client { $0.maxBodyBytes = 1 << 20 }.global())
    }

    func testDecodingStopsAtTheCallsDeadline() throws {
        let body = try Repository.fixture("markets.json")
        let error = assertThrows(.network) {
            try DecodeDeadline.$current.withValue(.now() - 1) { try CoinGeckoBody.markets(body) }
        }
        XCTAssertEqual(error?.details["reason"], .string("deadline"))
        XCTAssertNoThrow(try CoinGeckoBody.markets(body), "no deadline outside a client call")
    }

    func testAHugeValidBodyDoesNotOutliveTheCall() throws {
        // 400,000 minimal coins with timeout_ms 100 and no retries: the call ends as a timeout
        // (while reading or while decoding), never a success seconds later.
        try server.fault(["path": "/api/v3/coins/markets", "array_of": #"{"id":"a","symbol":"b","name":"c"}"#, "count": 400_000])
        let error = assertThrows(.network) {
            try self.client {
                $0 = try ClientConfiguration(baseURL: self.server.baseURL, timeout: 0.1, maxRetries: 0)
            }.markets(MarketsRequest())
        }
        XCTAssertTrue(
            [CoinfolioError.Detail.string("timeout"), .string("deadline")].contains(error?.details["reason"]),
            "\(String(describing: error))")
    }

    // MARK: - Fault 5: Retry-After is decimal seconds or an HTTP date

    func testRetryAfterIsOnlyDecimalSecondsOrAnHTTPDate() {
        XCTAssertNil(ErrorClassifier.parseRetryAfter("0x10"))
        XCTAssertEqual(ErrorClassifier.parseRetryAfter("16"), 16)
        XCTAssertEqual(ErrorClassifier.parseRetryAfter(" 120 "), 120)
        XCTAssertEqual(ErrorClassifier.parseRetryAfter("1.5"), 1.5)
        for bad in ["1e3", "-5", "inf", "nan", "", "+3", "3s", "0x10", "١٢"] {
            XCTAssertNil(ErrorClassifier.parseRetryAfter(bad), bad)
        }
        let now = Date(timeIntervalSince1970: 1_445_412_420)  // Wed, 21 Oct 2015 07:27:00 GMT
        XCTAssertEqual(ErrorClassifier.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now), 60)
        XCTAssertEqual(ErrorClassifier.parseRetryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now), 0)
        XCTAssertNil(ErrorClassifier.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 PST", now: now))
    }

    func testAHexRetryAfterIsIgnoredAndBackoffApplies() throws {
        try server.fault(["path": "/api/v3/global", "status": 429, "headers": ["Retry-After": "0x10"], "times": 2])
        let error = assertThrows(.rateLimited) {
            try self.client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, timeout: 5, maxRetries: 1) }.global()
        }
        XCTAssertNil(error?.details["retry_after_s"])
        XCTAssertEqual(try server.requests(to: "/api/v3/global").count, 2, "retried after the normal backoff, not 16 s")
    }

    // MARK: - Issue 10 item 8: Retry-After is remembered

    func testALongRetryAfterIsRememberedAndNothingIsSent() throws {
        try server.fault(["path": "/api/v3/global", "status": 429, "headers": ["Retry-After": "119"]])
        let client = try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, timeout: 5, maxRetries: 2, maxRetryWait: 60) }
        let first = assertThrows(.rateLimited) { try client.global() }
        XCTAssertEqual(first?.retryAfter, 119)
        XCTAssertNil(first?.details["sent"])
        let second = assertThrows(.rateLimited) { try client.markets(MarketsRequest()) }
        XCTAssertEqual(try XCTUnwrap(second?.retryAfter), 119, accuracy: 1)
        XCTAssertEqual(second?.details["sent"], .bool(false))
        XCTAssertEqual(client.suppressedRequests, 1)
        XCTAssertEqual(try server.log().count, 1, "nothing was sent after the 429")
        assertThrows(.rateLimited) { try client.coinDetail(id: "bitcoin") }
        XCTAssertEqual(client.suppressedRequests, 2)
        XCTAssertEqual(try server.log().count, 1)
    }

    func testARetryAfterIsRememberedWhenRetriesRanOut() throws {
        try server.fault(["path": "/api/v3/global", "status": 429, "headers": ["Retry-After": "30"]])
        let client = try client { $0 = try ClientConfiguration(baseURL: self.server.baseURL, timeout: 5, maxRetries: 0, maxRetryWait: 60) }
        assertThrows(.rateLimited) { try client.global() }
        let second = assertThrows(.rateLimited) { try client.global() }
        XCTAssertEqual(try XCTUnwrap(second?.retryAfter), 30, accuracy: 1)
        XCTAssertEqual(second?.details["sent"], .bool(false))
        XCTAssertEqual(try server.log().count, 1)
    }

    func testEngineMetricsCountSuppressedRequests() throws {
        try server.fault(["path": "/api/v3/coins/markets", "status": 429, "headers": ["Retry-After": "119"]])
        let engine = try PortfolioEngine(
            configuration: EngineConfiguration(
                database: ":memory:", api: try ClientConfiguration(baseURL: server.baseURL, timeout: 5, maxRetries: 2, maxRetryWait: 60)))
        assertThrows(.rateLimited) { try engine.refresh() }
        let error = assertThrows(.rateLimited) { try engine.refresh() }
        XCTAssertEqual(error?.details["sent"], .bool(false))
        XCTAssertEqual(engine.metrics().suppressedRequests, 1)
        XCTAssertTrue(engine.metrics().json.contains(#""suppressed_requests":1"#), engine.metrics().json)
    }

    // MARK: - Issue 10 item 9: error classes

    func testErrorClasses() throws {
        let cases: [(status: Int, body: String, code: CoinfolioError.Code, errorCode: Double?)] = [
            (403, "<html><body><h1>Access denied</h1> Cloudflare Ray ID: 8f00</body></html>", .http, nil),
            (403, #"{"error":"Forbidden"}"#, .http, nil),
            (401, "Unauthorized", .unauthorized, nil),
            (401, #"{"status":{"error_code":10012,"error_message":"Your request exceeds the allowed time range."}}"#, .unauthorized, 10012),
            (400, #"{"error":{"status":{"error_code":10011,"error_message":"wrong plan"}}}"#, .unauthorized, 10011),
            (403, #"{"status":{"error_code":10002,"error_message":"API Key Missing"}}"#, .unauthorized, 10002),
            (400, #"{"status":{"error_code":10005,"error_message":"no access"}}"#, .unauthorized, 10005),
            (400, #"{"status":{"error_code":10010,"error_message":"use pro-api"}}"#, .unauthorized, 10010),
            (400, #"{"status":{"error_code":10099,"error_message":"something else"}}"#, .http, 10099),
        ]
        for (index, item) in cases.enumerated() {
            try server.control("reset")
            try server.fault(["path": "/api/v3/global", "status": item.status, "body": item.body])
            let error = assertThrows(item.code) { try self.client().global() }
            XCTAssertEqual(error?.httpStatus, item.status, "case \(index)")
            XCTAssertEqual(error?.details["error_code"], item.errorCode.map { .number($0) }, "case \(index)")
        }
    }
}
