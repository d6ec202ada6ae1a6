import Foundation

/// The ledger: portfolios, transactions, cost basis and P&L, CSV (SPEC §12).
extension PortfolioEngine {
    /// Stores a transaction after checking it (SPEC §12 and §16 rules) and that no running amount
    /// of its coin goes below zero. With `feeCoinID` and a fee above 0 the fee is in that coin: the
    /// transaction and its fee row (`LedgerGroup.rows`) are written as one group, the rule checked
    /// for both.
    /// - Parameter transaction: amounts in coin units; price and fee in the portfolio's currency
    ///   (a fee in units of `feeCoinID` when set). A buy, sell, fee or income without a price is
    ///   pending (SPEC §17).
    /// - Returns: the stored transaction with its `id` (and `groupID` when a fee row was written).
    /// - Throws: `.invalidArgument` (a bad field with `details.field`; a shortfall with details
    ///   `{coin_id, timestamp, short_by}`; a used external_id), `.notFound` for an unknown
    ///   portfolio (other than "main", created on first use), `.store`. Nothing is written on error.
    @discardableResult
    public func addTransaction(_ transaction: Transaction) throws -> Transaction {
        let stored: Transaction
        if transaction.feeCoinID != nil, !transaction.fee.isZero {
            // A fee in a coin: the transaction and its fee row, one group.
            try transaction.validate()
            let vs = try currency(ofPortfolio: transaction.portfolio)
            let rows = LedgerGroup.rows([transaction], prices: storedPrices, vsCurrency: vs).map {
                withPriceCurrency($0, portfolioCurrency: vs)
            }
            stored = try store.addTransactionGroup(rows).rows[0]
        } else if transaction.priceCurrency != nil {
            // A price in another currency (SPEC §17): converted from stored prices, else pending.
            try transaction.validate()
            let portfolioCurrency = try currency(ofPortfolio: transaction.portfolio)
            stored = try store.addTransaction(withPriceCurrency(transaction, portfolioCurrency: portfolioCurrency))
        } else {
            stored = try store.addTransaction(transaction)
        }
        ledgerChanged(stored.portfolio)
        return stored
    }

    /// `addTransaction` from the JSON a host sends (`{"portfolio","coin_id","kind","amount",
    /// "price","fee","timestamp","note","external_id"}`).
    /// - Throws: as `addTransaction`, and `.invalidArgument` for malformed JSON.
    @discardableResult
    public func addTransaction(json: String) throws -> Transaction {
        // Read, not checked here: `addTransaction(_:)` checks it first on every path.
        try addTransaction(TransactionInput.transaction(from: json))
    }

    /// Deletes a transaction unless that would leave a later sell or transfer out short.
    /// - Parameter id: the transaction's id as text (`"12"`).
    /// - Throws: `.invalidArgument` for an id that is not a whole number as ids are written
    ///   (digits without a sign or a leading 0: "+1", "01" and " 1" are refused alike) or a
    ///   shortfall (details `{coin_id, timestamp, short_by}`); `.notFound` for an unknown id; `.store`.
    public func deleteTransaction(id: String) throws {
        let digits = id.utf8.allSatisfy { (0x30...0x39).contains($0) } && id.utf8.first != 0x30
        guard digits, let number = Int64(id), number > 0 else {
            throw CoinfolioError(
                .invalidArgument, "transaction id must be a whole number above 0 in digits (\"12\"), not \"\(id.prefix(64))\"")
        }
        try store.deleteTransaction(id: number)
        ledgerChanged(nil)  // the row's group may span portfolios
    }

    /// A page of a portfolio's transactions in ledger order (timestamp, then insertion).
    /// - Throws: `.store`.
    public func transactions(_ query: TransactionQuery = TransactionQuery()) throws -> TransactionPage {
        let (transactions, total) = try store.transactions(query)
        return TransactionPage(transactions: transactions, total: total)
    }

    /// Cost basis and profit and loss of every coin the portfolio ever held, in its currency,
    /// against the snapshot's `current_price` (`/coins/markets`) when the portfolio's currency is
    /// the engine's `vs_currency` (otherwise current values are unknown). Works without a snapshot.
    /// - Throws: `.notFound` for an unknown portfolio (other than "main"); `.store`.
    public func pnl(_ options: PnLOptions = PnLOptions()) throws -> PnLReport {
        // One round trip: currency, ledger (unless cached and unchanged), manual prices, version check.
        let (current, view) = try ownerView(portfolio: options.portfolio)
        return try pnl(options, snapshot: current, view: view)
    }

    /// `pnl(_:)` from what was read: the current snapshot and the view of `options.portfolio`.
    func pnl(_ options: PnLOptions, snapshot: MarketSnapshot?, view: OwnerView) throws -> PnLReport {
        let inputs = try pnlInputs(options, snapshot: snapshot, view: view)
        var report = PnLReport.report(
            portfolio: options.portfolio, vsCurrency: inputs.vsCurrency, method: options.method, coinIDs: view.ledger.map(\.coinID),
            figures: inputs.figures, price: inputs.price)
        for index in report.coins.indices where report.coins[index].currentPrice != nil {
            report.coins[index].priceSource = inputs.positions?[index] != nil ? PriceSource.coingecko : .manual
        }
        return report
    }

    /// The totals of `pnl(options, snapshot:view:)` the statistics show (`PnLTotals`), in the
    /// portfolio's currency, without the report's other figures.
    func pnlTotals(_ options: PnLOptions, snapshot: MarketSnapshot?, view: OwnerView) throws -> (vsCurrency: String, totals: PnLTotals) {
        let inputs = try pnlInputs(options, snapshot: snapshot, view: view)
        return (inputs.vsCurrency, PnLTotals(figures: inputs.figures, price: inputs.price))
    }

    /// What a P&L of `options.portfolio` is computed from: the portfolio's currency, each coin's
    /// cost-basis figures (in `view.ledger` order), the coins' positions in the snapshot (nil
    /// unless the snapshot is in that currency) and the current price of coin i. The figures and
    /// positions are kept per ledger change and snapshot (`LedgerDerivations`).
    private func pnlInputs(_ options: PnLOptions, snapshot current: MarketSnapshot?, view: OwnerView) throws -> (
        vsCurrency: String, figures: [CostBasisFigures], positions: [Int?]?, price: (Int) -> PreciseDecimal?
    ) {
        let vs = try currency(ofPortfolio: options.portfolio, stored: view.currency)
        let ledger = view.ledger
        let snapshot = vs == configuration.vsCurrency.code ? current : nil
        let manual = view.manualPrices[vs] ?? [:]
        // A move into this portfolio needs the other portfolios' lots of that coin (SPEC §16).
        var others: [[HoldingsKey: [LedgerEntry]]] = []
        if ledger.contains(where: { $0.entries.contains { $0.kind == .transferIn && $0.group != 0 } }) {
            for portfolio in try store.portfolios() where !LedgerStore.same(portfolio.name, options.portfolio) {
                let coins = try store.coinLedgers(portfolio: portfolio.name)
                others.append(Dictionary(coins.map { (HoldingsKey($0.coinID), $0.entries) }, uniquingKeysWith: { first, _ in first }))
            }
        }
        let figures: [CostBasisFigures]
        if others.isEmpty {
            // Kept only when the portfolio alone decides them (the others are read apart from the counter).
            figures = derivations.figures(view, portfolio: options.portfolio, method: options.method) {
                PnLReport.figures(method: options.method, ledger: ledger, others: { _ in [] })
            }
        } else {
            figures = PnLReport.figures(
                method: options.method, ledger: ledger, others: { coinID in others.compactMap { $0[HoldingsKey(coinID)] } })
        }
        let positions = snapshot.map { derivations.positions(view, portfolio: options.portfolio, in: $0) }
        return (
            vs, figures, positions,
            { index in Self.currentPrice(in: snapshot, at: positions?[index] ?? nil, manual: manual[ledger[index].coinID]) }
        )
    }

    /// The current prices in `vsCurrency` the reports value holdings at: the snapshot's
    /// `current_price` (`/coins/markets`) when the snapshot is in `vsCurrency` and has the coin,
    /// else the owner's manual current price (SPEC §17: a coin the snapshot does not have, such as
    /// a token CoinGecko does not list); nil when neither is known.
    /// - Returns: the snapshot used (nil when none is in `vsCurrency`) and the lookup by coin id.
    /// - Throws: `.store`.
    func currentPrices(vsCurrency vs: String) throws -> (snapshot: MarketSnapshot?, price: (String) -> PreciseDecimal?) {
        let snapshot = vs == configuration.vsCurrency.code ? currentSnapshot() : nil
        return prices(snapshot: snapshot, manual: try store.manualCurrentPrices(vsCurrency: vs))
    }

    /// `currentPrices(vsCurrency:)` from what was read: `snapshot` (nil unless in the currency)
    /// and the owner's manual current prices in the currency.
    func prices(snapshot: MarketSnapshot?, manual: [String: ExactDecimal]) -> (
        snapshot: MarketSnapshot?, price: (String) -> PreciseDecimal?
    ) {
        (
            snapshot,
            { id in Self.currentPrice(in: snapshot, at: snapshot?.indexByID[id], manual: manual[id]) }
        )
    }

    /// The current price rule (SPEC §17): the snapshot's `current_price` (`/coins/markets`) of the
    /// coin at `position` when the snapshot (in the portfolio's currency) has it, else the owner's
    /// manual current price; nil when neither is known.
    static func currentPrice(in snapshot: MarketSnapshot?, at position: Int?, manual: ExactDecimal?) -> PreciseDecimal? {
        if let snapshot, let position { return snapshot.exactPrice(at: position) }
        return manual.map(PreciseDecimal.init)
    }

    /// The portfolio's quote currency ("main" always exists: the engine's unless created with another).
    func currency(ofPortfolio name: String) throws -> String {
        try currency(ofPortfolio: name, stored: store.portfolioCurrency(name))
    }

    /// `currency(ofPortfolio:)` from the portfolio's stored currency as read (`.some(nil)`: the
    /// engine's; nil: no such portfolio).
    func currency(ofPortfolio name: String, stored: String??) throws -> String {
        switch stored {
        case .some(.some(let code)): return code
        case .some(.none): return configuration.vsCurrency.code
        case .none:
            guard name == Transaction.defaultPortfolio else { throw LedgerStore.noPortfolio(name) }
            return configuration.vsCurrency.code
        }
    }

    /// Every portfolio by name, with its currency ("main" follows the engine's `vs_currency`
    /// unless it was created with its own).
    public func portfolios() throws -> [PortfolioInfo] {
        var list = try store.portfolios().map {
            PortfolioInfo(name: $0.name, vsCurrency: $0.vsCurrency ?? configuration.vsCurrency.code)
        }
        // "main" exists from the start for every owner, created in the database on first use.
        if !list.contains(where: { $0.name == Transaction.defaultPortfolio }) {
            list.append(PortfolioInfo(name: Transaction.defaultPortfolio, vsCurrency: configuration.vsCurrency.code))
            list.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
        return list
    }

    /// Creates a portfolio.
    /// - Parameters:
    ///   - name: 1…128 characters, no control characters or surrounding spaces.
    ///   - vsCurrency: its quote currency (nil: the engine's `vs_currency`); one CoinGecko prices
    ///     coins in, as `set_price` requires.
    /// - Throws: `.invalidArgument` for a bad name or currency (a currency CoinGecko does not
    ///   price in: `details.reason` "unknown_currency", field "vs_currency"), or a name taken.
    public func createPortfolio(name: String, vsCurrency: String? = nil) throws {
        let currency = try VsCurrency(vsCurrency ?? configuration.vsCurrency.code)
        if vsCurrency != nil { try currency.requireCoinGeckoQuote() }
        let code = currency.code
        try store.createPortfolio(name: name, vsCurrency: code)
        ledgerChanged(name)
    }

    /// Creates a portfolio from `{"name","vs_currency"}` (vs_currency optional).
    public func createPortfolio(json: String) throws {
        let empty = PortfolioInfo(name: "", vsCurrency: "")
        let info = try ConfigJSON.decode(PortfolioInfo.self, from: json, default: { empty })
        try createPortfolio(name: info.name, vsCurrency: info.vsCurrency.isEmpty ? nil : info.vsCurrency)
    }

    /// Renames a portfolio; its transactions follow.
    /// - Throws: `.notFound`; `.invalidArgument` for a bad or taken new name.
    public func renamePortfolio(_ name: String, to newName: String) throws {
        try store.renamePortfolio(name, to: newName)
        ledgerChanged(newName)
    }

    /// Deletes a portfolio; one with transactions only when `force` (they go with it, and the rest
    /// of each one's group in other portfolios — a move's other side — as SPEC §16 deletes groups).
    /// - Throws: `.notFound`; `.invalidArgument` when it has transactions and `force` is false, or
    ///   when a group's row elsewhere cannot go (a later disposal there would be short:
    ///   `{coin_id, timestamp, short_by}`; nothing is deleted).
    public func deletePortfolio(_ name: String, force: Bool = false) throws {
        try store.deletePortfolio(name, force: force)
        ledgerChanged(name)
    }

    /// Imports ledger CSV (SPEC §12) in one database transaction: every row or none. Reports
    /// progress (phase `import`, rows read) to the progress handler.
    /// - Parameter bytes: the file's bytes (UTF-8), read in 64 KiB chunks.
    /// - Returns: rows imported and rows skipped because their external_id is already there.
    /// - Throws: `.invalidArgument` with `details.line` (the physical line where the record
    ///   starts; the header is line 1) and `details.column` (the header name); `.store`.
    public func importCSV(_ bytes: UnsafeRawBufferPointer) throws -> ImportSummary {
        var reader = CSVReader(bytes: bytes)
        return try importCSV(&reader)
    }

    /// Imports ledger CSV from a file, streaming it 64 KiB at a time (a 50 MB file is never in
    /// memory at once). Same rules as `importCSV(_:)`.
    /// - Throws: `.invalidArgument` also when the file is missing, is a folder or cannot be read.
    public func importCSV(contentsOf url: URL) throws -> ImportSummary {
        let handle = try Self.openForImport(url)
        defer { try? handle.close() }
        var reader = CSVReader(fileHandle: handle, path: url.path)
        return try importCSV(&reader)
    }

    /// Reports phase "import": done 0 at the start, then the rows read every 1,000 rows, and at
    /// the end done = total = every row read (the total is not known before: the file streams).
    func importCSV(_ reader: inout CSVReader) throws -> ImportSummary {
        progress.report(.import, done: 0, total: nil)
        let result = try store.importCSV(
            &reader, newPortfolioCurrency: configuration.vsCurrency.code, prices: storedPrices(within:),
            progress: { rows, finished in self.progress.report(.import, done: rows, total: finished ? rows : nil) })
        if result.imported > 0 { ledgerChanged(nil) }  // a file may name several portfolios
        return ImportSummary(imported: result.imported, skipped: result.skipped)
    }

    /// The portfolio's transactions as CSV with the header
    /// `timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id` and SPEC §16's
    /// `fee_coin_id,fee_price,income_type,group_id` (then `price_currency,original_price` when a
    /// row has a price given in another currency), in ledger order;
    /// a transaction without an external_id is written as `coinfolio:<id>`, so importing the
    /// export into the same portfolio imports nothing.
    /// - Throws: `.notFound` for an unknown portfolio; `.store`.
    public func exportCSV(portfolio: String? = Transaction.defaultPortfolio) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.exportCSV(portfolio: portfolio) { bytes += $0 }
        return bytes
    }

    /// `exportCSV` written to a file handle 64 KiB at a time.
    public func exportCSV(portfolio: String? = Transaction.defaultPortfolio, to handle: FileHandle) throws {
        try store.exportCSV(portfolio: portfolio) { try handle.write(contentsOf: $0) }
    }

    /// Coins held in any portfolio (for refresh: held coins outside the top list are fetched too).
    func heldCoinIDs() throws -> [String] {
        var ids: Set<String> = []
        for portfolio in try store.portfolios() {
            for holding in try store.holdings(portfolio: portfolio.name) { ids.insert(holding.coinID) }
        }
        return ids.sorted()
    }
}
