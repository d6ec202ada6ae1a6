/// Trades, moves, and transactions with fees in a coin (SPEC §16): rows written together as one
/// group, in one database transaction, the never-negative rule checked for the whole group.
extension PortfolioEngine {
    /// Writes a trade: a `sell` of the sent coin, a `buy` of the received coin and, with a fee
    /// in a coin, its fee row, as one group (prices as `Trade` says; a fee goes to the received
    /// lot's cost).
    /// - Returns: the group's id and its stored rows.
    /// - Throws: `.invalidArgument` (a bad field, `details.field`; a price beyond the ledger's
    ///   range, `details.reason` `out_of_range`; a shortfall `{coin_id, timestamp, short_by}`; a
    ///   used external_id), `.notFound` (a portfolio other than "main" that does not exist),
    ///   `.store`. Nothing is written on error. Never sends a request.
    @discardableResult
    public func addTrade(_ trade: Trade) throws -> TransactionGroup {
        // With a value, the checked legs are the legs (priced by the value alone).
        let checked = try trade.validatedLegs()
        // The portfolio's currency and stored prices are read in the write itself (one read of the portfolio).
        let written = try store.addTransactionGroup(in: trade.portfolio) { stored, connection in
            let vs = try currency(ofPortfolio: trade.portfolio, stored: stored)
            let prices = storedPrices(within: connection)
            let legs = trade.value == nil ? try trade.legs(prices: prices, vsCurrency: vs) : checked
            return LedgerGroup.rows(legs, prices: prices, vsCurrency: vs)
        }
        ledgerChanged(trade.portfolio)
        return TransactionGroup(groupID: written.groupID, transactions: written.rows)
    }

    /// `addTrade` from the JSON a host sends (`{"portfolio","timestamp","sent":{"coin_id",
    /// "amount"},"received":{"coin_id","amount"},"value","fee","fee_coin_id","fee_price","note",
    /// "external_id"}`). - Throws: as `addTrade`, and `.invalidArgument` for malformed JSON.
    @discardableResult
    public func addTrade(json: String) throws -> TransactionGroup {
        try addTrade(Trade(parsing: json))
    }

    /// Moves a coin between two of the owner's portfolios: a `transfer_out` in `from` and a
    /// `transfer_in` in `to`, one group; the transfer in receives the lots the transfer out
    /// removed (cost basis conserved, nothing realized).
    /// - Throws: `.invalidArgument` (a bad field, `details.field`; portfolios of different
    ///   currencies, `details.reason` `currency`; a shortfall in `from`), `.notFound` (an unknown
    ///   portfolio), `.store`. Nothing is written on error. Never sends a request.
    @discardableResult
    public func move(_ move: Move) throws -> TransactionGroup {
        try move.validate()
        let fromCurrency = try currency(ofPortfolio: move.from)
        let toCurrency = try currency(ofPortfolio: move.to)
        guard fromCurrency == toCurrency else {
            throw CoinfolioError(
                .invalidArgument,
                "a move keeps its lots' cost: \"\(move.from)\" is in \(fromCurrency) and \"\(move.to)\" in \(toCurrency); record a sell and a buy instead",
                reason: .currency,
                details: [.field: .string("to"), .fromCurrency: .string(fromCurrency), .toCurrency: .string(toCurrency)])
        }
        let written = try store.addTransactionGroup(move.legs)
        ledgerChanged(nil)  // two portfolios
        return TransactionGroup(groupID: written.groupID, transactions: written.rows)
    }

    /// `move` from the JSON a host sends (`{"from","to","coin_id","amount","received_amount",
    /// "timestamp","note","external_id"}`). - Throws: as `move`, and `.invalidArgument` for
    /// malformed JSON.
    @discardableResult
    public func move(json: String) throws -> TransactionGroup {
        try move(Move(parsing: json))
    }
}
