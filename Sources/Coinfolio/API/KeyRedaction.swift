import Foundation

/// `text` with the key, and any word that is a piece of it, replaced by "[redacted]".
///
/// A word is a run of letters, digits, `-`, `_`, `.` and `%`; it is a piece of the key when,
/// percent-decoded and ignoring case, it is at least 6 characters long and the key contains it
/// (or it contains the key). So a key echoed whole, cut short, cut at the front, or
/// percent-encoded never survives.
func redacting(_ key: String?, in text: String) -> String {
    guard let key, !key.isEmpty else { return text }
    let lowerKey = key.lowercased()
    var out = ""
    var word = ""
    func flush() {
        let decoded = (word.removingPercentEncoding ?? word).lowercased()
        let isPiece = decoded.count >= min(6, lowerKey.count) && (lowerKey.contains(decoded) || decoded.contains(lowerKey))
        out += isPiece && !word.isEmpty ? "[redacted]" : word
        word = ""
    }
    for character in text {
        if character.isLetter || character.isNumber || "-_.%".contains(character) {
            word.append(character)
        } else {
            flush()
            out.append(character)
        }
    }
    flush()
    return out
}

/// Runs `body`, removing `key` (see `redacting(_:in:)`) from the message of any
/// `CoinfolioError` it throws.
func redactingKey<T>(_ key: String?, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch var error as CoinfolioError {
        error.message = redacting(key, in: error.message)
        throw error
    }
}
