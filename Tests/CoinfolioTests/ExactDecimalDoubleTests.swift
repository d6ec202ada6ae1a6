import XCTest

@testable import Coinfolio

/// `ExactDecimal(Double)` reads a double's shortest digits without text where it can
/// (`shortestUnits`, issue 27's performance report): tied here to parsing `description`, the
/// reference, over doubles of every shape; `PreciseDecimal(price:)` (performance's daily prices,
/// straight from the digits) tied to `PreciseDecimal(ExactDecimal(value))` in value and in form
/// over the same doubles; and `parse`'s one-multiply scaling at its edges.
final class ExactDecimalDoubleTests: XCTestCase {
    private func viaText(_ value: Double) -> ExactDecimal? {
        var text = value.description
        return text.withUTF8 { ExactDecimal.parse($0, rounding: true) }
    }

    private func assertSame(_ value: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ExactDecimal(value), viaText(value), "\(value) (\(value.bitPattern))", file: file, line: line)
        if let units = ExactDecimal.shortestUnits(value) {
            XCTAssertEqual(ExactDecimal(units: units), viaText(value), "\(value)", file: file, line: line)
        }
        // The same significand and exponent, not only the same number: products keep their fast path alike.
        let reference = ExactDecimal(value).map { PreciseDecimal($0) }
        XCTAssertEqual(form(PreciseDecimal(price: value)), form(reference), "\(value) (\(value.bitPattern))", file: file, line: line)
    }

    private func form(_ value: PreciseDecimal?) -> [Int64]? {
        value.map { [$0.high, Int64(bitPattern: $0.low), Int64($0.exponent)] }
    }

    func testPricesAsPreciseDecimalsWrittenByHand() {
        XCTAssertEqual(PreciseDecimal(price: 100.05)?.description, "100.05")
        XCTAssertEqual(form(PreciseDecimal(price: 100.05)), [0, 10005, -2])
        XCTAssertEqual(form(PreciseDecimal(price: 100)), [0, 1, 2])  // trailing zeros dropped, as from the ledger
        XCTAssertEqual(form(PreciseDecimal(price: -2.5)), [-1, -25, -1])  // −25 × 10⁻¹ in two's complement halves
        XCTAssertEqual(form(PreciseDecimal(price: -0.0)), form(PreciseDecimal.zero))
        XCTAssertEqual(PreciseDecimal(price: 0.1 + 0.2)?.description, "0.30000000000000004")  // 17 digits: the text path
        XCTAssertEqual(PreciseDecimal(price: 1e-19), PreciseDecimal.zero)  // rounded at 18 places, as the ledger reads it
        XCTAssertEqual(PreciseDecimal(price: 6e-19)?.description, "1e-18")
        XCTAssertNil(PreciseDecimal(price: 1e20))
        XCTAssertNil(PreciseDecimal(price: .nan))
        XCTAssertNil(PreciseDecimal(price: -.infinity))
    }

    func testWrittenValues() {
        XCTAssertEqual(ExactDecimal(0.1)?.description, "0.1")
        XCTAssertEqual(ExactDecimal(100.05)?.description, "100.05")
        XCTAssertEqual(ExactDecimal(-2.5)?.description, "-2.5")
        XCTAssertEqual(ExactDecimal(-0.0)?.description, "0")
        XCTAssertEqual(ExactDecimal(1.186e-09)?.description, "0.000000001186")
        XCTAssertEqual(ExactDecimal(0.1 + 0.2)?.description, "0.30000000000000004")  // 17 digits: the text path
        XCTAssertEqual(ExactDecimal(123456789012345.0)?.description, "123456789012345")
        XCTAssertEqual(ExactDecimal(1e-19)?.description, "0")  // rounded at 18 places, as the text was
        XCTAssertEqual(ExactDecimal(6e-19)?.description, "0.000000000000000001")
        XCTAssertNil(ExactDecimal(1e20))
        XCTAssertNil(ExactDecimal(Double.nan))
    }

    func testTheBenchmarksPricesAndDailyPrices() {
        for c in 0..<100 {
            for d in stride(from: 0, through: 1826, by: 7) { assertSame(100.0 + Double(c) + Double(d) * 0.05) }
        }
        for cents in 0..<20_000 { assertSame(Double(cents) / 100) }
    }

    func testRandomDoublesOfEveryShape() {
        var generator = SplitMix64(seed: 27)
        for _ in 0..<20_000 {
            assertSame(Double.random(in: 0..<1, using: &generator))
            assertSame(Double.random(in: -1e6..<1e6, using: &generator))
            assertSame(Double.random(in: 0..<6e14, using: &generator).rounded())
            let digits = Double(Int.random(in: 1..<1_000_000_000_000, using: &generator))
            let k = Int.random(in: 0...17, using: &generator)
            assertSame(digits / pow(10, Double(k)))
            assertSame(-digits / pow(10, Double(k)))
            // Any finite bit pattern: most take the text path; none may differ.
            let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
            let any = Double(bitPattern: bits)
            if any.isFinite { assertSame(any) }
        }
        // Around 2⁴⁹, where the quick path stops.
        for step in -2000...2000 { assertSame(562_949_953_421_312 + Double(step) * 0.125) }
        for step in -2000...2000 { assertSame((562_949_953_421_312 + Double(step) * 0.125) / 1e8) }
    }

    func testScalingToEighteenPlacesAtItsEdges() {
        XCTAssertEqual(ExactDecimal("0e100000")?.description, "0")
        XCTAssertEqual(ExactDecimal("1e-18")?.description, "0.000000000000000001")
        XCTAssertEqual(ExactDecimal("85e18")?.description, "85000000000000000000")
        XCTAssertNil(ExactDecimal("86e18"))  // past ±8.5 × 10¹⁹
        XCTAssertNil(ExactDecimal("1e20"))
        XCTAssertNil(ExactDecimal("1e21"))  // 10^39 units: beyond Int128
        XCTAssertNil(ExactDecimal("1e100000"))
        XCTAssertEqual(ExactDecimal("0.00000000000000000000001e22")?.description, "0.1")
        XCTAssertEqual(ExactDecimal("12.5e-1")?.description, "1.25")
        XCTAssertEqual(ExactDecimal("-7")?.description, "-7")
        XCTAssertEqual(ExactDecimal("0.000000000000000000000000000000000001e35")?.description, "0.1")
    }

    /// The text is written by 64-bit division where the value allows (below 2⁶⁴ units, and a
    /// whole part below 2⁶⁴) and by 128-bit division past it: the same digits either side.
    func testTextAroundTheSixtyFourBitEdges() {
        for text in [
            "18.446744073709551615", "18.446744073709551616", "-18.446744073709551615", "-18.446744073709551616",
            "18446744073709551615", "18446744073709551616", "18446744073709551615.000000000000001",
            "-18446744073709551616.5", "84999999999999999999.999999999999999", "1000", "0.5", "1",
        ] {
            XCTAssertEqual(ExactDecimal(text)?.description, text)
        }
        XCTAssertEqual(ExactDecimal("18446744073709551616.500")?.description, "18446744073709551616.5")
    }
    /// Every value in range has at most 38 digits (18 of them fraction digits) and reads back
    /// from its own text: the reader held only 35 digits, so a trade priced by division stored a
    /// 37-digit price no reader took back (a breaker's finding). The edge: 8.5e19 exactly (the
    /// documented bound; it was Int128.max / 2 units, about 8.507e19, a breaker's finding).
    func testEveryValueInRangeReadsBackFromItsText() {
        for text in [
            "85000000000000000000", "-85000000000000000000", "84999999999999999999.999999999999999999",
            "1096770659974415946.465335449651273382", "2550255025502550255.025502550255025503",
            "10000000000000000000.000000000000000001", "84999999999999999999.999999999999999999",
            "12345678901234567890.123456789012345678", "0.123456789012345678",
        ] {
            XCTAssertEqual(ExactDecimal(text)?.description, text)
        }
        XCTAssertNil(ExactDecimal("85000000000000000000.000000000000000001"))  // one unit past the edge
        XCTAssertNil(ExactDecimal("-85000000000000000000.000000000000000001"))
        XCTAssertNil(ExactDecimal("85070591730234615865"))  // the old edge
        XCTAssertNil(ExactDecimal("1.1234567890123456789"))  // a 19th fraction digit, still refused
        // Rounding (market prices): 40 digits round at the 18th fraction digit, half to even.
        XCTAssertEqual(
            ExactDecimal(rounding: "1096770659974415946.4653354496512733825")?.description, "1096770659974415946.465335449651273382")
        XCTAssertEqual(
            ExactDecimal(rounding: "1096770659974415946.46533544965127338251")?.description, "1096770659974415946.465335449651273383")
    }
}
