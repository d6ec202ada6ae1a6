import Coinfolio

/// `transactions [COIN]`: the `--portfolio`'s transactions in ledger order (time, then insertion).
struct TransactionsCommand: Command {
    static let name = "transactions"
    static let operandCount: ClosedRange<Int>? = 0...1
    static let usage = [
        Usage(operands: "[COIN]", summary: "the portfolio's transactions in time order")
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let engine = try cli.openEngine()
        let page = try engine.transactions(TransactionQuery(portfolio: options.portfolio, coinID: options.operands.first))
        // An empty page of a portfolio that does not exist says so, as pnl does (exit 1; with
        // --json the not_found error's JSON, as the library gives it for pnl).
        if page.transactions.isEmpty, try !engine.portfolios().contains(where: { $0.name == options.portfolio }) {
            let error = CoinfolioError(
                .notFound, "no portfolio named \"\(options.portfolio)\"", details: [.portfolio: .string(options.portfolio)])
            cli.failReporting(error, error.message, code: 1)
        }
        if options.json { sayJSON(page.json); return }
        if page.transactions.isEmpty {
            say("no transactions yet: coinfolio-cli buy COIN AMOUNT --price P (for example: buy bitcoin 0.5 --price 60000)")
            return
        }
        say(Self.table(page.transactions, vsCurrency: try cli.portfolioCurrency(engine)))
        say(cli.terminal.dim("\(page.total) transaction\(page.total == 1 ? "" : "s") in \(Terminal.printable(options.portfolio))"))
    }

    /// Transactions as a table: id ("-" before one is stored), time, kind, coin, amount, price
    /// ("pending" while unknown), fee, note; prices and fees in `vs`, but the fee of a price given
    /// in another currency and not converted yet, which is still in that one (SPEC §17).
    static func table(_ transactions: [Transaction], vsCurrency vs: VsCurrency) -> String {
        let rows = transactions.map { t -> [String] in
            let feeCurrency = t.price == nil ? t.priceCurrency.flatMap { try? VsCurrency($0) } ?? vs : vs
            return [
                t.id.map { String($0) } ?? "-", LedgerTimestamp.format(t.timestamp), t.kind.rawValue, Terminal.printable(t.coinID),
                t.amount.description,
                t.price.map { NumberFormat.price($0.double, vsCurrency: vs) } ?? (t.kind.hasPrice ? "pending" : Terminal.unknownCell),
                t.fee.isZero
                    ? Terminal.unknownCell
                    : t.feeCoinID.map { "\(t.fee) \(Terminal.printable($0))" } ?? NumberFormat.price(t.fee.double, vsCurrency: feeCurrency),
                Terminal.printable(t.note ?? ""),
            ]
        }
        return Terminal.table(["ID", "TIME", "KIND", "COIN", "AMOUNT", "PRICE", "FEE", "NOTE"], rows, right: [0, 4, 5, 6])
    }
}
