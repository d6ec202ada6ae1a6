import Foundation

/// `sparkline_in_7d.price` of `/coins/markets`: the last 7 days of prices in vs_currency, oldest
/// first, any length; a null point (or one that is not a number) is NaN.
///
/// Decoded only when read: a decoded body keeps each sparkline as the byte range of its JSON
/// array in a shared copy of the body (already checked as strict JSON), and `prices` parses it
/// on each read (simdjson, correctly rounded). Queries that do not show sparklines never parse
/// their 168-odd numbers per coin. A sparkline built from values holds the values.
public struct Sparkline: Hashable, Sendable {
    /// Either the values, or a range of JSON text. A struct of optionals rather than an enum
    /// with payloads: a multi-payload enum keeps its case in the spare bits of the text's
    /// reference, which LeakSanitizer cannot follow, so `make fuzz` reported every decoded
    /// snapshot's text as leaked.
    struct Storage: Sendable {
        var values: [Double]?
        var text: JSONText?
        var offset = 0
        var length = 0
    }

    var storage: Storage

    /// A sparkline holding `prices` (NaN for a missing point).
    public init(prices: [Double]) { storage = Storage(values: prices) }

    /// A sparkline still in JSON: bytes `offset..<offset+length` of `text` are one JSON array.
    init(text: JSONText, offset: Int, length: Int) {
        storage = Storage(text: text, offset: offset, length: length)
    }

    /// A sparkline from the raw JSON text of its price array (`[1.5,2,null]`), as a snapshot store
    /// keeps it; nil when it is not strict JSON or not an array. Not parsed until read.
    public init?(json: some Collection<UInt8>) {
        let text = JSONText(copying: json)
        guard JSONText.isStrictArray(text) else { return nil }
        storage = Storage(text: text, offset: 0, length: text.count)
    }

    /// The points, oldest first (NaN for a missing point). Parses the JSON when held undecoded.
    public var prices: [Double] {
        if let text = storage.text { return text.prices(offset: storage.offset, length: storage.length) }
        return storage.values ?? []
    }

    /// Whether the points are still undecoded JSON.
    public var isUndecoded: Bool {
        storage.text != nil
    }

    /// The sparkline as the JSON text of its price array: the original bytes when undecoded
    /// (for saving it without parsing), else written from the values (NaN as null).
    public var jsonUTF8: [UInt8] {
        if let text = storage.text {
            return Array(UnsafeRawBufferPointer(start: text.base + storage.offset, count: storage.length))
        }
        let prices = storage.values ?? []
        var w = JSONWriter(reserving: prices.count * 20 + 2)
        w.beginArray()
        for price in prices { w.number(price) }
        w.endArray()
        return w.bytes
    }

    /// Equal when the points are: the same JSON bytes, or the same values (a missing point, NaN,
    /// equal to a missing one).
    public static func == (a: Sparkline, b: Sparkline) -> Bool {
        if let x = a.storage.text, let y = b.storage.text, a.storage.length == b.storage.length,
            memcmp(x.base + a.storage.offset, y.base + b.storage.offset, a.storage.length) == 0
        {
            return true
        }
        let (p, q) = (a.prices, b.prices)
        guard p.count == q.count else { return false }
        // Same points, a missing (NaN) point equal to a missing one.
        return zip(p, q).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }

    /// Hashes the points (decoding them when undecoded), consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        let prices = self.prices
        hasher.combine(prices.count)
        for price in prices { hasher.combine(price.isNaN ? Double.nan.bitPattern : (price == 0 ? 0 : price.bitPattern)) }
    }
}
