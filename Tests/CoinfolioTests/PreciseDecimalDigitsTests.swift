import XCTest

@testable import Coinfolio

/// Issue 27: a decimal's digits above 2⁶⁴ are written nineteen at a time through one
/// 128-by-64-bit division (`PreciseDecimal.writeDigits`); its text must spell the significand as
/// Swift's own `UInt128` text does, for every length from 20 to 38 digits and at the edges of the
/// 64-bit halves, and a row's pieces written through `ByteCursor.put` (word moves for 4–16 bytes)
/// must be the bytes given, for every length.
final class PreciseDecimalDigitsTests: XCTestCase {
    /// `0.<digits>` of a significand (trailing zeros dropped), as `description` spells it.
    private func expected(_ magnitude: UInt128, negative: Bool) -> String {
        var digits = String(magnitude)
        while digits.hasSuffix("0") { digits.removeLast() }
        return (negative ? "-" : "") + "0." + digits
    }

    private func check(_ magnitude: UInt128, file: StaticString = #filePath, line: UInt = #line) {
        let length = String(magnitude).count
        for negative in [false, true] {
            let signed = Int128(magnitude)
            let value = PreciseDecimal(significand: negative ? -signed : signed, exponent: Int32(-length))
            XCTAssertEqual(value.description, expected(magnitude, negative: negative), file: file, line: line)
        }
    }

    func testLongSignificandsSpellAsTheirUInt128Text() {
        let limit = UInt128(10).power(38) - 1
        var edges: [UInt128] = [UInt128(UInt64.max) + 1, UInt128(UInt64.max) + 2, limit, limit - 1, UInt128(10).power(37)]
        for digits in 20...38 {
            let power = UInt128(10).power(digits - 1)
            edges += [power, power + 1, power * 10 - 1, power * 3 + 7]
        }
        // The top half just below and at 10¹⁹·k boundaries of the quotient.
        for top: UInt64 in [1, 2, 5_000_000_000_000_000_000, 5_421_010_862_427_522_170] {
            edges += [UInt128(top) << 64, (UInt128(top) << 64) | UInt128(UInt64.max)]
        }
        for magnitude in edges where magnitude > UInt128(UInt64.max) && magnitude <= limit { check(magnitude) }
        var generator = SplitMix64(seed: 27)
        for _ in 0..<20_000 {
            let magnitude = (UInt128(generator.next()) << 64 | UInt128(generator.next())) % limit
            guard magnitude > UInt128(UInt64.max) else { continue }
            check(magnitude)
        }
    }

    /// Significands of 1 to 20 digits (below 2⁶⁴: eight digits at a time, then pairs).
    func testShortSignificandsSpellAsTheirUInt128Text() {
        var edges: [UInt128] = [1, 9, 10, 99, 100, 101, UInt128(UInt64.max), UInt128(UInt64.max) - 1]
        for digits in 1...20 {
            let power = UInt128(10).power(digits - 1)
            edges += [power, power + 1, power * 10 - 1, power * 3 + 7].filter { $0 <= UInt128(UInt64.max) }
        }
        for magnitude in edges { check(magnitude) }
        var generator = SplitMix64(seed: 44)
        for _ in 0..<20_000 {
            let magnitude = UInt128(generator.next() >> (generator.next() % 64))
            guard magnitude > 0 else { continue }
            check(magnitude)
        }
    }

    func testPutWritesEveryLengthAsGiven() {
        let source: [UInt8] = (0..<40).map { UInt8(33 + $0) }
        var target = [UInt8](repeating: 0, count: 200)
        for length in 0...40 {
            for offset in 0..<3 {
                target.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    var cursor = ByteCursor(base)
                    cursor.put(UInt8(ascii: "<"))
                    source.withUnsafeBufferPointer { cursor.put(UnsafeBufferPointer(rebasing: $0[offset..<max(offset, length)])) }
                    cursor.put(UInt8(ascii: ">"))
                    XCTAssertEqual(Array(cursor.written), [UInt8(ascii: "<")] + source[offset..<max(offset, length)] + [UInt8(ascii: ">")])
                }
            }
        }
    }
}

private extension UInt128 {
    func power(_ exponent: Int) -> UInt128 { (0..<exponent).reduce(1) { value, _ in value * self } }
}
