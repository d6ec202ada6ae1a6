import Coinfolio

/// `transactions [COIN]`: the `--portfolio`'s transactions in ledger order (time, then insertion).
struct TransactionsCommand: Command {
    static let name = "transactions"
    static let operands: (count: ClosedRange<Int>, shape: String)? = (0...1, "[COIN]")

    func run(_ cli: CLI) throws {
        let options = cli.options
        let engine = try cli.openEngine()
        let page = try engine.transactions(TransactionQuery(portfolio: options.portfolio, coinID: options.operands.first))
        if options.json { say(page.json); return }
        if page.transactions.isEmpty {
            say("no transactions yet: coinfolio-cli buy COIN AMOUNT --price P (for example: buy bitcoin 0.5 --price 60000)")
            return
        }
        let vs = try cli.portfolioCurrency(engine)
        let rows = page.transactions.map { t -> [String] in
            [
                String(t.id ?? 0), LedgerTimestamp.format(t.timestamp), t.kind.rawValue, Terminal.printable(t.coinID),
                t.amount.description,
                t.price.map { NumberFormat.price($0.double, vsCurrency: vs) } ?? (t.kind.hasPrice ? "pending" : "-"),
                t.fee.isZero
                    ? "-" : t.feeCoinID.map { "\(t.fee) \(Terminal.printable($0))" } ?? NumberFormat.price(t.fee.double, vsCurrency: vs),
                Terminal.printable(t.note),
            ]
        }
        say(Terminal.table(["ID", "TIME", "KIND", "COIN", "AMOUNT", "PRICE", "FEE", "NOTE"], rows, right: [0, 4, 5, 6]))
        say(cli.terminal.dim("\(page.total) transaction\(page.total == 1 ? "" : "s") in \(Terminal.printable(options.portfolio))"))
    }
}
