import Coinfolio

/// `search TEXT`: coins whose name, symbol or id contains TEXT.
struct SearchCommand: Command {
    static let name = "search"
    static let operandCount: ClosedRange<Int>? = 1...1
    static let usage = [
        Usage(operands: "TEXT", summary: "coins whose name, symbol or id contains TEXT")
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let engine = try cli.openEngine()
        if engine.currentSnapshotAsOf == nil { cli.refreshOrExplain(engine) }
        let listing: CoinListing
        do {
            listing = try engine.coins(CoinQuery(search: options.operands[0], limit: options.limit, sparkline: !options.json))
        } catch let error as CoinfolioError where error.code == .noData {
            fail(cli.noDataHelp(), code: 1)
        }
        if options.json { sayJSON(listing.json); return }
        if listing.coins.isEmpty { say("no coin matches \"\(Terminal.printable(options.operands[0]))\""); return }
        say(cli.coinRows(listing.coins))
        say(cli.terminal.dim("\(listing.total) match\(listing.total == 1 ? "" : "es")"))
    }
}
