import Foundation

/// The shortest piece of a key that is redacted: no run of this many consecutive characters of
/// the key (ignoring letter case) survives in an error, a detail, an exception or CLI output.
let keyPieceLength = 6

/// `text` with every run of at least 6 consecutive characters of `key` (ignoring letter case,
/// and reading `%XX` escapes as their characters) replaced by "[redacted]".
///
/// So a key echoed whole, cut short ("CG-abcdefgh..."), cut at the front, glued to other text
/// ("key=CG-abc…&x"), in another letter case or percent-encoded never survives. A key shorter
/// than 6 characters is redacted where it appears whole. Only the first 4,096 characters of
/// `text` are kept (error messages are short; this bounds the work on a hostile body).
func redacting(_ key: String?, in text: String) -> String {
    guard let key, !key.isEmpty else { return text }
    func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.value >= 0x41 && scalar.value <= 0x5A { return Unicode.Scalar(scalar.value + 0x20) ?? scalar }
        if scalar.isASCII { return scalar }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first ?? scalar : scalar
    }
    let variant = key.unicodeScalars.map(fold)
    let scalars = Array(text.unicodeScalars.prefix(4096))
    // The text as compared: folded, with each %XX of an ASCII byte read as that character;
    // `origin[i]` is where decoded character i starts in `scalars`, `origin[count]` the end.
    var folded: [Unicode.Scalar] = []
    var origin: [Int] = []
    folded.reserveCapacity(scalars.count)
    var position = 0
    func hex(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46: return scalar.value - 0x41 + 10
        case 0x61...0x66: return scalar.value - 0x61 + 10
        default: return nil
        }
    }
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
    let count = folded.count
    var covered = [Bool](repeating: false, count: scalars.count)
    let minimum = min(keyPieceLength, variant.count)
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
            out.append(contentsOf: "[redacted]".unicodeScalars)
            while index < scalars.count, covered[index] { index += 1 }
        } else {
            out.append(scalars[index])
            index += 1
        }
    }
    return String(out)
}

extension CoinfolioError {
    /// The error with `key` redacted from its message and every string detail, nested ones included.
    func withKeyRedacted(_ key: String?) -> CoinfolioError {
        guard let key, !key.isEmpty else { return self }
        var copy = self
        copy.message = redacting(key, in: message)
        copy.details = details.mapValues { $0.mappingStrings { redacting(key, in: $0) } }
        return copy
    }
}

/// Runs `body`, removing `key` (see `redacting(_:in:)`) from the message and details of any
/// `CoinfolioError` it throws.
func redactingKey<T>(_ key: String?, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as CoinfolioError {
        throw error.withKeyRedacted(key)
    }
}
