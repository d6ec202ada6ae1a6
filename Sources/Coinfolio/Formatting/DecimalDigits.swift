/// A finite Double as the decimal digits people read: the shortest decimal that round-trips to
/// the same Double (what `Double.description` prints), kept as digits and a decimal point
/// position so that rounding and unit shifts are exact decimal operations, not binary ones.
///
/// `value = 0.d₀d₁d₂… × 10^pointPosition`, with `digits` free of leading zeros (empty for zero).
struct DecimalDigits: Equatable {
    var isNegative: Bool
    var digits: [UInt8]
    var pointPosition: Int

    var isZero: Bool { digits.isEmpty }

    /// - Returns: nil for NaN and ±Inf.
    init?(_ value: Double) {
        guard value.isFinite else { return nil }
        isNegative = value.sign == .minus
        digits = []
        pointPosition = 0
        // Double.description is the shortest round-trip form: "1234.5", "1e-09", "4.2e+17".
        let text = abs(value).description.utf8
        var exponent = 0
        var seenPoint = false
        var digitsBeforePoint = 0
        var iterator = text.makeIterator()
        var mantissa: [UInt8] = []
        mantissa.reserveCapacity(20)
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                mantissa.append(byte &- UInt8(ascii: "0"))
                if !seenPoint { digitsBeforePoint += 1 }
            case UInt8(ascii: "."):
                seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var sign = 1
                var magnitude = 0
                while let next = iterator.next() {
                    if next == UInt8(ascii: "-") {
                        sign = -1
                    } else if next == UInt8(ascii: "+") {
                        continue
                    } else {
                        magnitude = magnitude * 10 + Int(next &- UInt8(ascii: "0"))
                    }
                }
                exponent = sign * magnitude
            default:
                break
            }
        }
        var position = digitsBeforePoint + exponent
        var start = 0
        while start < mantissa.count, mantissa[start] == 0 {
            start += 1
            position -= 1
        }
        var end = mantissa.count
        while end > start, mantissa[end - 1] == 0 { end -= 1 }
        if start < end {
            digits = Array(mantissa[start..<end])
            pointPosition = position
        }
    }

    /// How many digits stand before the decimal point (0 for values below 1).
    var integerDigitCount: Int { isZero ? 0 : max(pointPosition, 0) }

    /// The value multiplied by 10^power, exactly.
    func shifted(by power: Int) -> DecimalDigits {
        var copy = self
        if !copy.isZero { copy.pointPosition += power }
        return copy
    }

    /// Rounds to `fractionDigits` digits after the point, half to even.
    func rounded(fractionDigits: Int) -> DecimalDigits {
        var copy = self
        let keep = pointPosition + fractionDigits
        guard keep < digits.count else { return copy }
        if keep < 0 {
            copy.digits = []
            copy.pointPosition = 0
            return copy
        }
        let first = digits[keep]
        let restNonZero = digits[(keep + 1)...].contains { $0 != 0 }
        let previousOdd = keep > 0 && digits[keep - 1] % 2 == 1
        let roundUp = first > 5 || (first == 5 && (restNonZero || previousOdd))
        var kept = Array(digits[..<keep])
        var position = pointPosition
        if roundUp {
            var index = kept.count - 1
            while index >= 0 {
                if kept[index] == 9 {
                    kept[index] = 0
                    index -= 1
                } else {
                    kept[index] += 1
                    break
                }
            }
            if index < 0 {
                kept.insert(1, at: 0)
                position += 1
            }
        }
        while let last = kept.last, last == 0 { kept.removeLast() }
        copy.digits = kept
        copy.pointPosition = kept.isEmpty ? 0 : position
        return copy
    }

    /// Renders the magnitude (no sign) with `fractionDigits` digits after the point, after any
    /// rounding was done; trailing zeros beyond `minimumFractionDigits` are dropped.
    func render(minimumFractionDigits: Int, maximumFractionDigits: Int, grouping: Bool) -> String {
        var integerPart: [UInt8] = []
        if pointPosition > 0 {
            for index in 0..<pointPosition {
                integerPart.append(index < digits.count ? digits[index] : 0)
            }
        }
        if integerPart.isEmpty { integerPart = [0] }
        var fraction: [UInt8] = []
        for place in 0..<maximumFractionDigits {
            let index = pointPosition + place
            fraction.append(index >= 0 && index < digits.count ? digits[index] : 0)
        }
        while fraction.count > minimumFractionDigits, fraction.last == 0 { fraction.removeLast() }

        var out: [UInt8] = []
        out.reserveCapacity(integerPart.count + integerPart.count / 3 + fraction.count + 2)
        for (index, digit) in integerPart.enumerated() {
            let remaining = integerPart.count - index
            if grouping, index > 0, remaining % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(digit + UInt8(ascii: "0"))
        }
        if !fraction.isEmpty {
            out.append(UInt8(ascii: "."))
            for digit in fraction { out.append(digit + UInt8(ascii: "0")) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
