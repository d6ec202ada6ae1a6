import XCTest

@testable import Coinfolio

/// Issue 27: `PreciseDecimal.writeText` drops a value's trailing zeros from its written digits
/// (no longer through `normalized`'s 128-bit divisions by 10), and `ByteCursor.putInteger` writes
/// an integer backwards by divisions by 10. Both are tied here to the forms they replaced: the
/// text spelled from `normalized` and `String(UInt128)` by ECMAScript's rules, and `String(Int64)`,
/// over seeded values of every length (1–38 digits, trailing zeros, negatives, zeros) and
/// exponents from −60 to 30 (scales 0–38 and the exponent form on both sides).
final class PreciseDecimalTextTests: XCTestCase {
    /// The text as `writeText` spelled it before: from `normalized`, then Number::toString.
    private func reference(_ value: PreciseDecimal) -> String {
        let (magnitude, exponent) = value.normalized
        guard magnitude != 0 else { return "0" }
        let digits = String(magnitude)
        let count = digits.count
        let point = exponent + count
        var text = value.isNegative ? "-" : ""
        if count <= point, point <= 21 {
            text += digits + String(repeating: "0", count: point - count)
        } else if 0 < point, point <= 21 {
            text += digits.prefix(point) + "." + digits.dropFirst(point)
        } else if -6 < point, point <= 0 {
            text += "0." + String(repeating: "0", count: -point) + digits
        } else {
            text += String(digits.prefix(1)) + (count > 1 ? "." + digits.dropFirst() : "") + "e" + String(point - 1)
        }
        return text
    }

    private func check(_ magnitude: UInt128, _ exponent: Int32, file: StaticString = #filePath, line: UInt = #line) {
        for negative in [false, true] {
            let signed = Int128(magnitude)
            let value = PreciseDecimal(significand: negative ? -signed : signed, exponent: exponent)
            XCTAssertEqual(value.description, reference(value), "\(magnitude)e\(exponent)", file: file, line: line)
            var bytes: [UInt8] = []
            value.appendText(to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), reference(value), file: file, line: line)
        }
    }

    func testTextMatchesTheNormalizedForm() {
        let limit = UInt128(10).power(38)
        var magnitudes: [UInt128] = [0, 1, 10, 100, limit - 1, limit / 10, UInt128(UInt64.max), UInt128(UInt64.max) + 1]
        for digits in 1...38 {
            let power = UInt128(10).power(digits - 1)
            magnitudes += [power, power + 1, power * 10 - 1, power * 3 + 7, power * 5]
        }
        for magnitude in magnitudes where magnitude < limit {
            for exponent in Int32(-60)...30 { check(magnitude, exponent) }
        }
        var generator = SplitMix64(seed: 56)
        for _ in 0..<40_000 {
            let digits = Int(generator.next() % 38) + 1
            var magnitude = (UInt128(generator.next()) << 64 | UInt128(generator.next())) % UInt128(10).power(digits)
            // Trailing zeros, up to the 38 digits a significand holds.
            let zeros = Int(generator.next() % 20)
            if magnitude < limit / UInt128(10).power(zeros) { magnitude *= UInt128(10).power(zeros) }
            let exponent = Int32(Int(generator.next() % 91) - 60)
            check(magnitude, exponent)
        }
    }

    func testPutIntegerSpellsAsString() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power, power - 1, power + 1, -power, -(power - 1)]
        }
        var generator = SplitMix64(seed: 5627)
        for _ in 0..<50_000 { values.append(Int64(bitPattern: generator.next() >> (generator.next() % 64))) }
        var buffer = [UInt8](repeating: 0, count: 32)
        for value in values {
            buffer.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var cursor = ByteCursor(base)
                cursor.putInteger(value)
                XCTAssertEqual(String(decoding: cursor.written, as: UTF8.self), String(value))
            }
        }
    }
}

private extension UInt128 {
    func power(_ exponent: Int) -> UInt128 { (0..<exponent).reduce(1) { value, _ in value * self } }
}
