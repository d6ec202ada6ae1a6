import Foundation

/// A coin id (or a portfolio name) compared and hashed by its UTF-8 bytes, as the database
/// compares: Swift's `==` on `String` would call NFC and NFD spellings of one id equal, and they
/// are two holdings (two portfolios).
struct HoldingsKey: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: HoldingsKey, b: HoldingsKey) -> Bool {
        // Over contiguous UTF-8 (native strings need no copy): the generic UTF8View walk cost a
        // visible share of a 1,000-coin batch's lookups.
        var a = a.text
        var b = b.text
        // The lengths, then one memcmp (the generic byte-by-byte `elementsEqual` was ~170
        // instructions for a 7-byte name, twice a row of an import).
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }  // both empty
                return memcmp(p, q, x.count) == 0
            }
        }
    }
    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
