/// Why number text with a comma is refused, and what to write instead. The ledger's numbers (the
/// CSV's amount, price and fee) have a point as the decimal mark and no thousands separator
/// (SPEC §12): a spreadsheet's `"11,426.20"` and a European `1,5` are both refused, each saying
/// what it is.
enum DecimalComma {
    /// What a comma in a number is taken to be.
    enum Reading: Equatable {
        /// `11,426.20`, `1,234,567`: commas between groups of three digits before a point, or
        /// more than one such comma. `plain` is the number without them (`11426.20`).
        case thousandsSeparator(plain: String)
        /// `1,5`, `1.234,56`: the comma is the decimal mark. `plain` is the number as written here
        /// (`1.5`, `1234.56`).
        case decimalComma(plain: String)
        /// `1,234`: one comma before three digits, no point: either 1234 or 1.234.
        case ambiguous(asThousands: String, asDecimal: String)
    }

    /// How `text` reads, or nil when it has no comma or is not a number with commas at all.
    static func reading(_ text: String) -> Reading? {
        guard text.contains(",") else { return nil }
        let sign = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.prefix(1)) : ""
        let body = text.dropFirst(sign.count)
        if body.wholeMatch(of: #/[0-9]{1,3}(,[0-9]{3})+\.[0-9]+/#) != nil || body.wholeMatch(of: #/[0-9]{1,3}(,[0-9]{3}){2,}/#) != nil {
            return .thousandsSeparator(plain: sign + body.replacingOccurrences(of: ",", with: ""))
        }
        if body.wholeMatch(of: #/[0-9]{1,3},[0-9]{3}/#) != nil {
            return .ambiguous(
                asThousands: sign + body.replacingOccurrences(of: ",", with: ""),
                asDecimal: sign + body.replacingOccurrences(of: ",", with: "."))
        }
        if body.wholeMatch(of: #/[0-9]*,[0-9]+/#) != nil || body.wholeMatch(of: #/[0-9]{1,3}(\.[0-9]{3})+,[0-9]+/#) != nil {
            let plain = body.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
            return .decimalComma(plain: sign + plain)
        }
        return nil
    }

    /// The refusal of `text` for a person, with `details.reason`: `"thousands_separator"`,
    /// `"decimal_comma"` or `"ambiguous_comma"`; nil when `reading(text)` is nil.
    static func refusal(_ text: String) -> (reason: CoinfolioError.Reason, message: String)? {
        switch reading(text) {
        case .thousandsSeparator(let plain)?:
            return (.thousandsSeparator, "\"\(text)\" has a thousands separator: write numbers without one (\(plain))")
        case .decimalComma(let plain)?:
            return (.decimalComma, "\"\(text)\" has a decimal comma: the decimal mark is a point (\(plain))")
        case .ambiguous(let asThousands, let asDecimal)?:
            return (
                .ambiguousComma,
                "\"\(text)\" has a comma: write \(asThousands) if it separates thousands, or \(asDecimal) if it is a decimal comma"
            )
        case nil:
            return nil
        }
    }
}
