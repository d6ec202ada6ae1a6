import Foundation

/// Several `setHolding`s in one durable transaction (`PortfolioStore.setHoldings`).
extension LedgerStore {
    /// Makes the portfolio hold each amount (≤ 0 empties the holding) by recording the
    /// transfers of the differences, all in one transaction: every entry is checked first, and
    /// any failure — a bad entry, a decrease that would leave a later sell short, the database —
    /// writes nothing.
    /// - Throws: `.invalidArgument` with `details["index"]` and `details["coin_id"]` for the
    ///   first bad entry; `.store`.
    func setHoldings(portfolio: String, _ holdings: [Holding]) throws {
        try Transaction.validatePortfolioName(portfolio)
        var targets: [(coinID: String, target: ExactDecimal)] = []
        targets.reserveCapacity(holdings.count)
        var seen = Set<HoldingsKey>()
        for (index, holding) in holdings.enumerated() {
            do {
                try CoinID.validateHeldAsListable(holding.coinID)
                try CoinID.validate(holding.coinID)
                guard holding.amount.isFinite else {
                    throw CoinfolioError.invalid("amount must be a finite number, not \(holding.amount)")
                }
                try CoinID.validateHolding(holding.coinID)
                guard seen.insert(HoldingsKey(holding.coinID)).inserted else {
                    throw CoinfolioError.invalid("coin id \"\(holding.coinID)\" appears twice")
                }
                var target = ExactDecimal.zero
                if holding.amount > 0 {
                    guard let exact = ExactDecimal(holding.amount), !exact.isZero else {
                        throw CoinfolioError(
                            .invalidArgument, "amount \(holding.amount) is outside what the ledger keeps (1e-18 to 8.5e19 units)",
                            details: ["field": .string("amount")])
                    }
                    target = exact
                }
                targets.append((holding.coinID, target))
            } catch var error as CoinfolioError {
                error.message = "holdings[\(index)]: \(error.message)"
                error.details["index"] = .number(Double(index))
                error.details["coin_id"] = .string(holding.coinID)
                throw error
            }
        }
        guard !targets.isEmpty else { return }
        try write { connection in
            try requirePortfolio(portfolio, connection)
            try recordDifferences(portfolio: portfolio, targets, connection)
        }
    }
}

/// A coin id compared and hashed by its UTF-8 bytes, as the database compares: Swift's `==` on
/// `String` would call NFC and NFD spellings of one id equal, and they are two holdings.
struct HoldingsKey: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: HoldingsKey, b: HoldingsKey) -> Bool {
        // Over contiguous UTF-8 (native strings need no copy): the generic UTF8View walk cost a
        // visible share of a 1,000-coin batch's lookups.
        var a = a.text
        var b = b.text
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }
    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
