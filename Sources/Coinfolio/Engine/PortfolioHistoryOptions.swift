import Foundation

/// What `PortfolioEngine.portfolioHistory` covers.
///
/// JSON form (every key optional): `{"portfolio":"main"}`.
public struct PortfolioHistoryOptions: Hashable, Sendable {
    /// The ledger portfolio whose holdings are valued (default `main`).
    public var portfolio: String

    /// Options for `portfolio`.
    public init(portfolio: String = "main") { self.portfolio = portfolio }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a `portfolio` that is not a string.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        var name = "main"
        if object["portfolio"] is NSNull { throw CoinfolioError.everyPortfolioRefused("portfolio_history") }
        if let value = object["portfolio"] {
            guard let text = value as? String, !text.isEmpty else { throw CoinfolioError.invalid("portfolio must be a non-empty string") }
            name = text
        }
        self.init(portfolio: name)
    }
}
