import XCTest

@testable import Coinfolio

/// Issue 31 "Derived money is rounded" and "P&L overflows silently": the ledger's derived values
/// keep 38 significant digits, never a fixed number of places, and never clamp or wrap.
final class PreciseDecimalTests: XCTestCase {
    private func p(_ text: String) -> PreciseDecimal { PreciseDecimal(text)! }
    private func e(_ text: String) -> PreciseDecimal { PreciseDecimal(ExactDecimal(text)!) }

    /// A disposal's proceeds shared among its lots (RealizedReport): each share a multiple of the
    /// proceeds' 38th digit, so the remainder is exact. 457.5 × 0.2/3.5 = 26.142857… (worked in
    /// Python's decimal at 60 digits, rounded half to even at 1e-35).
    func testSharesQuantizedToTheProceedsFinestStepAddUpExactly() {
        let proceeds = p("457.5")
        XCTAssertEqual(proceeds.finestStep, -35)
        let share = proceeds.multiplied(by: p("0.2"), dividedBy: p("3.5")).quantized(toExponent: proceeds.finestStep)
        XCTAssertEqual(share, p("26.14285714285714285714285714285714286"))
        XCTAssertEqual(share + (proceeds - share), proceeds)
        XCTAssertEqual(proceeds - share, p("431.35714285714285714285714285714285714"))
        // Half to even, both signs; a value already on the step is as it is; far below it is 0.
        XCTAssertEqual(p("2.5").quantized(toExponent: 0), p("2"))
        XCTAssertEqual(p("3.5").quantized(toExponent: 0), p("4"))
        XCTAssertEqual(p("-3.5").quantized(toExponent: 0), p("-4"))
        XCTAssertEqual(p("-0.26").quantized(toExponent: -1), p("-0.3"))
        XCTAssertEqual(p("120").quantized(toExponent: -5), p("120"))
        XCTAssertEqual(p("1e-50").quantized(toExponent: -10), .zero)
    }

    func testDustKeepsItsDigits() {
        // 1e-18 units at 0.000002: cost 2e-24 (a fixed 18-place result would be 0).
        let cost = e("0.000000000000000001") * e("0.000002")
        XCTAssertEqual(cost, p("2e-24"))
        XCTAssertEqual(cost.description, "2e-24")
        let value = e("0.000000000000000001") * e("0.000004")
        XCTAssertEqual((value - cost).description, "2e-24")
        XCTAssertEqual(value.description, "4e-24")
    }

    func testSumsBeyondTheInputLimitNeitherClampNorWrap() {
        // Two buys of 1 at 8e19 with a fee of 8e19: each lot costs 1.6e20, together 3.2e20.
        let lot = e("1") * e("80000000000000000000") + e("80000000000000000000")
        XCTAssertEqual(lot.description, "160000000000000000000")
        XCTAssertEqual((lot + lot).description, "320000000000000000000")
        XCTAssertFalse((lot + lot).isNegative)
        // The largest product of two ledger values is exact to 38 digits.
        let big = e("85000000000000000000") * e("85000000000000000000")
        XCTAssertEqual(big.description, "7.225e39")
        XCTAssertEqual(big, p("7225000000000000000000000000000000000000"))
    }

    func testShortestFormIsWrittenAsJavaScriptWritesNumbers() {
        XCTAssertEqual(p("246").description, "246")
        XCTAssertEqual(p("246.000").description, "246")
        XCTAssertEqual(p("0.1").description, "0.1")
        XCTAssertEqual(p("-40003.10").description, "-40003.1")
        XCTAssertEqual(p("0.001").description, "0.001")
        XCTAssertEqual(p("0.000001").description, "0.000001")
        XCTAssertEqual(p("0.00000012").description, "1.2e-7")
        XCTAssertEqual(p("100000000000000000000").description, "100000000000000000000")
        XCTAssertEqual(p("1000000000000000000000").description, "1e21")
        XCTAssertEqual(p("-1234567890123456789012.5").description, "-1.2345678901234567890125e21")
        XCTAssertEqual(p("-0").description, "0")
        XCTAssertEqual(PreciseDecimal.zero.description, "0")
    }

    func testExactSumsAndDifferencesOfLedgerValues() {
        XCTAssertEqual(e("0.3") - e("0.1") - e("0.2"), .zero)
        XCTAssertEqual(e("85000000000000000000") + e("0.000000000000000001"), p("85000000000000000000.000000000000000001"))
        XCTAssertEqual(
            (e("85000000000000000000") + e("0.000000000000000001")).description, "85000000000000000000.000000000000000001")
        XCTAssertEqual(e("1.5") * e("40000"), p("60000"))
        XCTAssertEqual(e("0.01") * e("310") - e("0.01") * e("300"), p("0.1"))
    }

    func testQuotientsKeep38Digits() throws {
        let third = try XCTUnwrap(p("1").divided(by: p("3")))
        XCTAssertEqual(third.description, "0.3333333333333333333333333333333333333")
        XCTAssertEqual(p("300").divided(by: p("2")), p("150"))
        XCTAssertEqual(p("-1").divided(by: p("8")), p("-0.125"))
        XCTAssertNil(p("1").divided(by: .zero))
        XCTAssertEqual(p("200").multiplied(by: p("0.5"), dividedBy: p("2")), p("50"))
    }

    func testComparisonAndHashingFollowTheNumber() {
        XCTAssertEqual(p("1.50"), p("1.5"))
        XCTAssertEqual(Set([p("1.50"), p("1.5"), p("15e-1")]).count, 1)
        XCTAssertLessThan(p("0.999999999999999999"), p("1"))
        XCTAssertLessThan(p("-2"), p("-1.5"))
        XCTAssertLessThan(p("2e-24"), p("0.000000000000000001"))
        XCTAssertGreaterThan(p("1e20"), p("99999999999999999999.5"))
    }

    func testRoundingToTheLedgersEighteenPlaces() {
        XCTAssertEqual(p("60000").roundedToLedger, ExactDecimal("60000"))
        XCTAssertEqual(p("0.0000000000000000005").roundedToLedger, ExactDecimal("0"))  // half to even
        XCTAssertEqual(p("0.0000000000000000015").roundedToLedger, ExactDecimal("0.000000000000000002"))
        XCTAssertEqual(try XCTUnwrap(p("2").divided(by: p("3"))).roundedToLedger, ExactDecimal("0.666666666666666667"))
        XCTAssertNil(p("1e20").roundedToLedger)
        XCTAssertEqual(p("-1.25").double, -1.25)
        XCTAssertEqual(p("2e-24").double, 2e-24)
    }

    /// The 256-bit steps agree with plain arithmetic (products and quotients of the largest
    /// 38-digit significands).
    func testWideProductsAndQuotients() {
        let max38: UInt128 = 99_999_999_999_999_999_999_999_999_999_999_999_999
        let product = WideMagnitude(max38, times: max38)
        XCTAssertEqual(product.digitCount, 76)
        XCTAssertEqual(product.divided(by: max38).quotient, max38)
        XCTAssertEqual(product.divided(by: max38).remainder, 0)
        let small = WideMagnitude(UInt128(UInt64.max), times: UInt128(UInt64.max) + 5)
        XCTAssertEqual(small.divided(bySmall: UInt64.max).quotient, UInt128(UInt64.max) + 5)
        XCTAssertEqual(
            p("99999999999999999999999999999999999999") * p("99999999999999999999999999999999999999"),
            p("9.9999999999999999999999999999999999998e75"), "Python's decimal at 38 digits")
        XCTAssertEqual(
            p("12345678901234567890.123456789") * p("98765432109876543210.987654321"), p("1.2193263113702179522618503273362292333e39"),
            "Python's decimal at 38 digits")
    }

    /// Text drops a long significand's trailing zeros by a test of the last digit that needs no
    /// 128-bit division (2⁶⁴ ≡ 1 mod 5): it answers as `% 10` does, and the text keeps every digit.
    func testTrailingZerosOfLongSignificands() {
        var values: [UInt128] = [0, 10, 18_446_744_073_709_551_620, 18_446_744_073_709_551_615, UInt128(UInt64.max) * 10]
        var next: UInt128 = 12_345_678_901_234_567_890_123_456_789
        for _ in 0..<2000 {
            next = (next &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407) % PreciseDecimal.limit
            values += [next, next / 10 * 10, next / 100 * 100]
        }
        for value in values { XCTAssertEqual(PreciseDecimal.isMultipleOfTen(value), value % 10 == 0, "\(value)") }
        XCTAssertEqual(
            PreciseDecimal(significand: 123_456_789_012_345_678_901_234_567_890_000, exponent: -15).description,
            "123456789012345678.90123456789")
        XCTAssertEqual(PreciseDecimal(significand: -18_446_744_073_709_551_620, exponent: -3).description, "-18446744073709551.62")
    }

    /// Text writes a significand's digits two per division: for whole numbers of every length
    /// (1 to 38 digits, around each power of ten and 2⁶⁴, zeros inside), the digits are those of
    /// the standard library's conversion.
    func testDigitsOfEveryLengthAreTheIntegersDigits() {
        var values: [UInt128] = [1, 9, 10, 11, 99, 100, 101, 999, 1000, 1_000_000_007, UInt128(UInt64.max), UInt128(UInt64.max) + 1]
        values.append(PreciseDecimal.limit - 1)
        values.append(10_000_000_000_000_000_001)
        values.append(100_000_000_000_000_000_000_000_000_000_000_001)
        var power: UInt128 = 1
        for _ in 0..<38 {
            power *= 10
            values += [power - 1, power, power + 1, power + power / 2 + 7]
        }
        var next: UInt128 = 98_765_432_109_876_543_210_987
        for _ in 0..<3000 {
            next = (next &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407) % PreciseDecimal.limit
            values += [next, next >> 40, next >> 80, next >> 110]
        }
        for value in values where value > 0 && value < PreciseDecimal.limit && value % 10 != 0 {
            // Without trailing zeros the text of a whole number is its digits.
            let number = PreciseDecimal(significand: Int128(value), exponent: 0)
            let digits = String(value)
            if digits.count <= 21 { XCTAssertEqual(number.description, digits) }
            let scaled = PreciseDecimal(significand: -Int128(value), exponent: Int32(-digits.count))
            XCTAssertEqual(scaled.description, "-0." + digits, "\(value)")
        }
    }
}
