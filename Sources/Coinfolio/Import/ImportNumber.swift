/// The number forms exchanges write, accepted only where a format writes them (SPEC §18): each
/// importer names the forms of each column. Whatever form is allowed, the digits themselves are
/// read exactly (`ExactDecimal`, at most 18 fraction digits); the coinfolio format stays strict.
struct NumberForm: OptionSet, Sendable {
    let rawValue: Int

    /// A leading `-` (Coinbase's outflows, Kraken's and Binance's signed changes). Without it a
    /// negative number is refused.
    static let signed = NumberForm(rawValue: 1 << 0)
    /// Commas between groups of three digits (`11,426.20`, Binance and Coinbase).
    static let thousands = NumberForm(rawValue: 1 << 1)
    /// A currency sign before the digits, after or before the minus (`$1.50`, `-€2.00`, `€-2`,
    /// `CA$3`: up to three capital letters and one currency symbol, Coinbase).
    static let currencySign = NumberForm(rawValue: 1 << 2)
    /// An asset code after the digits (`0.0528450000BTC`, Binance), returned with the number.
    static let assetSuffix = NumberForm(rawValue: 1 << 3)
    /// `-` alone for an empty cell (CoinTracking).
    static let dashIsEmpty = NumberForm(rawValue: 1 << 4)
}

/// Reads one number cell in the forms allowed.
enum ImportNumber {
    /// A number read: its value and the asset code written after it (`assetSuffix`).
    struct Read: Sendable {
        /// The value, negative only with `signed`.
        var value: ExactDecimal
        /// The asset code after the digits (upper-case as written), or nil.
        var suffix: String?
    }

    /// Reads `text` (already trimmed) in `form`.
    /// - Parameter suffixes: with `assetSuffix`, the asset codes the cell may end with (the
    ///   pair's base and quote, a fee coin); the longest one that ends the cell is taken, which
    ///   keeps `12.01INCH` apart as 12.0 and `1INCH`. Without a match, the letters after the last
    ///   digit are the code.
    /// - Returns: nil for an empty cell (or `-` with `dashIsEmpty`).
    /// - Throws: a message saying what is wrong with the cell, for the caller to place.
    static func read(_ text: String, _ form: NumberForm, suffixes: [String] = []) throws(Refusal) -> Read? {
        if text.isEmpty || (form.contains(.dashIsEmpty) && text == "-") { return nil }
        // Most cells are plain decimals (`0.10`, `-100.25`): read in place, no copy.
        if let plain = plainDecimal(text, signed: form.contains(.signed)) { return Read(value: plain, suffix: nil) }
        // Then money as Coinbase writes it (`$1,234.50`, `-$225.00`): read in place too.
        if !form.contains(.assetSuffix), let money = plainMoney(text, form) { return Read(value: money, suffix: nil) }
        var bytes = Substring(text).utf8[...]
        var suffix: String?
        if form.contains(.assetSuffix) {
            if let known = suffixes.filter({ !$0.isEmpty && text.utf8.count > $0.utf8.count && text.hasSuffix($0) })
                .max(by: { $0.utf8.count < $1.utf8.count })
            {
                suffix = known
                bytes = bytes.dropLast(known.utf8.count)
            } else if let last = bytes.lastIndex(where: { (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }),
                bytes.index(after: last) != bytes.endIndex
            {
                let tail = bytes[bytes.index(after: last)...]
                guard tail.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }) else {
                    throw Refusal("\"\(text)\" is not a number followed by an asset code (0.0528450000BTC)")
                }
                suffix = String(Substring(tail))
                bytes = bytes[..<bytes.index(after: last)]
            }
        }
        var negative = false
        func takeMinus() {
            if bytes.first == UInt8(ascii: "-") {
                negative = true
                bytes = bytes.dropFirst()
            }
        }
        takeMinus()
        if form.contains(.currencySign), bytes.first == UInt8(ascii: "$") {
            // The usual sign, without walking Unicode scalars.
            bytes = bytes.dropFirst()
            if !negative { takeMinus() }
        } else if form.contains(.currencySign) {
            let scalars = Substring(bytes).unicodeScalars
            var index = scalars.startIndex
            var letters = 0
            while index != scalars.endIndex, letters < 3, ("A"..."Z").contains(scalars[index]) {
                letters += 1
                index = scalars.index(after: index)
            }
            if index != scalars.endIndex, scalars[index].properties.generalCategory == .currencySymbol {
                bytes = Substring(scalars[scalars.index(after: index)...]).utf8[...]
                if !negative { takeMinus() }
            }
        }
        guard !bytes.isEmpty, bytes.first != UInt8(ascii: "-"), bytes.first != UInt8(ascii: "+") else {
            throw Refusal("\"\(text)\" is not a number")
        }
        if negative, !form.contains(.signed) {
            throw Refusal("\"\(text)\" is negative; this column holds amounts of 0 or more")
        }
        let comma = UInt8(ascii: ",")
        let parsed: ExactDecimal?
        if bytes.contains(comma) {
            guard form.contains(.thousands), hasThousandsGroups(bytes) else {
                // What the comma is, said as the ledger's CSV says it (`DecimalComma`).
                if let (reason, message) = DecimalComma.refusal(String(Substring(bytes))) {
                    throw Refusal(message, reason: reason)
                }
                throw Refusal("\"\(text)\" has a comma: this column writes numbers with a decimal point")
            }
            parsed = ExactDecimal.parse(bytes.lazy.filter { $0 != comma }, rounding: false)
        } else {
            parsed = ExactDecimal.parse(bytes, rounding: false)
        }
        guard let value = parsed else {
            let digits = bytes.filter { $0 != comma }
            switch ExactDecimal.refusal(digits) {
            case .beyondRange?: throw Refusal("\"\(text)\" is beyond what the ledger keeps exactly (±8.5e19)", reason: .outOfRange)
            case .fractionDigits?: throw Refusal("\"\(text)\" has more than \(ExactDecimal.fractionDigits) fraction digits")
            case nil: throw Refusal("\"\(text)\" is not a number")
            }
        }
        return Read(value: negative ? -value : value, suffix: suffix)
    }

    /// `text` as a decimal when it is only digits, one point and (with `signed`) a leading minus;
    /// nil for anything else, which the general reading then says what is wrong with.
    private static func plainDecimal(_ text: String, signed: Bool) -> ExactDecimal? {
        var text = text
        return text.withUTF8 { plainDecimal($0, signed: signed) }
    }

    /// `plainDecimal` over bytes.
    private static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>, signed: Bool) -> ExactDecimal? {
        guard let first = bytes.first, first != UInt8(ascii: "+"), signed || first != UInt8(ascii: "-"),
            bytes.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
        else { return nil }
        return ExactDecimal.parse(bytes, rounding: false)
    }

    /// What `read`'s first steps make of a cell's bytes (spaces trimmed, ASCII).
    enum Plain {
        /// An empty cell (or `-` with `dashIsEmpty`): `read` answers nil.
        case empty
        /// A plain decimal, or money as Coinbase writes it: `read` answers this value, no suffix.
        case value(ExactDecimal)
        /// Anything else: `read` must read (or refuse) the cell's text.
        case other
    }

    /// `read`'s readings of the usual cells over their bytes (no `String`): the same answer
    /// `read` gives the cell's text for `.empty` and `.value`.
    static func plain(_ bytes: UnsafeBufferPointer<UInt8>, _ form: NumberForm) -> Plain {
        if bytes.isEmpty || (form.contains(.dashIsEmpty) && bytes.count == 1 && bytes[0] == UInt8(ascii: "-")) { return .empty }
        if let short = shortDecimal(bytes, form) { return .value(short) }
        if let plain = plainDecimal(bytes, signed: form.contains(.signed)) { return .value(plain) }
        if !form.contains(.assetSuffix), let money = plainMoney(bytes, form) { return .value(money) }
        return .other
    }

    /// The cells most files are made of, read in one pass over their bytes: a minus (with
    /// `signed`), a `$` (with `currencySign`, no `assetSuffix`; the minus before or after it),
    /// a digit, then digits with commas between groups of three (with `thousands`, no
    /// `assetSuffix`) and at most one point followed by a digit, at most 18 digits in all: the
    /// value `plainDecimal` or `plainMoney` gives such a cell, without their passes and the
    /// general parser's (each money cell took ~500 instructions). Nil for anything else, which
    /// they read.
    static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ form: NumberForm) -> ExactDecimal? {
        let count = bytes.count
        var index = 0
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") {
            guard form.contains(.signed) else { return nil }
            negative = true
            index += 1
        }
        let lenient = !form.contains(.assetSuffix)
        if index < count, bytes[index] == UInt8(ascii: "$") {
            guard lenient, form.contains(.currencySign) else { return nil }
            index += 1
            if !negative, index < count, bytes[index] == UInt8(ascii: "-") {
                guard form.contains(.signed) else { return nil }
                negative = true
                index += 1
            }
        }
        guard index < count, bytes[index] &- 0x30 < 10 else { return nil }
        let commas = lenient && form.contains(.thousands)
        var mantissa: Int64 = 0
        var digits = 0
        var group = 0  // digits since the start or the last comma
        var groups = 0  // commas seen
        var fraction = -1  // digits after the point; -1 before it
        while index < count {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                digits += 1
                guard digits <= 18 else { return nil }
                mantissa = mantissa &* 10 &+ Int64(byte &- 0x30)
                if fraction >= 0 { fraction += 1 } else { group += 1 }
            } else if byte == UInt8(ascii: ","), commas, fraction < 0, groups == 0 ? group <= 3 : group == 3 {
                groups += 1
                group = 0
            } else if byte == UInt8(ascii: "."), fraction < 0, groups == 0 || group == 3, index + 1 < count {
                fraction = 0
            } else {
                return nil
            }
            index += 1
        }
        // A comma must close a group of three: `1,000` or `1,000.5`, never `1,00`.
        guard groups == 0 || fraction >= 0 || group == 3 else { return nil }
        let units = Int128(mantissa) &* ExactDecimal.powersOfTen[ExactDecimal.fractionDigits - max(fraction, 0)]
        return ExactDecimal(units: negative ? -units : units)
    }

    /// `text` as a decimal when it is a minus (with `signed`), a `$` (with `currencySign`; the
    /// minus before or after it) and digits with one point and (with `thousands`) commas between
    /// groups of three: the value the general reading gives such a cell, without its copies. Nil
    /// for anything else, which the general reading reads or refuses.
    private static func plainMoney(_ text: String, _ form: NumberForm) -> ExactDecimal? {
        var text = text
        return text.withUTF8 { plainMoney($0, form) }
    }

    /// `plainMoney` over bytes.
    private static func plainMoney(_ bytes: UnsafeBufferPointer<UInt8>, _ form: NumberForm) -> ExactDecimal? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        if form.contains(.currencySign), index < bytes.count, bytes[index] == UInt8(ascii: "$") {
            index += 1
            if !negative, index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
        }
        guard index < bytes.count, (0x30...0x39).contains(bytes[index]), !negative || form.contains(.signed) else { return nil }
        let number = UnsafeBufferPointer(rebasing: bytes[index...])
        guard number.count <= 64,
            number.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") })
        else { return nil }
        let value: ExactDecimal?
        if number.contains(UInt8(ascii: ",")) {
            guard form.contains(.thousands), hasThousandsGroups(number) else { return nil }
            value = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digits -> ExactDecimal? in
                var count = 0
                for byte in number where byte != UInt8(ascii: ",") {
                    digits[count] = byte
                    count += 1
                }
                return ExactDecimal.parse(UnsafeBufferPointer(rebasing: digits[..<count]), rounding: false)
            }
        } else {
            value = ExactDecimal.parse(number, rounding: false)
        }
        guard let value else { return nil }
        return negative ? -value : value
    }

    /// Whether the commas of `bytes` separate groups of three digits before the point
    /// (`1,234,567.5`); not `1,5` (a decimal comma), `12,34` or `1,234.5,6`.
    private static func hasThousandsGroups<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var group = 0  // digits since the last comma
        var groups = 0  // commas seen
        var afterPoint = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: ","):
                guard !afterPoint, groups == 0 ? (1...3).contains(group) : group == 3 else { return false }
                groups += 1
                group = 0
            case UInt8(ascii: "."):
                guard !afterPoint, groups == 0 || group == 3 else { return false }
                afterPoint = true
            default:
                group += 1
            }
        }
        return groups > 0 && (afterPoint || group == 3)
    }

    /// Why a cell is not a number of its column, said for a person, and the `details.reason` of
    /// a comma refused (`DecimalComma`'s `thousands_separator`, `decimal_comma`, `ambiguous_comma`).
    struct Refusal: Error {
        let message: String
        let reason: CoinfolioError.Reason?
        init(_ message: String, reason: CoinfolioError.Reason? = nil) {
            self.message = message
            self.reason = reason
        }
    }
}
