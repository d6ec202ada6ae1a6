import Coinfolio

/// `portfolios`: the owner's portfolios with their currencies; `portfolios add NAME` creates one
/// in `--vs-currency` (a move's `--to`, a buy's `--portfolio` and the rest name an existing one).
struct PortfoliosCommand: Command {
    static let name = "portfolios"
    static let operandCount: ClosedRange<Int>? = 0...2
    static let usage = [
        Usage(operands: "add NAME", summary: "create a portfolio in --vs-currency (for example: portfolios add cold)"),
        Usage(operands: "", summary: "list the portfolios and their currencies"),
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let engine = try cli.openEngine()
        switch options.operands.count {
        case 0:
            let list = try engine.portfolios()
            if options.json { sayJSON(list.json); return }
            let rows = list.map { [Terminal.printable($0.name), $0.vsCurrency] }
            say(Terminal.table(["PORTFOLIO", "CURRENCY"], rows, right: []))
        case 2 where options.operands[0] == "add":
            let name = options.operands[1]
            try engine.createPortfolio(name: name, vsCurrency: options.vsCurrency)
            let created = try engine.portfolios().filter { $0.name == name }
            if options.json { sayJSON(created.json); return }
            say("created portfolio \(Terminal.printable(name)) (\(created.first?.vsCurrency ?? options.vsCurrency))")
        default:
            throw Options.UsageError(message: "usage: coinfolio-cli portfolios add NAME")
        }
    }
}
