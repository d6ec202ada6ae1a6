import CSimdJSON
import Foundation

/// A body's bytes kept for undecoded values (sparklines): malloc'd, followed by simdjson's
/// padding, freed when the last value pointing into it goes.
final class JSONText: @unchecked Sendable {
    /// The bytes (never written after creation).
    let base: UnsafeMutablePointer<UInt8>
    /// Their count, without the padding.
    let count: Int

    /// Takes ownership of a buffer from `cf_sj_markets` (`count` bytes + padding, malloc'd).
    init(adopting base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// A padded copy of `bytes`.
    convenience init(copying bytes: some Collection<UInt8>) {
        let count = bytes.count
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: count + JSONText.padding)
        _ = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: bytes)
        (base + count).initialize(repeating: 0, count: JSONText.padding)
        self.init(owned: base, count: count)
    }

    private init(owned base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
        allocatedBySwift = true
    }

    private var allocatedBySwift = false

    /// simdjson's SIMDJSON_PADDING.
    static let padding = 64

    deinit {
        if allocatedBySwift { base.deallocate() } else { free(base) }
    }

    /// The array at `offset..<offset+length` parsed (NaN for null and non-number points).
    func prices(offset: Int, length: Int) -> [Double] {
        let decoded = try? SimdJSON.withDecoder { decoder -> [Double] in
            var points: UnsafePointer<Double>?
            let found = cf_sj_prices(decoder, base, count, offset, length, &points)
            guard found > 0, let points else { return [] }
            return Array(UnsafeBufferPointer(start: points, count: Int(found)))
        }
        return decoded ?? []
    }

    /// The positions of the points of the array at `offset..<offset+length` that are neither
    /// numbers, nulls nor strings wholly a number (they read as NaN and are reported).
    func problems(offset: Int, length: Int) -> [Int] {
        let found = try? SimdJSON.withDecoder { decoder -> [Int] in
            var points: UnsafePointer<Double>?
            guard cf_sj_prices(decoder, base, count, offset, length, &points) >= 0 else { return [] }
            var positions: UnsafePointer<Int64>?
            let count = cf_sj_prices_problems(decoder, &positions)
            guard count > 0, let positions else { return [] }
            return UnsafeBufferPointer(start: positions, count: Int(count)).map { Int($0) }
        }
        return found ?? []
    }

    /// Whether the whole text is one strict JSON array.
    static func isStrictArray(_ text: JSONText) -> Bool {
        cf_sj_is_array(text.base, text.count) != 0
    }
}
