import Foundation

extension Coin {
    /// The coin's four longer texts (`image`, `ath_date`, `atl_date`, `last_updated`): values, or,
    /// for a coin the simdjson decoder made, consecutive byte ranges of one buffer its piece of
    /// the body shares (`TextBytes`), made into a `String` on each read. Four heap strings per
    /// decoded coin, made and later freed, were a part of loading 100,000 coins (issue 30).
    ///
    /// Equal (and hashed) by the texts themselves, whichever way they are held.
    struct Texts: Hashable, Sendable {
        /// The texts as values (all nil while `bytes` holds them).
        private var image: String?, athDate: String?, atlDate: String?, lastUpdated: String?
        /// The buffer the texts are ranges of; nil when they are the values above.
        private var bytes: TextBytes?
        /// Where the first text starts in `bytes`.
        private var offset = 0
        /// Each text's end, counted from `offset` (a text starts where the one before it ends).
        private var ends = SIMD4<UInt32>()
        /// Bit `field` set for each text that is nil.
        private var absent: UInt8 = 0

        /// The texts' slots, in the order they are held.
        enum Field: Int, CaseIterable { case image, athDate, atlDate, lastUpdated }

        init() {}

        /// Texts held in `bytes` from `offset` on, ending at `ends` (from `offset`); nil where
        /// `absent` has the field's bit.
        init(bytes: TextBytes, offset: Int, ends: SIMD4<UInt32>, absent: UInt8) {
            self.bytes = bytes
            self.offset = offset
            self.ends = ends
            self.absent = absent
        }

        /// The UTF-8 bytes of a held text (nil when it is nil or the texts are values).
        private func held(_ field: Field) -> UnsafeRawBufferPointer? {
            guard let bytes, absent & (1 << field.rawValue) == 0 else { return nil }
            let start = field.rawValue == 0 ? 0 : Int(ends[field.rawValue - 1])
            return UnsafeRawBufferPointer(start: bytes.base + offset + start, count: Int(ends[field.rawValue]) - start)
        }

        subscript(field: Field) -> String? {
            get {
                if bytes != nil { return held(field).map { String(decoding: $0, as: UTF8.self) } }
                switch field {
                case .image: return image
                case .athDate: return athDate
                case .atlDate: return atlDate
                case .lastUpdated: return lastUpdated
                }
            }
            set {
                if bytes != nil {
                    // Held texts become values before one of them changes.
                    (image, athDate, atlDate, lastUpdated) = (self[.image], self[.athDate], self[.atlDate], self[.lastUpdated])
                    bytes = nil
                    (offset, ends, absent) = (0, SIMD4<UInt32>(), 0)
                }
                switch field {
                case .image: image = newValue
                case .athDate: athDate = newValue
                case .atlDate: atlDate = newValue
                case .lastUpdated: lastUpdated = newValue
                }
            }
        }

        /// `body` of the UTF-8 bytes of `field` (nil when it is nil), without a `String` when held.
        func withUTF8<T>(_ field: Field, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
            if bytes != nil { return body(held(field).map { $0.bindMemory(to: UInt8.self) }) }
            guard var text = self[field] else { return body(nil) }
            return text.withUTF8 { body($0) }
        }

        static func == (a: Texts, b: Texts) -> Bool {
            if let x = a.bytes, let y = b.bytes, x === y, a.offset == b.offset, a.ends == b.ends, a.absent == b.absent { return true }
            return Field.allCases.allSatisfy { a[$0] == b[$0] }
        }

        func hash(into hasher: inout Hasher) {
            for field in Field.allCases { hasher.combine(self[field]) }
        }
    }
}

/// One buffer of decoded coins' texts (`Coin.Texts`), freed when the last coin holding it goes.
final class TextBytes: @unchecked Sendable {
    /// The bytes (written only while the decoder fills it, before any coin reads it).
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity, 1))
    }

    deinit { base.deallocate() }
}
