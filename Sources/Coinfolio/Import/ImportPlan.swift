/// Turns imported entries into the ledger rows they write (SPEC §16, §18), once every symbol is
/// resolved. One entry writes one group:
/// - an exchange of money for a coin is a `buy` (price = money ÷ units), of a coin for money a
///   `sell`, of two coins a trade (a `sell` and a `buy`, valued at the entry's value, else as
///   `Trade` prices it from stored prices, else pending); money for money writes nothing;
/// - income of a coin is `income` (price = value ÷ units, else pending); of money nothing;
/// - a transfer of a coin is `transfer_in`/`transfer_out`; of money nothing (a fiat deposit);
/// - a spend is a `sell` whose price is pending.
/// Fees in the portfolio's money are the row's fee (in a trade, the buy leg's); the first fee in
/// a coin is the row's `fee_coin_id` (its fee row follows, §16), further ones fee rows of their
/// own. Prices taken from the file have `price_source` `user`. A price (or a trade's value) in
/// another currency CoinGecko prices in is given as it is with that `price_currency`, its money
/// fees in the same currency with it: the engine converts it as every transaction is (SPEC §17,
/// `PortfolioEngine.withPriceCurrency`), else it is pending. A price in a currency CoinGecko does
/// not price in is pending (filled from the coin's own price) and named in a warning. A pending
/// row's fee in another currency gives the row that `price_currency` (converted when it is
/// filled); a fee in a currency other than the row's price's is left out, named in a warning.
struct ImportPlan {
    /// The portfolio written to.
    let portfolio: String
    /// Its currency (lower-case).
    let currency: String
    /// Every symbol of the entries, resolved.
    let resolutions: [String: SymbolResolver.Resolution]
    /// Stored prices, for trades without a value and fee rows (never fetched): the engine's
    /// through the import's own write (`PortfolioEngine.storedPrices(within:)`).
    var prices: StoredPrices
    /// Whether every symbol of the file is resolved (then no entry is looked at for one that is not).
    var allResolved = false
    /// The last four symbols looked up in `resolutions` and their answers, newest last, compared
    /// first (`==`, as the dictionary compares): an entry's two or three lookups each hashed the
    /// symbol (a Binance trade names three symbols in turn, which two kept answers always missed).
    var recent: [(symbol: String, resolution: SymbolResolver.Resolution?)] = []

    /// What one entry becomes: its rows, or why it writes nothing.
    enum Outcome {
        /// The group's rows, in ledger order (fee rows after their parents), and a warning about
        /// what the rows could not say (a fee in another currency).
        case rows([Transaction], warning: String?)
        /// Nothing, for this reason (an `ignored` notice).
        case ignored(String)
        /// Nothing: a symbol of the entry is unresolved (a dry run lists it).
        case unresolved
    }

    /// The rows `entry` writes.
    /// - Throws: `.invalidArgument` at the entry's line: a rule of the ledger the rows break
    ///   (`details.column` the field's column when there is one), a price beyond the ledger's range.
    mutating func outcome(_ entry: ImportedEntry) throws -> Outcome {
        do { return try plan(entry) } catch let error as CoinfolioError {
            guard error.details[.line] == nil else { throw error }
            var details = error.details
            details[.field] = nil
            throw LedgerCSVRows.error(line: entry.line, column: nil, error.message, details)
        }
    }

    /// `resolutions[symbol]`, through the four kept last answers.
    private mutating func resolution(_ symbol: String) -> SymbolResolver.Resolution? {
        // Compared where they lie, newest first (a `for` over `reversed()` copied each kept pair).
        var index = recent.count
        while index > 0 {
            index -= 1
            if recent[index].symbol == symbol { return recent[index].resolution }
        }
        let found = resolutions[symbol]
        if recent.count == 4 { recent.removeFirst() }
        recent.append((symbol, found))
        return found
    }

    private mutating func plan(_ entry: ImportedEntry) throws -> Outcome {
        if !allResolved {
            var missing = false
            entry.forEachSymbol { if resolution($0) == nil { missing = true } }
            if missing { return .unresolved }
        }
        func resolved(_ asset: ImportedEntry.Asset) -> SymbolResolver.Resolution {
            resolution(asset.symbol) ?? .money(asset.symbol.lowercased())
        }
        // A file's empty note is no note (null), as a transaction sent without one.
        let note = entry.note.isEmpty ? nil : entry.note
        func row(_ kind: TransactionKind, _ coinID: String, _ amount: ExactDecimal) -> Transaction {
            Transaction(
                portfolio: portfolio, coinID: coinID, kind: kind, amount: amount, timestamp: entry.timestamp, note: note,
                externalID: entry.externalID)
        }
        var parents: [Transaction]
        var warning: String?
        switch entry.action {
        case .exchange(let sent, let received, let value):
            switch (resolved(sent), resolved(received)) {
            case (.money(let code), .coin(let id)):
                guard !received.amount.isZero else { return .ignored("a buy of 0 \(received.symbol)") }
                // Priced in place in the array (not priced in a local, then copied in).
                parents = [row(.buy, id, received.amount)]
                warning = try price(&parents[0], worth: sent.amount, currency: code)
            case (.coin(let id), .money(let code)):
                guard !sent.amount.isZero else { return .ignored("a sell of 0 \(sent.symbol)") }
                parents = [row(.sell, id, sent.amount)]
                warning = try price(&parents[0], worth: received.amount, currency: code)
            case (.coin(let from), .coin(let to)):
                guard from != to else { return .ignored("a trade of \(sent.symbol) for itself") }
                guard !sent.amount.isZero, !received.amount.isZero else {
                    return .ignored("a trade of \(sent.amount) \(sent.symbol) for \(received.amount) \(received.symbol)")
                }
                // The value, when the file gives one in money, prices the legs: in another currency
                // each leg carries it as its price_currency, converted with its own coin's prices.
                var worth: (amount: ExactDecimal, code: String)?
                if let value, case .money(let code) = resolved(value), code == currency || Self.isQuote(code) {
                    worth = (value.amount, code)
                }
                let trade = Trade(
                    portfolio: portfolio, timestamp: entry.timestamp, sent: Trade.Side(coinID: from, amount: sent.amount),
                    received: Trade.Side(coinID: to, amount: received.amount), value: worth?.amount, note: note,
                    externalID: entry.externalID)
                parents = try trade.legs(prices: worth == nil ? prices : .none, vsCurrency: currency)
                if let worth, worth.code != currency {
                    for index in parents.indices { parents[index].priceCurrency = worth.code }
                }
            case (.money(let from), .money(let to)):
                return .ignored("an exchange of money (\(from.uppercased()) for \(to.uppercased())), not of coins")
            }
        case .income(let asset, let type, let value):
            guard case .coin(let id) = resolved(asset) else { return .ignored("income in \(asset.symbol) is money, not a coin") }
            guard !asset.amount.isZero else { return .ignored("income of 0 \(asset.symbol)") }
            parents = [row(.income, id, asset.amount)]
            parents[0].incomeType = type
            if let value, case .money(let code) = resolved(value) {
                warning = try price(&parents[0], worth: value.amount, currency: code)
            }
        case .transferIn(let asset), .transferOut(let asset):
            let incoming: Bool
            if case .transferIn = entry.action { incoming = true } else { incoming = false }
            guard case .coin(let id) = resolved(asset) else {
                return .ignored("\(incoming ? "a deposit" : "a withdrawal") of \(asset.symbol) is money, not a coin")
            }
            parents = [row(incoming ? .transferIn : .transferOut, id, asset.amount)]
        case .spend(let asset):
            guard case .coin(let id) = resolved(asset) else { return .ignored("a spend of \(asset.symbol) is money, not a coin") }
            parents = [row(.sell, id, asset.amount)]
        }
        // The fees: money on the last parent (a trade's buy leg), the first coin as its fee coin,
        // further coins as fee rows of their own.
        let last = parents.count - 1
        var extraFeeRows: [Transaction] = []
        for fee in entry.fees {
            switch resolved(fee) {
            case .money(let code):
                // Money fees are in the currency of the row's price: the portfolio's, or its
                // price_currency (converted together, §17), which a pending row takes from its fee.
                // The parent changed in place (a copy of the row and its write back were a
                // tenth of the planning); a changed price currency always passes the guard.
                if code != currency, parents[last].priceCurrency == nil, parents[last].kind.hasPrice, parents[last].price == nil,
                    parents[last].fee.isZero, Self.isQuote(code)
                {
                    parents[last].priceCurrency = code
                }
                guard code == parents[last].priceCurrency ?? currency else {
                    warning =
                        "the fee of \(fee.amount) \(code.uppercased()) is in another currency than the row's price (\((parents[last].priceCurrency ?? currency).uppercased())); it is left out"
                    continue
                }
                guard let sum = parents[last].fee.adding(fee.amount) else {
                    throw CoinfolioError(
                        .invalidArgument, "the fees add up beyond the ledger's 8.5e19", reason: .outOfRange)
                }
                parents[last].fee = sum
            case .coin(let id) where parents[last].feeCoinID == nil:
                parents[last].feeCoinID = id
                parents[last].fee = fee.amount
            case .coin(let id):
                var row = row(.fee, id, fee.amount)
                if let point = prices.price(of: id, in: currency, at: entry.timestamp) {
                    (row.price, row.priceSource, row.priceAt) = (point.price, point.source, point.at)
                }
                extraFeeRows.append(row)
            }
        }
        return .rows(
            LedgerGroup.rows(extraFeeRows.isEmpty ? parents : parents + extraFeeRows, prices: prices, vsCurrency: currency),
            warning: warning)
    }

    /// Prices `row` at `worth` for all its units in `code`: worth ÷ amount, from the user; in
    /// another currency than the portfolio's, as its `price_currency` (§17 converts it). Nil, or
    /// the warning when `code` is a currency CoinGecko does not price in (the row is then pending).
    private func price(_ row: inout Transaction, worth: ExactDecimal, currency code: String) throws -> String? {
        guard code == currency || Self.isQuote(code) else {
            (row.price, row.priceSource, row.priceAt) = (nil, .pending, nil)
            return "the price in \(code.uppercased()) cannot be converted (CoinGecko prices in no such currency); it is pending"
        }
        (row.price, row.priceSource, row.priceAt) = (try Trade.price(worth, by: row.amount), .user, nil)
        if code != currency { row.priceCurrency = code }
        return nil
    }

    /// Whether a price in `code` can be converted: CoinGecko prices coins in it (§17).
    private static func isQuote(_ code: String) -> Bool { CurrencyTable.coinGeckoCodes.contains(code) }
}
