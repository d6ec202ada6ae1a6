import XCTest

@testable import Coinfolio

/// Issue 30: `+` and `<` take a 64-bit path when both significands fit 64 bits; it must give
/// what the 128/256-bit code gives (`added`, `compare`) for every pair, at every exponent gap,
/// near the 64-bit edges, and for the sign combinations.
final class PreciseDecimalFastPathTests: XCTestCase {
    func testThe64BitPathAgreesWithTheWideCode() {
        let significands: [Int128] = [
            0, 1, -1, 7, -15, 123_456_789, -987_654_321_012, Int128(Int64.max), Int128(Int64.min), Int128(Int64.max) - 9,
            Int128(Int64.min) + 3, 922_337_203_685_477_580, -922_337_203_685_477_580, 10_000_000_000_000_000_000,
            Int128(Int64.max) + 1, -(Int128(Int64.max) + 2), 99_999_999_999_999_999_999_999_999_999_999_999,
        ]
        let exponents: [Int32] = [0, -1, -2, -9, -18, -19, -20, -36, 1, 5, 18, 19, 30]
        var values: [PreciseDecimal] = []
        for significand in significands {
            for exponent in exponents { values.append(PreciseDecimal(significand: significand, exponent: exponent)) }
        }
        for a in values {
            for b in values {
                let sum = a + b
                let wide = PreciseDecimal.added(a, b)
                XCTAssertTrue(sum == wide && sum.description == wide.description, "\(a) + \(b): \(sum) against \(wide)")
                XCTAssertEqual(a < b, PreciseDecimal.compare(a, b) < 0, "\(a) < \(b)")
                XCTAssertEqual((a - b).description, PreciseDecimal.added(a, -b).description, "\(a) - \(b)")
            }
        }
    }

    func testWorkedSums() {
        // By hand: 1.5 + 2 = 3.5; 0.1 + 0.2 − 0.3 = 0; 9223372036854775807 + 1 leaves 64 bits
        // (9223372036854775808); 1e-18 + 1e18 = 1000000000000000000.000000000000000001.
        XCTAssertEqual((PreciseDecimal("1.5")! + 2).description, "3.5")
        XCTAssertEqual((PreciseDecimal("0.1")! + PreciseDecimal("0.2")! - PreciseDecimal("0.3")!).description, "0")
        XCTAssertEqual((PreciseDecimal("9223372036854775807")! + 1).description, "9223372036854775808")
        XCTAssertEqual(
            (PreciseDecimal("1e-18")! + PreciseDecimal("1e18")!).description, "1000000000000000000.000000000000000001")
        XCTAssertTrue(PreciseDecimal("0.3")! < PreciseDecimal("0.31")!)
        XCTAssertFalse(PreciseDecimal("-2")! < PreciseDecimal("-2.0")!)
    }
}
