import Foundation

/// The form in which search compares text (SPEC §10): Unicode-normalized (NFKC), case-folded and
/// diacritic-insensitive, so "pokemon", "POKÉMON" and a decomposed "poke\u{301}mon" all find
/// "Pokémon Token", and "strasse" finds "Straße". Both the coins' text and the query go through
/// the same `fold`, and matching is a substring test on the results' UTF-8 bytes.
enum SearchText {
    /// `text` folded: NFKC, then full case folding (upper-casing then lower-casing turns "ß" into
    /// "ss" and "ς" into "σ"), then canonical decomposition with every nonspacing mark (accents,
    /// diaeresis, the dot of "İ") removed. ASCII text is only lower-cased.
    static func fold(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        }
        let compatible = text.precomposedStringWithCompatibilityMapping
        let folded = compatible.uppercased().lowercased().decomposedStringWithCanonicalMapping
        var scalars = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return Array(String(scalars).precomposedStringWithCanonicalMapping.utf8)
    }
}
