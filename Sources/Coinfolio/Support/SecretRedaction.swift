import Foundation

/// The one rule that keeps a secret — a CoinGecko API key (`KeyRedaction`), a database password
/// (`PostgresURL`) — out of every text Coinfolio shows: an error's message and string details,
/// an exception, CLI output. Each secret is looked for in the text folded to lower case, with each
/// `%XX` escape read as its character, and every run of at least `pieceLength` consecutive
/// characters of it becomes `mark`; a secret shorter than that is redacted where it appears
/// whole. So a secret echoed whole, cut short or at the front ("CG-abcdefgh..."), glued to other
/// text ("key=CG-abc…&x"), in another letter case or percent-encoded never survives.
enum SecretRedaction {
    /// The shortest piece of a secret that is redacted: no run of this many consecutive
    /// characters of it (ignoring letter case) survives.
    static let pieceLength = 6
    /// What a redacted piece becomes.
    static let mark = "[redacted]"

    /// `text` with every secret of `secrets` redacted (see the type). Only the first 4,096
    /// characters of `text` are kept (messages are short; this bounds the work on a hostile body).
    static func redacting(_ secrets: [String], in text: String) -> String {
        secrets.reduce(text) { text, secret in redacting(secret, in: text) }
    }

    /// `text` with every run of at least `pieceLength` consecutive characters of
    /// `key` (ignoring letter case, and reading `%XX` escapes as their characters) replaced by
    /// `mark` — the rule of `SecretRedaction` for one secret. Only the first 4,096
    /// characters of `text` are kept.
    static func redacting(_ key: String?, in text: String) -> String {
        guard let key, !key.isEmpty else { return text }
        func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            if scalar.value >= 0x41 && scalar.value <= 0x5A { return Unicode.Scalar(scalar.value + 0x20) ?? scalar }
            if scalar.isASCII { return scalar }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return lower.count == 1 ? lower.first ?? scalar : scalar
        }
        func hex(_ scalar: Unicode.Scalar) -> UInt32? {
            switch scalar.value {
            case 0x30...0x39: return scalar.value - 0x30
            case 0x41...0x46: return scalar.value - 0x41 + 10
            case 0x61...0x66: return scalar.value - 0x61 + 10
            default: return nil
            }
        }
        /// `scalars` as compared: folded, with each %XX of an ASCII byte read as that character;
        /// `origin[i]` is where compared character i starts in `scalars`, `origin[count]` the end.
        func compared(_ scalars: [Unicode.Scalar]) -> (folded: [Unicode.Scalar], origin: [Int]) {
            var folded: [Unicode.Scalar] = []
            var origin: [Int] = []
            folded.reserveCapacity(scalars.count)
            var position = 0
            while position < scalars.count {
                origin.append(position)
                if scalars[position] == "%", position + 2 < scalars.count, let high = hex(scalars[position + 1]),
                    let low = hex(scalars[position + 2]), high < 8, let decoded = Unicode.Scalar(high << 4 | low)
                {
                    folded.append(fold(decoded))
                    position += 3
                } else {
                    folded.append(fold(scalars[position]))
                    position += 1
                }
            }
            origin.append(scalars.count)
            return (folded, origin)
        }
        // The secret is compared in the same form: a password written with escapes ("Z%41b") matches
        // its text as libpq quotes it.
        let variant = compared(Array(key.unicodeScalars)).folded
        let scalars = Array(text.unicodeScalars.prefix(4096))
        let (folded, origin) = compared(scalars)
        let count = folded.count
        var covered = [Bool](repeating: false, count: scalars.count)
        let minimum = min(pieceLength, variant.count)
        if count >= minimum {
            for start in 0..<count {
                var longest = 0
                for offset in 0..<variant.count where variant[offset] == folded[start] {
                    var length = 1
                    while start + length < count, offset + length < variant.count, folded[start + length] == variant[offset + length] {
                        length += 1
                    }
                    longest = max(longest, length)
                }
                if longest >= minimum {
                    for index in origin[start]..<origin[start + longest] { covered[index] = true }
                }
            }
        }
        guard covered.contains(true) else {
            return scalars.count == text.unicodeScalars.count ? text : String(String.UnicodeScalarView(scalars))
        }
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if covered[index] {
                out.append(contentsOf: mark.unicodeScalars)
                while index < scalars.count, covered[index] { index += 1 }
            } else {
                out.append(scalars[index])
                index += 1
            }
        }
        return String(out)
    }
}

extension CoinfolioError {
    /// The error with every secret of `secrets` redacted from its message and every string
    /// detail, nested ones included (`SecretRedaction`).
    func redactingSecrets(_ secrets: [String]) -> CoinfolioError {
        let secrets = secrets.filter { !$0.isEmpty }
        guard !secrets.isEmpty else { return self }
        var copy = self
        copy.message = SecretRedaction.redacting(secrets, in: message)
        copy.details = details.mapValues { $0.mappingStrings { SecretRedaction.redacting(secrets, in: $0) } }
        return copy
    }
}
