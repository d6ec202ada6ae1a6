import XCTest

@testable import Coinfolio

/// Issue 27: `RealizedTotals.Sum` keeps a term's sum and the taxable sum only once they differ
/// from the gain's sum; its totals are, digit for digit (significand and exponent), the five
/// plain `CompensatedSum`s of 38-digit values (each the exact sum rounded once), over seeded rows
/// of one term, of both, with and without tax-free rows, unknown gains among them.
final class RealizedTotalsSumTests: XCTestCase {
    func testSumsEqualThePlainRunningSums() {
        var random = SplitMix64(seed: 57)
        func value() -> PreciseDecimal {
            // 38-digit shares, short values and whole numbers, of either sign.
            let digits: Int128
            switch random.next() % 3 {
            case 0:
                let half: UInt64 = 10_000_000_000_000_000_000
                digits = Int128(random.next() % half) * Int128(half) + Int128(random.next() % half)
            case 1: digits = Int128(random.next() % 10_000_000)
            default: digits = Int128(random.next() % 1000)
            }
            let sign: Int128 = random.next() % 4 == 0 ? -1 : 1
            return PreciseDecimal(significand: sign * digits, exponent: Int32(Int(random.next() % 12) - 35))
        }
        for round in 0..<400 {
            // Each round its mix: the first rows of one term for a while, tax-free rows or none.
            // (Long shares of 4 in 4 and a switch at 0: every row long.)
            let longShare = [0, 1, 2, 4][round % 4]
            let taxFreeShare = [0, 0, 1, 4][(round / 4) % 4]
            let switchAt = round % 3 == 0 ? 0 : Int(random.next() % 40)
            var sum = RealizedTotals.Sum()
            var plain = (
                proceeds: CompensatedSum(), cost: CompensatedSum(), gain: CompensatedSum(),
                short: CompensatedSum(), long: CompensatedSum(), taxable: CompensatedSum()
            )
            let count = Int(random.next() % 120)
            for index in 0..<count {
                let known = random.next() % 8 != 0
                let proceeds = known ? value() : nil
                let cost = random.next() % 6 != 0 ? value() : nil
                let gain = known ? value() : nil
                let long = index >= switchAt && Int(random.next() % 4) < longShare
                let taxFree: Bool? =
                    taxFreeShare == 0 && round % 2 == 0 ? nil : (index >= switchAt && Int(random.next() % 4) < taxFreeShare)
                let row = RealizedRow(
                    portfolio: "main", coinID: "coin", amount: 1, acquiredAt: 0, disposedAt: 0, proceeds: proceeds, cost: cost,
                    gain: gain, holdingDays: 0, term: long ? .long : .short, taxFree: taxFree, disposalID: Int64(index))
                withUnsafePointer(to: row) { sum.add($0) }
                if let proceeds { plain.proceeds.add(proceeds) }
                if let cost { plain.cost.add(cost) }
                if let gain {
                    plain.gain.add(gain)
                    if long { plain.long.add(gain) } else { plain.short.add(gain) }
                    if taxFree != true { plain.taxable.add(gain) }
                }
            }
            let totals = sum.totals
            let pairs = [
                (totals.proceeds, plain.proceeds.total), (totals.cost, plain.cost.total), (totals.gain, plain.gain.total),
                (totals.shortTermGain, plain.short.total), (totals.longTermGain, plain.long.total),
                (totals.taxableGain, plain.taxable.total),
            ]
            for (index, (got, want)) in pairs.enumerated() {
                XCTAssertEqual(got.significand, want.significand, "round \(round), sum \(index)")
                XCTAssertEqual(got.exponent, want.exponent, "round \(round), sum \(index)")
            }
        }
    }
}
