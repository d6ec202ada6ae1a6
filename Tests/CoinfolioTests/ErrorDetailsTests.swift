import Foundation
import XCTest

@_spi(ABI) @testable import Coinfolio

/// The error object every language receives: details of every JSON kind, written by the one
/// error writer (`CoinfolioError.jsonUTF8`, which the C ABI and so Python receive).
final class ErrorDetailsTests: XCTestCase {
    func testDetailsCarryArraysAndObjects() throws {
        let error = CoinfolioError(
            .invalidArgument, "2 symbols match more than one coin",
            details: [
                .symbols: .array([
                    .object(["symbol": .string("ABC"), "candidates": .array([.string("abc-1"), .string("abc-2")])]),
                    .object(["symbol": .string("XY\"Z"), "candidates": .array([])]),
                ]),
                .header: .array([.string("Date"), .number(2), .bool(false)]),
                .line: .number(3),
            ])
        XCTAssertEqual(
            error.json,
            #"{"status":1,"code":"invalid_argument","message":"2 symbols match more than one coin","details":{"#
                + #""header":["Date",2,false],"line":3,"#
                + #""symbols":[{"candidates":["abc-1","abc-2"],"symbol":"ABC"},{"candidates":[],"symbol":"XY\"Z"}]}}"#)
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(error.jsonUTF8)) as? [String: Any])
        XCTAssertNotNil(parsed["details"] as? [String: Any])
    }

    func testAReasonIsADetail() {
        let error = CoinfolioError(.store, "the database did not answer", reason: .timeout, details: [.line: .number(1)])
        XCTAssertEqual(error.reason, .timeout)
        XCTAssertEqual(error.details, ["reason": .string("timeout"), "line": .number(1)])
        XCTAssertEqual(
            error.json, #"{"status":8,"code":"store","message":"the database did not answer","details":{"line":1,"reason":"timeout"}}"#)
    }

    func testKeyRedactionReachesNestedDetails() {
        let key = "CG-secretkey123"
        let error = CoinfolioError(
            .http, "bad key \(key)", details: [.symbols: .array([.object(["sent": .string("x-cg-demo-api-key: \(key)")])])])
        let redacted = error.withKeyRedacted(key)
        XCTAssertFalse(redacted.json.contains("secretkey"), redacted.json)
        XCTAssertFalse(redacted.json.contains("ecret"), redacted.json)
    }
}
