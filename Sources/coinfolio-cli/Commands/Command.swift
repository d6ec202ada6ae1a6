import Coinfolio
import Foundation

/// One subcommand, laid out as swift-argument-parser lays them out: a type per command, named by
/// `name`, its operands checked against `operandCount` before `run` (the options are shared and
/// parsed by `Options`), its usage written in it (`usage`) and nowhere else.
protocol Command {
    /// The word on the command line ("home", "set", …).
    static var name: String { get }
    /// How many operands the command takes; nil: any.
    static var operandCount: ClosedRange<Int>? { get }
    /// The command's forms and what each does: `--help` lists them (`HelpCommand.text`), a wrong
    /// operand count prints the first.
    static var usage: [Usage] { get }
    init()
    /// Does the command's work, printing its output.
    /// - Throws: `CoinfolioError` (exit 2 for `.invalidArgument`, 1 otherwise) or `Options.UsageError`.
    func run(_ cli: CLI) throws
}

/// Every command, in the order `--help` lists them.
var commands: [any Command.Type] {
    [
        HomeCommand.self, PortfolioCommand.self, ChartCommand.self, SetCommand.self, DetailCommand.self, SearchCommand.self,
        LoadCommand.self, BuyCommand.self, SellCommand.self, TradeCommand.self, MoveCommand.self, IncomeCommand.self,
        PortfoliosCommand.self, TransactionsCommand.self, PnLCommand.self, PerformanceCommand.self, RealizedCommand.self, ImportCommand.self, ExportCommand.self,
        PriceCommand.self, SetPriceCommand.self, FillPricesCommand.self, VersionCommand.self, HelpCommand.self,
    ]
}
