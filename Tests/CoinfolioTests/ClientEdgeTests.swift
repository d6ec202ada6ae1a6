import Foundation
import XCTest

@testable import Coinfolio

/// Issue 31's client findings (SPEC §5, §10, §17), over real HTTP to the loopback server.
final class ClientEdgeTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func client(_ change: (inout ClientConfiguration) throws -> Void = { _ in }) throws -> CoinGeckoClient {
        CoinGeckoClient(configuration: try server.configuration(change))
    }

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
}
