import XCTest

@testable import Coinfolio

/// `CompensatedSum`'s total is the exact sum of its values rounded once, half-to-even, to 38
/// digits (SPEC §12 "Exact amounts"), where a running sum rounded at every addition drifts.
final class CompensatedSumTests: XCTestCase {
    /// The breaker's finding (stop 47, seed 2097): proceeds of a fee row and of three shares of a
    /// sell at price 0 with a fee of 53646.6, split by units — the exact total terminates at
    /// 102290.7993218798253546; the running sum of the four rows ended 1E-32 above it.
    func testTheBreakersRowsAddUpToTheTerminatingSum() throws {
        let lots = ["0.476824181358084", "55733.494639950411280333", "83101.84156629"]
        let units = try lots.map { try XCTUnwrap(ExactDecimal($0)) }.map(PreciseDecimal.init)
        let all = units.dropFirst().reduce(units[0], +)
        let fee = -PreciseDecimal(try XCTUnwrap(ExactDecimal("53646.6")))
        // Each lot's share of the fee, in proportion to its units: 38-digit quotients.
        let shares = units.map { fee.multiplied(by: $0, dividedBy: all) }
        let feeRow = PreciseDecimal(try XCTUnwrap(ExactDecimal("148.22946703600743855"))) * 1052
        XCTAssertEqual(feeRow.description, "155937.3993218798253546")
        var compensated = CompensatedSum()
        var plain = PreciseDecimal.zero
        for value in [feeRow] + shares {
            compensated.add(value)
            plain += value
        }
        XCTAssertEqual(compensated.total.description, "102290.7993218798253546")
        XCTAssertNotEqual(plain.description, "102290.7993218798253546", "the running sum no longer drifts here: pick another case")
    }

    /// Seeded sums of 38-digit values of either sign over twelve exponents against the exact sum
    /// taken in 256 bits (every value lined up at exponent −35, positive and negative apart) and
    /// rounded once by `PreciseDecimal.rounded`.
    func testTheTotalIsTheExactSumRoundedOnce() {
        var random = SplitMix64(seed: 58)
        var drifted = 0
        for round in 0..<2000 {
            var compensated = CompensatedSum()
            var plain = PreciseDecimal.zero
            var positive = WideMagnitude(low: 0)
            var negative = WideMagnitude(low: 0)
            for _ in 0..<(1 + Int(random.next() % 60)) {
                let half: UInt64 = 10_000_000_000_000_000_000
                let digits =
                    random.next() % 2 == 0
                    ? UInt128(random.next() % half) * UInt128(half) + UInt128(random.next() % half)
                    : UInt128(random.next() % 10_000_000)
                let shift = Int(random.next() % 12)
                let isNegative = random.next() % 3 == 0
                let value = PreciseDecimal.make(isNegative, digits, shift - 35)
                compensated.add(value)
                plain += value
                let lined = WideMagnitude(digits, times: DecimalDigitTable.power(shift))
                if isNegative { negative = negative + lined } else { positive = positive + lined }
            }
            let exact =
                negative < positive
                ? PreciseDecimal.rounded(false, positive - negative, -35) : PreciseDecimal.rounded(true, negative - positive, -35)
            XCTAssertEqual(compensated.total, exact, "round \(round)")
            if plain != exact { drifted += 1 }
        }
        XCTAssertGreaterThan(drifted, 100, "the running sums should drift in many rounds, or this test proves little")
    }
}
