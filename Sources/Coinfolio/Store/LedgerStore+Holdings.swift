import Foundation

/// Holdings: what each portfolio holds (the sum of its transactions), read whole and cached, and
/// set — one coin or a batch — by recording the transfers of the differences.
extension LedgerStore {
    /// The portfolio's coins (by id) with their entries in ledger order, read again only when the
    /// owner's ledger changed (`view(portfolio:)`). A row whose fee was paid in a coin carries its
    /// fee row's value (amount × price) as its fee, nil while that price is pending (SPEC §16).
    func ledger(portfolio: String) throws -> [CoinLedger] {
        try view(portfolio: portfolio).ledger
    }

    /// The portfolio's holdings: every coin whose transactions sum above zero, by coin id.
    func holdings(portfolio: String) throws -> [Holding] {
        Self.holdings(of: try ledger(portfolio: portfolio))
    }

    /// The holdings of a portfolio's ledger: every coin whose entries sum above zero, by coin id.
    static func holdings(of ledger: [CoinLedger]) -> [Holding] {
        ledger.compactMap { coin in heldAmount(coin.entries).map { Holding(coinID: coin.coinID, amount: $0) } }
    }

    /// The units one coin's entries hold when they sum above zero; nil otherwise (not held).
    static func heldAmount(_ entries: [LedgerEntry]) -> Double? {
        let held = Self.signedSum(entries)
        return held.isZero || held.isNegative ? nil : held.double
    }

    /// The amount a holding is set to as the ledger keeps it: `amount` > 0 as its shortest text,
    /// rounded half to even to 18 fraction digits (1.5e-18 → 2e-18), ≤ 0 as zero (the holding
    /// emptied). The one rule of `setHolding` and `setHoldings`.
    /// - Throws: `.invalidArgument` for NaN or ±Inf, and (`details.field` "amount") for an amount
    ///   below 1e-18 or above 8.5e19 units.
    static func target(forAmount amount: Double) throws -> ExactDecimal {
        guard amount.isFinite else { throw CoinfolioError.invalid("amount must be a finite number, not \(amount)") }
        guard amount > 0 else { return .zero }
        // The bounds as the header words them, on the double given: below 1e-18 is refused, never
        // rounded up to 1e-18 (9.9e-19 wrote a transfer of 1e-18); above 8.5e19 is refused.
        guard amount >= 1e-18, amount <= 8.5e19, let exact = ExactDecimal(amount), !exact.isZero else {
            throw CoinfolioError(
                .invalidArgument, "amount \(amount) is outside what the ledger keeps (1e-18 to 8.5e19 units)",
                details: [.field: .string("amount")])
        }
        return exact
    }

    /// Makes the portfolio hold `amount` of the coin by recording a transfer_in or transfer_out
    /// of the difference, now. ≤ 0 empties the holding.
    func setHolding(portfolio: String, coinID: String, amount: Double) throws {
        try Transaction.validatePortfolioName(portfolio)
        try CoinID.validateHeldAsListable(coinID)
        do {
            try CoinID.validateHolding(coinID)
        } catch let error as CoinfolioError where error.details[.suggestion] != nil && amount <= 0 {
            // A holding an older version stored under such an id can still be emptied.
            guard try holdings(portfolio: portfolio).contains(where: { $0.coinID.utf8.elementsEqual(coinID.utf8) }) else {
                throw error
            }
        }
        let target = try Self.target(forAmount: amount)
        try write { connection in
            try requirePortfolio(portfolio, connection)
            try recordDifferences(portfolio: portfolio, [(coinID, target)], connection)
        }
    }

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
                let target = try Self.target(forAmount: holding.amount)
                try CoinID.validateHolding(holding.coinID)
                guard seen.insert(HoldingsKey(holding.coinID)).inserted else {
                    throw CoinfolioError.invalid("coin id \"\(holding.coinID)\" appears twice")
                }
                targets.append((holding.coinID, target))
            } catch var error as CoinfolioError {
                error.message = "holdings[\(index)]: \(error.message)"
                error.details[.index] = .number(Double(index))
                error.details[.coinID] = .string(holding.coinID)
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
