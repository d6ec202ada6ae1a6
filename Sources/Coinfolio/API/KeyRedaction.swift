import Foundation

/// The API key stays out of every error (`SecretRedaction`'s rule: no run of 6 characters of it,
/// any letter case, percent-encoded or not, survives in a message, a detail, an exception or CLI
/// output).
/// `text` with `key` redacted (`SecretRedaction.redacting(_:in:)`): CoinGecko's own messages
/// are quoted through this.
func redacting(_ key: String?, in text: String) -> String {
    SecretRedaction.redacting(key, in: text)
}

extension CoinfolioError {
    /// The error with `key` redacted from its message and every string detail.
    func withKeyRedacted(_ key: String?) -> CoinfolioError {
        guard let key else { return self }
        return redactingSecrets([key])
    }
}

/// Runs `body`, removing `key` (see `SecretRedaction`) from the message and details of any
/// `CoinfolioError` it throws.
func redactingKey<T>(_ key: String?, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as CoinfolioError {
        throw error.withKeyRedacted(key)
    }
}
