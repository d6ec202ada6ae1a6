import Coinfolio

/// `home`: refresh, then the market statistics and the top coins.
struct HomeCommand: Command {
    static let name = "home"
    static let operandCount: ClosedRange<Int>? = 0...0
    static let usage = [
        Usage(operands: "", summary: "refresh, then the market statistics and the top coins")
    ]

    func run(_ cli: CLI) throws {
        let engine = try cli.openEngine()
        cli.refreshOrExplain(engine)
        let statistics: [Statistic]
        let listing: CoinListing
        do {
            statistics = try engine.statistics()
            listing = try engine.coins(CoinQuery(limit: cli.options.limit, sparkline: true))
        } catch let error as CoinfolioError where error.code == .noData {
            cli.failReporting(error, cli.noDataHelp(), code: 1)
        }
        if cli.options.json {
            sayJSON(#"{"statistics":\#(statistics.jsonArray),"coins":\#(listing.json)}"#)
            return
        }
        let change = try engine.portfolioChange()
        say(cli.statisticsBlock(statistics, notes: ["Portfolio Value": cli.coverageNote(change)]))
        say("")
        say(cli.coinRows(listing.coins))
        say(cli.ageLine(asOf: listing.asOf, stale: listing.isStale))
    }
}
