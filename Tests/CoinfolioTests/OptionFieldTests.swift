import XCTest

@testable import Coinfolio

/// Every option error names its key in details.field: a number out of its range or not whole
/// (`wholeNumber`, `finiteNumber`) as a value of the wrong type does (`ConfigJSON`).
final class OptionFieldTests: XCTestCase {
    func testANumberOutOfItsRangeNamesItsKey() {
        let cases: [(String, String, (String) throws -> Void)] = [
            (#"{"limit":1.5}"#, "limit", { _ = try TransactionQuery(json: $0) }),
            (#"{"offset":-1}"#, "offset", { _ = try TransactionQuery(json: $0) }),
            (#"{"limit":1.5}"#, "limit", { _ = try CoinQuery(json: $0) }),
            (#"{"per_page":0}"#, "per_page", { _ = try MarketsRequest(json: $0) }),
            (#"{"timeout_ms":0}"#, "timeout_ms", { _ = try ClientConfiguration(json: $0) }),
            (#"{"max_retries":11}"#, "max_retries", { _ = try ClientConfiguration(json: $0) }),
        ]
        for (json, field, make) in cases {
            let error = assertThrows(.invalidArgument) { try make(json) }
            XCTAssertEqual(error?.details["field"], .string(field), json)
        }
    }
}
