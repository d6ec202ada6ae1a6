import Foundation

/// The rule every CoinGecko coin id obeys here: 1–128 bytes of UTF-8, no control characters, no
/// `/`, and not `.` or `..`. Real ids carry spaces, brackets and underscores (`1move token`,
/// `boringdao-[old]`, `hive_dollar`), so nothing else is forbidden; an id reaches a URL only
/// percent-encoded as one path segment.
public enum CoinID {
    /// The longest id accepted, in UTF-8 bytes.
    public static let maximumLength = 128

    /// - Throws: `CoinfolioError` `.invalidArgument` naming the broken part of the rule.
    public static func validate(_ id: String) throws {
        let bytes = id.utf8
        guard !bytes.isEmpty else { throw CoinfolioError.invalid("coin id is empty") }
        guard bytes.count <= maximumLength else {
            throw CoinfolioError.invalid("coin id is longer than \(maximumLength) bytes")
        }
        guard id != ".", id != ".." else { throw CoinfolioError.invalid("coin id may not be \".\" or \"..\"") }
        for scalar in id.unicodeScalars {
            if scalar == "/" { throw CoinfolioError.invalid("coin id may not contain \"/\"") }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                throw CoinfolioError.invalid("coin id may not contain control characters")
            }
        }
    }

    /// The stricter rule for the id of a holding (SPEC §10): the `validate(_:)` rule, and no
    /// upper-case letter and no surrounding white space — no real CoinGecko id has either (none
    /// of 17,185), so such an id could never be priced.
    /// - Throws: `CoinfolioError` `.invalidArgument`; for upper case or surrounding spaces,
    ///   `details["suggestion"]` holds the id lower-cased and trimmed (`"Bitcoin"` → `"bitcoin"`).
    public static func validateHolding(_ id: String) throws {
        try validate(id)
        if let suggestion = holdingSuggestion(id) {
            var error = CoinfolioError.invalid(
                "coin id \"\(id)\" has upper-case letters or surrounding spaces, which no CoinGecko id has; did you mean \"\(suggestion)\"?"
            )
            error.details[.suggestion] = .string(suggestion)
            throw error
        }
    }

    /// The corrected id when `id` has upper-case letters or surrounding white space; nil when
    /// it has neither.
    static func holdingSuggestion(_ id: String) -> String? {
        // Nearly every id is lower-case ASCII without surrounding spaces: answered without
        // Foundation (which costs more than the SQLite write of a batch entry).
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        let bytes = id.utf8
        if let first = bytes.first, let last = bytes.last, !isSpace(first), !isSpace(last),
            bytes.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) })
        {
            return nil
        }
        let corrected = id.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return corrected.unicodeScalars.elementsEqual(id.unicodeScalars) ? nil : corrected
    }

    /// Whether `id` passes `validate(_:)`.
    public static func isValid(_ id: String) -> Bool { (try? validate(id)) != nil }

    /// `id` percent-encoded as one URL path segment or query value (`RequestURL.percentEncoded`):
    /// every byte outside RFC 3986's unreserved set (`A–Z a–z 0–9 - . _ ~`) becomes `%XX`, so
    /// `bitcoin?x=1`, `%2e%2e` and spaces can never change the request's route.
    static func percentEncoded(_ id: String) -> String {
        RequestURL.percentEncoded(id)
    }
}
