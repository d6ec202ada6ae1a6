import Coinfolio

/// `portfolio`: the holdings with amount, value, 24h change and the total (in the currency's own
/// precision), with the portfolio's 24h change and how many coins it covers when not all; with
/// `--history`, the portfolio's last 7 days as a line chart (see `CLI.showPortfolioHistory`).
struct PortfolioCommand: Command {
    static let name = "portfolio"
    static let operandCount: ClosedRange<Int>? = 0...0
    static let usage = [
        Usage(operands: "", summary: "your holdings with amount, value, 24h change and the total"),
        Usage(operands: "", required: [.history], optional: [.svg], summary: "the portfolio's value over the last 7 days, as a line chart"),
    ]

    func run(_ cli: CLI) throws {
        let engine = try cli.openEngine()
        cli.refreshOrExplain(engine)
        if cli.options.history { try cli.showPortfolioHistory(engine); return }
        let portfolio = try engine.portfolio(PortfolioQuery(portfolio: cli.options.portfolio))
        // Holdings but no market data in this currency: the holdings are listed (so the command
        // shows something and exits 0), and stderr says which currency lacks data and how to get it.
        let withoutPrices = !portfolio.entries.isEmpty && portfolio.asOf == nil
        if cli.options.json {
            sayJSON(portfolio.json)
            if withoutPrices { warn(cli.noDataHelp()) }
            return
        }
        if portfolio.entries.isEmpty {
            say("no holdings yet: coinfolio-cli set COIN AMOUNT (for example: set bitcoin 0.5)")
            return
        }
        let terminal = cli.terminal
        let rows = portfolio.entries.map { entry -> [String] in
            [
                Terminal.printable(entry.coin?.symbol.uppercased() ?? "?"),
                Terminal.printable(entry.coin.map { $0.name.isEmpty ? $0.id : $0.name } ?? entry.coinID),
                amountText(entry.amount),
                entry.value.map { NumberFormat.value($0, vsCurrency: cli.vs()) } ?? "no price",
                terminal.changeCell(entry.coin?.priceChangePercentage24h),
            ]
        }
        say(Terminal.table(["SYMBOL", "NAME", "AMOUNT", "VALUE", "24H"], rows, right: [2, 3, 4]))
        let change = try engine.portfolioChange()
        let totalText = portfolio.totalValue.map { NumberFormat.value($0, vsCurrency: cli.vs()) } ?? NumberFormat.notAvailable
        let note = portfolio.totalValue == nil ? "" : CLI.unpricedNote(portfolio.unpricedHoldings)
        let total = "\(terminal.bold("Total")): \(totalText)\(note)"
        say("\(total) \(terminal.change(change.percentage)) \(cli.coverageNote(change))".trailingSpacesRemoved)
        if withoutPrices { warn(cli.noDataHelp()) }
        say(cli.ageLine(asOf: portfolio.asOf, stale: portfolio.isStale))
    }
}
