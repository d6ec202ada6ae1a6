extension CoinID {
    /// The rule a held coin's id adds (SPEC §11): no comma. `/simple/price` and `ids=` join the
    /// held ids with commas, and no real CoinGecko id has one, so such an id could never be priced.
    /// - Throws: `.invalidArgument` for an id with a comma (`details["reason"]` = `"comma"`).
    static func validateHeldAsListable(_ id: String) throws {
        guard !id.utf8.contains(UInt8(ascii: ",")) else {
            throw CoinfolioError(
                .invalidArgument,
                "coin id \"\(id)\" has a comma, which no CoinGecko id has (held ids are sent comma-joined)",
                reason: .comma)
        }
    }
}
