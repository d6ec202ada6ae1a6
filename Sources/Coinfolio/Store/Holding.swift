/// How much of one coin the user holds: the seed's `PortfolioEntity (coinId, amount)`.
public struct Holding: Hashable, Sendable {
    /// CoinGecko coin id.
    public var coinID: String
    /// Units of the coin held (> 0).
    public var amount: Double

    /// A holding of `amount` units of the coin `coinID`.
    public init(coinID: String, amount: Double) {
        self.coinID = coinID
        self.amount = amount
    }
}

extension Holding {
    /// A holding's keys.
    enum JSONKey: String, WireKeys {
        case coinID = "coin_id"
        case amount
    }

    /// The keys of the holdings answer.
    enum AnswerKey: String, WireKeys {
        case holdings
    }
}

extension Array where Element == Holding {
    /// `{"holdings":[{"coin_id":"bitcoin","amount":0.5}…]}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI (no String validation, no extra copy).
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: count * 48 + 16)
        w.beginObject()
        w.key(Holding.AnswerKey.holdings); w.beginArray()
        for holding in self {
            w.beginObject()
            w.key(Holding.JSONKey.coinID); w.string(holding.coinID)
            w.key(Holding.JSONKey.amount); w.number(holding.amount)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}

extension Array where Element == Holding {
    /// Reads the batch-write input `{"holdings":[{"coin_id":"bitcoin","amount":0.5}…]}` (the
    /// shape `json` writes); unknown keys are ignored. Amounts are units of the coin; whether
    /// ids and amounts are acceptable is `PortfolioStore.setHoldings`'s to judge.
    /// - Throws: `.invalidArgument` for malformed JSON, a missing `holdings` array, or an entry
    ///   without a string `coin_id` and a number `amount`.
    public init(json: String) throws {
        var text = json
        if let fast = text.withUTF8({ HoldingsFastPath.parse($0) }) {
            self = fast
            return
        }
        let input = try ConfigJSON.decode(HoldingsInput?.self, from: json, default: { nil })
        guard let input else { throw CoinfolioError.invalid("expected {\"holdings\":[…]}") }
        self = input.holdings.map { Holding(coinID: $0.coin_id, amount: $0.amount) }
    }
}

/// The JSON form of a batch of holdings.
private struct HoldingsInput: Decodable {
    struct Entry: Decodable {
        var coin_id: String
        var amount: Double
    }
    var holdings: [Entry]
}

/// The batch input in its plain form — `{"holdings":[{"coin_id":"…","amount":n},…]}`, ids
/// without escapes, keys in either order, any JSON whitespace — read in one pass without
/// Foundation (whose decoder cost more than the SQLite transaction of 1,000 holdings). Anything
/// else returns nil and goes through the full decoder, which also reports what is wrong; what
/// this accepts is a strict subset of JSON, so both paths agree on every input.
private enum HoldingsFastPath {
    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> [Holding]? {
        var i = 0
        let n = b.count
        func space() { while i < n, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
        func take(_ byte: UInt8) -> Bool {
            space()
            guard i < n, b[i] == byte else { return false }
            i += 1
            return true
        }
        /// A string without escapes or control characters, as its byte range.
        func plainString() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < n, b[i] != UInt8(ascii: "\"") {
                if b[i] == UInt8(ascii: "\\") || b[i] < 0x20 { return nil }
                i += 1
            }
            guard i < n else { return nil }
            i += 1
            return start..<i - 1
        }
        func key(_ range: Range<Int>, is name: StaticString) -> Bool {
            range.count == name.utf8CodeUnitCount
                && name.withUTF8Buffer { expected in zip(b[range], expected).allSatisfy { $0 == $1 } }
        }
        func number() -> Double? {
            space()
            return JSONNumber.read(b, at: &i)
        }

        guard take(UInt8(ascii: "{")), let top = plainString(), key(top, is: "holdings"), take(UInt8(ascii: ":")),
            take(UInt8(ascii: "["))
        else { return nil }
        var result: [Holding] = []
        if !take(UInt8(ascii: "]")) {
            repeat {
                guard take(UInt8(ascii: "{")) else { return nil }
                var id: Range<Int>?
                var amount: Double?
                for _ in 0..<2 {
                    guard let name = plainString(), take(UInt8(ascii: ":")) else { return nil }
                    if key(name, is: "coin_id"), id == nil {
                        guard let value = plainString() else { return nil }
                        id = value
                    } else if key(name, is: "amount"), amount == nil {
                        guard let value = number() else { return nil }
                        amount = value
                    } else {
                        return nil
                    }
                    if amount == nil || id == nil { guard take(UInt8(ascii: ",")) else { return nil } }
                }
                guard let id, let amount, take(UInt8(ascii: "}")) else { return nil }
                result.append(Holding(coinID: String(decoding: UnsafeBufferPointer(rebasing: b[id]), as: UTF8.self), amount: amount))
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return nil }
        }
        guard take(UInt8(ascii: "}")) else { return nil }
        space()
        return i == n ? result : nil
    }
}
