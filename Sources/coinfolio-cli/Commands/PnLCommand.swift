import Coinfolio

/// `pnl [--method fifo|lifo|hifo|lofo|average|uk]`: cost basis, unrealized and realized P&L per coin of the
/// `--portfolio`, gains in green and losses in red on a terminal (none with NO_COLOR).
struct PnLCommand: Command {
    static let name = "pnl"
    static let operandCount: ClosedRange<Int>? = 0...0
    static let usage = [
        Usage(operands: "", optional: [.method], summary: "cost basis, unrealized and realized profit and loss per coin")
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let engine = try cli.openEngine()
        cli.refreshOrExplain(engine)
        let method = CostBasisMethod(rawValue: options.method) ?? .fifo
        let report = try engine.pnl(PnLOptions(portfolio: options.portfolio, method: method))
        if options.json { sayJSON(report.json); return }
        if report.coins.isEmpty {
            say("no transactions yet: coinfolio-cli buy COIN AMOUNT --price P")
            return
        }
        let terminal = cli.terminal
        let vs = (try? VsCurrency(report.vsCurrency)) ?? .usd
        func money(_ value: PreciseDecimal?) -> String {
            value.map { NumberFormat.value($0.double, vsCurrency: vs) } ?? NumberFormat.notAvailable
        }
        let rows = report.coins.map { coin -> [String] in
            [
                Terminal.printable(coin.coinID), coin.amount.description, money(coin.costBasis),
                coin.averageCost.map { NumberFormat.price($0.double, vsCurrency: vs) } ?? NumberFormat.notAvailable,
                money(coin.currentValue), terminal.signed(money(coin.unrealizedPnL), coin.unrealizedPnL),
                coin.unrealizedPnLPercentage.map { terminal.change($0) } ?? "",
                Self.realized(coin.realizedPnL, coverage: coin.realizedCoverage, terminal: terminal, money),
                coin.costBasisCoverage < 1 ? NumberFormat.percent(coin.costBasisCoverage * 100) : "",
            ]
        }
        say(
            Terminal.table(
                ["COIN", "AMOUNT", "COST BASIS", "AVG COST", "VALUE", "UNREALIZED", "%", "REALIZED", "KNOWN COST"], rows,
                right: [1, 2, 3, 4, 5, 6, 7, 8]))
        say(
            "\(terminal.bold("Unrealized")): \(terminal.signed(money(report.totalUnrealizedPnL), report.totalUnrealizedPnL))  "
                + "\(terminal.bold("Realized")): \(Self.totalRealized(report, terminal: terminal, money))  "
                + "\(terminal.bold("Fees")): \(money(report.totalFees))  "
                + (report.totalIncome.isZero && report.totalIncomeCoverage == 1
                    ? "" : "\(terminal.bold("Income")): \(Self.income(report, money))  ")
                + terminal.dim("(\(report.method.rawValue), \(Terminal.printable(report.portfolio)))"))
    }

    /// A coin's realized P&L as the table shows it: unknown ("n/a") when no disposed unit had
    /// both a known cost and known proceeds (a pending price, SPEC §17), never $0.00; the known
    /// share named when only some had.
    static func realized(
        _ value: PreciseDecimal, coverage: Double, terminal: Terminal, _ money: (PreciseDecimal?) -> String
    ) -> String {
        if coverage == 0 { return NumberFormat.notAvailable }
        let text = terminal.signed(money(value), value)
        return coverage < 1 ? "\(text) (\(NumberFormat.percent(coverage * 100)) known)" : text
    }

    /// The realized total: unknown when some coin sold at an unknown gain and no coin's realized
    /// P&L is known at all, never $0.00 (a coin that sold nothing has coverage 1 and realized
    /// nothing: it knows no gain either); the known part "(part unknown)" when some coin's is
    /// not wholly known.
    static func totalRealized(_ report: PnLReport, terminal: Terminal, _ money: (PreciseDecimal?) -> String) -> String {
        let unknown = report.coins.contains { $0.realizedCoverage == 0 }
        if unknown, report.coins.allSatisfy({ $0.realizedCoverage == 0 || $0.disposedUnits.isZero }) { return NumberFormat.notAvailable }
        let text = terminal.signed(money(report.totalRealizedPnL), report.totalRealizedPnL)
        return report.coins.contains { $0.realizedCoverage < 1 } ? "\(text) (part unknown)" : text
    }

    /// The income total as the totals line shows it: unknown ("n/a") while every income row's
    /// price is pending, never 0; the priced share when only some are.
    static func income(_ report: PnLReport, _ money: (PreciseDecimal?) -> String) -> String {
        let coverage = report.totalIncomeCoverage
        if coverage == 0 { return "\(NumberFormat.notAvailable) (price pending)" }
        return money(report.totalIncome) + (coverage < 1 ? " (\(NumberFormat.percent(coverage * 100)) priced, the rest pending)" : "")
    }
}
