import XCTest

@testable import Coinfolio

/// Issue 27: `alignedSum` (a 38-digit value plus one of a lower exponent, rounded without 256-bit
/// arithmetic) must give exactly what `exactlyRounded` gives, significand and exponent, for every
/// sign, shift and remainder it accepts: the half-way ties, a rounding up to 10³⁸, differences
/// falling below 10³⁷ and carries into a 39th digit (those it declines).
final class PreciseDecimalAlignedSumTests: XCTestCase {
    private func check(_ big: PreciseDecimal, _ small: PreciseDecimal, _ shift: Int, taken: inout Int) {
        guard let fast = PreciseDecimal.alignedSum(big, small, shift) else { return }
        taken += 1
        let reference = PreciseDecimal.exactlyRounded(big, small, shift)
        XCTAssertEqual(fast.significand, reference.significand, "\(big) + \(small)")
        XCTAssertEqual(fast.exponent, reference.exponent, "\(big) + \(small)")
    }

    func testAlignedSumAgreesWithTheWidePath() {
        var random = SplitMix64(seed: 27)
        let limit = Int128(PreciseDecimal.limit)
        let low = limit / 10
        var taken = 0
        // Edge significands of 38 digits, and of the smaller term.
        let bigs: [Int128] = [low, low + 1, limit - 1, limit - 2, low * 5, low * 5 + 1, 12_345_678_901_234_567_890_123_456_789_012_345_678]
        for shift in 1...38 {
            let power = Int128(DecimalDigitTable.power(shift))
            // k·10^shift + c, where it fits below 10³⁸.
            func near(_ k: Int128, _ c: Int128) -> Int128? {
                let (product, overflow) = power.multipliedReportingOverflow(by: k)
                return overflow || product > limit ? nil : product + c
            }
            let candidates: [Int128?] = [
                1, power / 2, power / 2 + 1, power / 2 - 1, power - 1, power, near(1, power / 2), near(1, power / 2 + 1), limit - 1,
                limit - power / 2, near(7, power / 2), near(7, 0),
            ]
            let smalls = candidates.compactMap { $0 }.filter { $0 > 0 && $0 < limit }
            for big in bigs {
                for small in smalls {
                    for (bigSign, smallSign) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        let a = PreciseDecimal(significand: big * Int128(bigSign), exponent: Int32(-10 + shift))
                        let b = PreciseDecimal(significand: small * Int128(smallSign), exponent: -10)
                        check(a, b, shift, taken: &taken)
                    }
                }
            }
        }
        // Seeded random pairs of every digit count of the smaller term.
        for _ in 0..<200_000 {
            let big = Int128(bitPattern: UInt128.random(in: UInt128(low)..<UInt128(limit), using: &random))
            let digits = Int.random(in: 1...38, using: &random)
            let top = DecimalDigitTable.power(digits)
            var small = Int128(bitPattern: UInt128.random(in: 1..<top, using: &random))
            // Ties and exact multiples now and then.
            let shift = Int.random(in: 1...38, using: &random)
            let power = Int128(DecimalDigitTable.power(shift))
            switch Int.random(in: 0..<4, using: &random) {
            case 0: small = small / power * power + power / 2
            case 1: small = small / power * power
            default: break
            }
            guard small > 0, small < limit else { continue }
            let exponent = Int32.random(in: -40...10, using: &random)
            let a = PreciseDecimal(significand: Bool.random(using: &random) ? big : -big, exponent: exponent + Int32(shift))
            let b = PreciseDecimal(significand: Bool.random(using: &random) ? small : -small, exponent: exponent)
            check(a, b, shift, taken: &taken)
            XCTAssertEqual(a + b, PreciseDecimal.exactlyRounded(a, b, shift))
        }
        XCTAssertGreaterThan(taken, 150_000)
    }
}
