/// The currency a money cell's sign names, checked against the row's price currency (Coinbase
/// writes `$1,234.50`, `€90.00`, `CA$3`): a `€100` in a USD row is refused, not read as $100.
/// Only signs that name their currency are checked; any other sign (or none) is taken as the
/// row's currency, as before.
enum CurrencySign {
    /// Signs that belong to one currency or a few.
    static let symbols: [Character: Set<String>] = [
        "€": ["EUR"], "£": ["GBP"], "¥": ["JPY", "CNY"], "₹": ["INR"], "₩": ["KRW"], "₺": ["TRY"], "₽": ["RUB"],
        "₴": ["UAH"], "₦": ["NGN"], "₱": ["PHP"], "฿": ["THB"], "₫": ["VND"], "₪": ["ILS"],
    ]
    /// The currencies with a sign of their own (a `$` alone is not theirs).
    static let ownSign: Set<String> = symbols.values.reduce(into: []) { $0.formUnion($1) }
    /// `ownSign` as a list: a dozen short codes compared in turn cost less than hashing the code
    /// (every Coinbase money cell asks).
    private static let ownSignList: [String] = ownSign.sorted()
    /// Letters before a `$` that name its currency (`CA$`, `A$`, `R$`).
    static let dollarPrefixes: [String: String] = [
        "US": "USD", "CA": "CAD", "A": "AUD", "AU": "AUD", "NZ": "NZD", "HK": "HKD", "S": "SGD", "SG": "SGD",
        "R": "BRL", "MX": "MXN", "NT": "TWD",
    ]

    /// Whether `currency` (an upper-case code) has a sign of its own: `ownSign.contains`, without
    /// hashing the code.
    static func hasOwnSign(_ currency: String) -> Bool {
        // A three-letter ASCII code (every Coinbase row's) as one number among `ownSignKeys`:
        // ASCII texts are equal exactly when their bytes are.
        var code = currency
        guard let key = code.withUTF8({ Self.key($0) }) else { return ownSignList.contains(currency) }
        return ownSignKeys.contains(key)
    }

    /// `ownSignList`'s codes (three ASCII letters each) as `key`s.
    private static let ownSignKeys: [UInt32] = ownSignList.compactMap { code in
        var code = code
        return code.withUTF8 { key($0) }
    }

    /// Three ASCII bytes as one number; nil for any other text.
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard bytes.count == 3, bytes[0] < 0x80, bytes[1] < 0x80, bytes[2] < 0x80 else { return nil }
        return UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }

    /// Why `cell`'s sign contradicts `currency` (an upper-case code such as `USD`), or nil when it
    /// does not: a known sign of other currencies; a `$` alone in a row of a currency with a sign
    /// of its own (EUR, GBP, …); letters and `$` naming another dollar.
    /// - Parameter ownSign: `hasOwnSign(currency)` when the caller knows it (a row's cells share it).
    static func contradiction(_ cell: String, currency: String, ownSign knownOwnSign: Bool? = nil) -> String? {
        // Most cells: digits, or `$`/`-$` in a row of a currency without a sign of its own (USD).
        // The first byte after a minus, from the bytes in memory where the string has them.
        let first: UInt8?
        if let lead = cell.utf8.withContiguousStorageIfAvailable({ bytes -> UInt8? in
            let start = bytes.first == UInt8(ascii: "-") ? 1 : 0
            return start < bytes.count ? bytes[start] : nil
        }) {
            first = lead
        } else {
            var utf8 = Substring(cell).utf8[...]
            if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
            first = utf8.first
        }
        guard let first, !(0x30...0x39).contains(first) else { return nil }
        let currencyHasOwnSign = knownOwnSign ?? hasOwnSign(currency)
        if first == UInt8(ascii: "$"), !currencyHasOwnSign { return nil }
        var rest = Substring(cell)
        if rest.first == "-" { rest = rest.dropFirst() }
        let letters = rest.prefix { ("A"..."Z").contains($0) }
        guard letters.count <= 3, let sign = rest.dropFirst(letters.count).first else { return nil }
        let named: Set<String>
        if sign == "$" {
            if letters.isEmpty {
                guard currencyHasOwnSign else { return nil }
                return "\"\(cell)\" is in dollars, and the row's price currency is \(currency)"
            }
            guard let code = dollarPrefixes[String(letters)] else { return nil }
            named = [code]
        } else {
            guard letters.isEmpty, let codes = symbols[sign] else { return nil }
            named = codes
        }
        guard !named.contains(currency) else { return nil }
        return "\"\(cell)\" is in \(named.sorted().joined(separator: " or ")), and the row's price currency is \(currency)"
    }
}
