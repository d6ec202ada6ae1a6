import Foundation

#if SimdJSON
    import CSimdJSON
#endif

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
        #if !SimdJSON
            return treePoints(offset: offset, length: length).prices
        #else
            let decoded = try? SimdJSON.withDecoder { decoder -> [Double] in
                var points: UnsafePointer<Double>?
                let found = cf_sj_prices(decoder, base, count, offset, length, &points)
                guard found > 0, let points else { return [] }
                return Array(UnsafeBufferPointer(start: points, count: Int(found)))
            }
            return decoded ?? []
        #endif
    }

    /// The positions of the points of the array at `offset..<offset+length` that are neither
    /// numbers, nulls nor strings wholly a number (they read as NaN and are reported).
    func problems(offset: Int, length: Int) -> [Int] {
        #if !SimdJSON
            return treePoints(offset: offset, length: length).problems
        #else
            let found = try? SimdJSON.withDecoder { decoder -> [Int] in
                var points: UnsafePointer<Double>?
                guard cf_sj_prices(decoder, base, count, offset, length, &points) >= 0 else { return [] }
                var positions: UnsafePointer<Int64>?
                let count = cf_sj_prices_problems(decoder, &positions)
                guard count > 0, let positions else { return [] }
                return UnsafeBufferPointer(start: positions, count: Int(count)).map { Int($0) }
            }
            return found ?? []
        #endif
    }

    /// Whether the whole text is one strict JSON array.
    static func isStrictArray(_ text: JSONText) -> Bool {
        #if !SimdJSON
            guard case .array? = try? JSONValue.parse(UnsafeBufferPointer(start: text.base, count: text.count)) else { return false }
            return true
        #else
            cf_sj_is_array(text.base, text.count) != 0
        #endif
    }

    #if !SimdJSON
        /// The array at `offset..<offset+length` read by the strict Swift reader (a build without
        /// simdjson): a number as its double, a string wholly a number as that number, anything else
        /// NaN and listed in `problems` (null is NaN and no problem).
        private func treePoints(offset: Int, length: Int) -> (prices: [Double], problems: [Int]) {
            guard case .array(let elements)? = try? JSONValue.parse(UnsafeBufferPointer(start: base + offset, count: length)) else {
                return ([], [])
            }
            var prices: [Double] = []
            var problems: [Int] = []
            prices.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                switch element {
                case .number(let text): prices.append(Double(text) ?? .nan)
                case .null: prices.append(.nan)
                case .string(let text) where NumberText.parse(text) != nil: prices.append(NumberText.parse(text) ?? .nan)
                default:
                    prices.append(.nan)
                    problems.append(index)
                }
            }
            return (prices, problems)
        }
    #endif
}
