import Coinfolio

/// `portfolio`: the holdings with amount, value, 24h change and the total; with `--history`, the
/// portfolio's last 7 days as a line chart (see `CLI.showPortfolioHistory`).
struct PortfolioCommand: Command {
    static let name = "portfolio"
    static let operands: (count: ClosedRange<Int>, shape: String)? = (0...0, "")

    func run(_ cli: CLI) throws {
        let engine = try cli.openEngine()
        cli.refreshOrExplain(engine)
        if cli.options.history { try cli.showPortfolioHistory(engine); return }
        let portfolio = try engine.portfolio()
        // Holdings but no market data in this currency: no value can be shown.
        let showsNothing = !portfolio.entries.isEmpty && portfolio.asOf == nil
        if cli.options.json {
            say(portfolio.json)
            if showsNothing { fail(cli.noDataHelp(), code: 1) }
            return
        }
        if portfolio.entries.isEmpty {
            say("no holdings yet: coinfolio-cli set COIN AMOUNT (for example: set bitcoin 0.5)")
            return
        }
        let terminal = cli.terminal
        let rows = portfolio.entries.map { entry -> [String] in
            [
                Terminal.printable(entry.coin?.symbol.uppercased() ?? "?"), Terminal.printable(entry.coin?.name ?? entry.coinID),
                amountText(entry.amount),
                entry.value.map { NumberFormat.currency($0, vsCurrency: cli.vs()) } ?? "no price",
                terminal.change(entry.coin?.priceChangePercentage24h),
            ]
        }
        say(Terminal.table(["SYMBOL", "NAME", "AMOUNT", "VALUE", "24H"], rows, right: [2, 3, 4]))
        let total = portfolio.totalValue.map { NumberFormat.currency($0, vsCurrency: cli.vs()) } ?? NumberFormat.notAvailable
        let note = portfolio.totalValue == nil ? "" : CLI.unpricedNote(portfolio.unpricedHoldings)
        say("\(terminal.bold("Total")): \(total)\(note)")
        if showsNothing { fail(cli.noDataHelp(), code: 1) }
        say(cli.ageLine(asOf: portfolio.asOf, stale: portfolio.isStale))
    }
}
