/// Number formatting the way a tracker shows it, identical on Linux and macOS.
///
/// The locale is pinned to en_US (`,` groups thousands, `.` is the decimal point), rounding is
/// half-to-even on the shortest decimal form of the value (so 0.125 → "0.12" and 1.015 → "1.02",
/// as people read those numbers), negative zero prints as zero, and NaN or ±Inf print "n/a".
/// Nothing here reads `Locale.current` or `NumberFormatter`.
public enum NumberFormat {
    /// What every function returns for NaN and ±Inf.
    public static let notAvailable = "n/a"

    /// The fraction digit counts `currency` accepts as given: 0 ≤ minimum ≤ maximum ≤ 18. (The
    /// C ABI returns NULL outside them; `currency` itself clamps.)
    public static func areValidFractionDigits(minimum: Int, maximum: Int) -> Bool {
        0 <= minimum && minimum <= maximum && maximum <= 18
    }

    /// An amount of money: sign, currency prefix, grouping, `minimumFractionDigits` to
    /// `maximumFractionDigits` digits after the point (trailing zeros past the minimum dropped).
    ///
    ///     currency(1234.56)                                   // "$1,234.56"
    ///     currency(-1234.5)                                   // "-$1,234.50"
    ///     currency(12.3456, maximumFractionDigits: 6)         // "$12.3456"
    ///     currency(1234.56, vsCurrency: try VsCurrency("chf")) // "CHF 1,234.56"
    ///
    /// - Parameters:
    ///   - value: the amount in `vsCurrency`.
    ///   - minimumFractionDigits: at least this many digits after the point (0…18).
    ///   - maximumFractionDigits: at most this many (minimum…18); the value is rounded to it.
    ///   - vsCurrency: decides the prefix.
    /// - Returns: the text, or "n/a" for a non-finite value. Out-of-range digit counts are clamped.
    public static func currency(
        _ value: Double,
        minimumFractionDigits: Int = 2,
        maximumFractionDigits: Int = 2,
        vsCurrency: VsCurrency = .usd
    ) -> String {
        let minimum = min(max(minimumFractionDigits, 0), 18)
        let maximum = min(max(maximumFractionDigits, minimum), 18)
        guard let decimal = DecimalDigits(value) else { return notAvailable }
        return signed(decimal.rounded(fractionDigits: maximum), prefix: vsCurrency.prefix, minimum: minimum, maximum: maximum)
    }

    /// A money value (a total, a holding's value, "Portfolio Value") in the currency's own
    /// precision, from `CurrencyTable` (SPEC §10):
    /// - fiat: exactly its ISO 4217 minor unit of fraction digits (jpy, krw, sats 0; kwd, bhd 3;
    ///   most 2);
    /// - crypto and metal quotes (btc, eth, …, xau): 2 to 8 digits, trailing zeros past 2
    ///   dropped, and below 0.0001 as many as 4 significant digits need, so a value that is not
    ///   zero never prints as zero.
    ///
    ///     value(123400, vsCurrency: jpy)    // "¥123,400"
    ///     value(148064.07, vsCurrency: jpy) // "¥148,064"
    ///     value(1.2346, vsCurrency: kwd)    // "KWD 1.235"
    ///     value(2.5e-05, vsCurrency: btc)   // "₿0.000025"
    ///     value(0.5, vsCurrency: btc)       // "₿0.50"
    ///     value(1234.5)                     // "$1,234.50"
    ///
    /// - Parameters:
    ///   - value: an amount of money in `vsCurrency`.
    ///   - vsCurrency: decides the prefix and the digits.
    /// - Returns: the text, or "n/a" for a non-finite value.
    public static func value(_ value: Double, vsCurrency: VsCurrency = .usd) -> String {
        guard let decimal = DecimalDigits(value) else { return notAvailable }
        switch vsCurrency.kind {
        case .fiat(let minorUnit):
            return signed(decimal.rounded(fractionDigits: minorUnit), prefix: vsCurrency.prefix, minimum: minorUnit, maximum: minorUnit)
        case .crypto, .metal:
            return crypto(decimal, prefix: vsCurrency.prefix)
        }
    }

    /// A price (SPEC §3 and §10): never exponent form, at least 4 significant digits for small
    /// prices, and fraction digits by the currency's kind in `CurrencyTable`:
    /// - 2-digit fiat (usd, eur, bits, …): 2 to 6 digits, or more where needed to show 4
    ///   significant digits; trailing zeros past 2 dropped;
    /// - other fiat (jpy, sats 0; kwd 3): its minor unit of digits, more only where needed to
    ///   show 4 significant digits; trailing zeros past the minor unit dropped;
    /// - crypto and metal: as `value`.
    ///
    ///     price(57000.123)                  // "$57,000.123"
    ///     price(8.12e-06)                   // "$0.00000812"
    ///     price(2.096e-09)                  // "$0.000000002096"
    ///     price(0.000123456)                // "$0.0001235"
    ///     price(32.034, vsCurrency: jpy)    // "¥32.03"
    ///     price(14800000, vsCurrency: jpy)  // "¥14,800,000"
    ///     price(12345, vsCurrency: sats)    // "SATS 12,345"
    ///
    /// - Parameters:
    ///   - value: a price in `vsCurrency` (CoinGecko `current_price`, `high_24h`, …).
    ///   - vsCurrency: decides the prefix and the digits.
    /// - Returns: the text, or "n/a" for a non-finite value.
    public static func price(_ value: Double, vsCurrency: VsCurrency = .usd) -> String {
        guard let decimal = DecimalDigits(value) else { return notAvailable }
        switch vsCurrency.kind {
        case .fiat(let minorUnit):
            // Digits after the point that 4 significant digits need (0 from 1,000 up).
            let significant = decimal.isZero ? 0 : max(4 - decimal.pointPosition, 0)
            let fractionDigits = max(minorUnit == 2 ? 6 : minorUnit, significant)
            let rounded = decimal.rounded(fractionDigits: fractionDigits)
            return signed(rounded, prefix: vsCurrency.prefix, minimum: minorUnit, maximum: fractionDigits)
        case .crypto, .metal:
            return crypto(decimal, prefix: vsCurrency.prefix)
        }
    }

    /// A round value on a chart's value axis (`ValueAxis`): the rules of `value`, with at least
    /// `fractionDigits` digits after the point, the digits of the step between ticks, so that
    /// neighbouring ticks never print alike and every tick of an axis has the same digits:
    /// - fiat: max(minor unit, `fractionDigits`) digits (usd 2, jpy 0, kwd 3);
    /// - crypto and metal: max(2, `fractionDigits`) digits.
    ///
    ///     tick(40000, fractionDigits: 0)                      // "$40,000.00"
    ///     tick(0.995, fractionDigits: 3)                      // "$0.995"
    ///     tick(2.2e-06, fractionDigits: 7)                    // "$0.0000022"
    ///     tick(4000000, fractionDigits: 0, vsCurrency: jpy)   // "¥4,000,000"
    ///     tick(0.5, fractionDigits: 1, vsCurrency: btc)       // "₿0.50"
    ///
    /// - Parameters:
    ///   - value: a multiple of the step, in `vsCurrency`.
    ///   - fractionDigits: the step's digits after the point (0 for steps of 1 and above).
    ///   - vsCurrency: decides the prefix and the currency's own digits.
    /// - Returns: the text, or "n/a" for a non-finite value.
    static func tick(_ value: Double, fractionDigits: Int, vsCurrency: VsCurrency = .usd) -> String {
        guard let decimal = DecimalDigits(value) else { return notAvailable }
        let own: Int
        switch vsCurrency.kind {
        case .fiat(let minorUnit): own = minorUnit
        case .crypto, .metal: own = 2
        }
        let digits = max(own, fractionDigits)
        return signed(decimal.rounded(fractionDigits: digits), prefix: vsCurrency.prefix, minimum: digits, maximum: digits)
    }

    /// Crypto and metal amounts: 2 to 8 fraction digits, more below 0.0001 to show 4
    /// significant digits; trailing zeros past 2 dropped.
    private static func crypto(_ decimal: DecimalDigits, prefix: String) -> String {
        var fractionDigits = 8
        if !decimal.isZero, decimal.pointPosition < 0 {
            fractionDigits = max(8, -decimal.pointPosition + 4)
        }
        return signed(decimal.rounded(fractionDigits: fractionDigits), prefix: prefix, minimum: 2, maximum: fractionDigits)
    }

    /// Two digits after the point, no grouping: 1.2345 → "1.23" (the app's `"%.2f"`).
    ///
    /// - Returns: the text, or "n/a" for a non-finite value.
    public static func number(_ value: Double) -> String {
        guard let decimal = DecimalDigits(value) else { return notAvailable }
        return signed(decimal.rounded(fractionDigits: 2), prefix: "", minimum: 2, maximum: 2, grouping: false)
    }

    /// A percentage already in percent units: 1.2345 → "1.23%", -0.001 → "0.00%".
    ///
    /// - Returns: the text, or "n/a" for a non-finite value.
    public static func percent(_ value: Double) -> String {
        guard value.isFinite else { return notAvailable }
        return number(value) + "%"
    }

    /// Sign, then the value in trillions "Tr" (≥1e12), billions "Bn" (≥1e9), millions "M" (≥1e6)
    /// or thousands "K" (≥1e3) with two digits; a value that rounds up to the next unit moves up.
    ///
    ///     abbreviated(1234)        // "1.23K"
    ///     abbreviated(1234567890)  // "1.23Bn"
    ///     abbreviated(999999)      // "1.00M" (the app printed "1000.00K")
    ///     abbreviated(12)          // "12.00"
    ///
    /// - Parameters:
    ///   - value: the number, in any unit (a currency amount, a count of coins).
    ///   - prefix: printed after the sign and before the digits (a currency symbol).
    /// - Returns: the text, or "n/a" for a non-finite value.
    public static func abbreviated(_ value: Double, prefix: String = "") -> String {
        guard let decimal = DecimalDigits(value) else { return notAvailable }
        let units: [(power: Int, suffix: String)] = [(0, ""), (3, "K"), (6, "M"), (9, "Bn"), (12, "Tr")]
        var unit = 0
        while unit + 1 < units.count, decimal.integerDigitCount > units[unit + 1].power { unit += 1 }
        var rounded = decimal.shifted(by: -units[unit].power).rounded(fractionDigits: 2)
        while unit + 1 < units.count, rounded.integerDigitCount > 3 {
            // 999.999K rounds to 1000.00K: say 1.00M instead.
            unit += 1
            rounded = decimal.shifted(by: -units[unit].power).rounded(fractionDigits: 2)
        }
        return signed(rounded, prefix: prefix, minimum: 2, maximum: 2, grouping: false) + units[unit].suffix
    }

    /// Sign (never for a value that rounded to zero), prefix, digits.
    private static func signed(
        _ decimal: DecimalDigits, prefix: String, minimum: Int, maximum: Int, grouping: Bool = true
    ) -> String {
        let digits = decimal.render(minimumFractionDigits: minimum, maximumFractionDigits: maximum, grouping: grouping)
        return (decimal.isNegative && !decimal.isZero ? "-" : "") + prefix + digits
    }
}
