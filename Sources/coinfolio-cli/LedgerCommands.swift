// coinfolio-cli's ledger commands: buy, sell, transactions, pnl, import, export (SPEC §12).
import Coinfolio
import Foundation

/// `buy COIN AMOUNT --price P [--fee F] [--at TIME] [--note TEXT]` and `sell …`.
func runTrade(_ kind: TransactionKind) throws {
    expectOperands(2...2, "COIN AMOUNT --price P [--fee F] [--at TIME]")
    let coinID = options.operands[0]
    guard let amount = ExactDecimal(options.operands[1]), !amount.isNegative, !amount.isZero else {
        fail("amount must be a decimal number above 0 (a point, not a comma), not \"\(options.operands[1])\"", code: 2)
    }
    guard let priceText = options.price else { fail("\(kind.rawValue) needs --price (per unit, in the portfolio's currency)", code: 2) }
    guard let price = ExactDecimal(priceText) else { fail("--price must be a decimal number, not \"\(priceText)\"", code: 2) }
    var fee = ExactDecimal.zero
    if let feeText = options.fee {
        guard let value = ExactDecimal(feeText) else { fail("--fee must be a decimal number, not \"\(feeText)\"", code: 2) }
        fee = value
    }
    var timestamp = LedgerTimestamp.now()
    if let at = options.at {
        guard let value = LedgerTimestamp.parse(at) else {
            fail("--at must be an RFC 3339 time such as 2024-03-01T12:30:00Z or 2024-03-01, not \"\(at)\"", code: 2)
        }
        timestamp = value
    }
    let engine = try openEngine()
    let stored: Transaction
    do {
        stored = try engine.addTransaction(
            Transaction(
                portfolio: options.portfolio, coinID: coinID, kind: kind, amount: amount, price: price, fee: fee,
                timestamp: timestamp, note: options.note ?? ""))
    } catch let error as CoinfolioError where error.details["short_by"] != nil {
        var held = ""
        if case .number(let short)? = error.details["short_by"] { held = " (short by \(ExactDecimal(short) ?? .zero))" }
        fail("cannot sell more \(coinID) than the portfolio holds at that time\(held)", code: 1)
    }
    if options.json { say(stored.json); return }
    let vs = try portfolioCurrency(engine)
    let verb = kind == .buy ? "bought" : "sold"
    say("\(verb) \(amount) \(coinID) at \(NumberFormat.price(price.double, vsCurrency: vs)) (transaction \(stored.id ?? 0))")
}

/// The quote currency of `--portfolio`.
func portfolioCurrency(_ engine: PortfolioEngine) throws -> VsCurrency {
    let code = try engine.portfolios().first { $0.name == options.portfolio }?.vsCurrency ?? options.vsCurrency
    return (try? VsCurrency(code)) ?? .usd
}

/// `transactions [COIN]`.
func runTransactions() throws {
    expectOperands(0...1, "[COIN]")
    let engine = try openEngine()
    let page = try engine.transactions(TransactionQuery(portfolio: options.portfolio, coinID: options.operands.first))
    if options.json { say(page.json); return }
    if page.transactions.isEmpty {
        say("no transactions yet: coinfolio-cli buy COIN AMOUNT --price P (for example: buy bitcoin 0.5 --price 60000)")
        return
    }
    let vs = try portfolioCurrency(engine)
    let rows = page.transactions.map { t -> [String] in
        [
            String(t.id ?? 0), LedgerTimestamp.format(t.timestamp), t.kind.rawValue, Terminal.printable(t.coinID), t.amount.description,
            t.price.map { NumberFormat.price($0.double, vsCurrency: vs) } ?? "-",
            t.fee.isZero ? "-" : NumberFormat.price(t.fee.double, vsCurrency: vs), Terminal.printable(t.note),
        ]
    }
    say(Terminal.table(["ID", "TIME", "KIND", "COIN", "AMOUNT", "PRICE", "FEE", "NOTE"], rows, right: [0, 4, 5, 6]))
    say(terminal.dim("\(page.total) transaction\(page.total == 1 ? "" : "s") in \(options.portfolio)"))
}

/// `pnl [--method fifo|lifo|average]`: P&L columns green when positive, red when negative.
func runProfitAndLoss() throws {
    expectOperands(0...0, "")
    let engine = try openEngine()
    refreshOrExplain(engine)
    let report = try engine.pnl(PnLOptions(portfolio: options.portfolio, method: CostBasisMethod(rawValue: options.method) ?? .fifo))
    if options.json { say(report.json); return }
    if report.coins.isEmpty {
        say("no transactions yet: coinfolio-cli buy COIN AMOUNT --price P")
        return
    }
    let vs = (try? VsCurrency(report.vsCurrency)) ?? .usd
    func money(_ value: ExactDecimal?) -> String {
        value.map { NumberFormat.currency($0.double, vsCurrency: vs) } ?? NumberFormat.notAvailable
    }
    let rows = report.coins.map { coin -> [String] in
        [
            Terminal.printable(coin.coinID), coin.amount.description, money(coin.costBasis),
            coin.averageCost.map { NumberFormat.price($0.double, vsCurrency: vs) } ?? NumberFormat.notAvailable,
            money(coin.currentValue), terminal.signed(money(coin.unrealizedPnL), coin.unrealizedPnL),
            coin.unrealizedPnLPercentage.map { terminal.change($0) } ?? "", terminal.signed(money(coin.realizedPnL), coin.realizedPnL),
            coin.costBasisCoverage < 1 ? NumberFormat.percent(coin.costBasisCoverage * 100) : "",
        ]
    }
    say(
        Terminal.table(
            ["COIN", "AMOUNT", "COST BASIS", "AVG COST", "VALUE", "UNREALIZED", "%", "REALIZED", "KNOWN COST"], rows,
            right: [1, 2, 3, 4, 5, 6, 7, 8]))
    say(
        "\(terminal.bold("Unrealized")): \(terminal.signed(money(report.totalUnrealizedPnL), report.totalUnrealizedPnL))  "
            + "\(terminal.bold("Realized")): \(terminal.signed(money(report.totalRealizedPnL), report.totalRealizedPnL))  "
            + "\(terminal.bold("Fees")): \(money(report.totalFees))  \(terminal.dim("(\(report.method.rawValue), \(report.portfolio))"))")
}

/// `import FILE.csv`, streamed from the file.
func runImport() throws {
    expectOperands(1...1, "FILE.csv")
    let engine = try openEngine()
    let summary: ImportSummary
    do {
        summary = try engine.importCSV(contentsOf: URL(fileURLWithPath: options.operands[0]))
    } catch let error as CoinfolioError where error.code == .invalidArgument {
        fail("\(options.operands[0]): \(error.message) (nothing was imported)", code: 1)
    }
    if options.json { say(summary.json); return }
    say("imported \(summary.imported) transaction\(summary.imported == 1 ? "" : "s")"
        + (summary.skipped > 0 ? ", skipped \(summary.skipped) already there" : ""))
}

/// `export [FILE.csv]`: to the file, or to standard output.
func runExport() throws {
    expectOperands(0...1, "[FILE.csv]")
    let engine = try openEngine()
    guard let path = options.operands.first else {
        try engine.exportCSV(portfolio: options.portfolio, to: FileHandle.standardOutput)
        return
    }
    let url = URL(fileURLWithPath: path)
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else { fail("cannot write \(path)", code: 1) }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try engine.exportCSV(portfolio: options.portfolio, to: handle)
    try handle.synchronize()
}

extension Terminal {
    /// `text` in green when `value` > 0, red when < 0, plain otherwise or when unknown.
    func signed(_ text: String, _ value: ExactDecimal?) -> String {
        guard let value, !value.isZero else { return text }
        return paint(text, value.isNegative ? "31" : "32")
    }
}
