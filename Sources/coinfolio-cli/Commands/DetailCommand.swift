import Coinfolio
import Foundation

/// `detail COIN`: one coin's overview, additional details, description and links. Online it
/// asks `/coins/{id}` (unless a saved detail is fresh); `--offline` shows what the database
/// holds — the snapshot's market row, a saved detail — and says what is missing.
struct DetailCommand: Command {
    static let name = "detail"
    static let operandCount: ClosedRange<Int>? = 1...1
    static let usage = [
        Usage(operands: "COIN", summary: "one coin: overview, additional details, description, links")
    ]

    func run(_ cli: CLI) throws {
        let id = cli.options.operands[0]
        let engine = try cli.openEngine()
        if cli.options.offline {
            try offline(cli, engine, id: id)
            return
        }
        if engine.currentSnapshotAsOf == nil { cli.refreshOrExplain(engine) }
        let screen = try cli.aboutCoin(engine, id) { try engine.coinDetail(id: id) }
        if cli.options.json { sayJSON(screen.json); return }
        printScreen(cli, screen)
        if screen.isStale, let asOf = screen.asOf {
            say(cli.terminal.paint("detail saved \(asOf.formatted(Date.ISO8601FormatStyle())); its refresh failed", "33"))
        }
    }

    /// Whatever the database holds; exit 1 when it holds neither a market row nor a detail.
    private func offline(_ cli: CLI, _ engine: PortfolioEngine, id: String) throws {
        let code = cli.vs().code
        let saved = try engine.savedCoinDetail(id: id)
        var statistics: CoinStatistics?
        var missingRow: String?
        do {
            statistics = try engine.coinStatistics(id: id)
        } catch let error as CoinfolioError where error.code == .noData || error.code == .notFound {
            missingRow =
                error.code == .noData
                ? "no \(code) market data yet (run `coinfolio-cli \(cli.currencyFlag)home` with network access)"
                : "\(id) is not in the saved \(code) market data"
        }
        let missingDetail = "no saved description of \(id) (run `coinfolio-cli \(cli.currencyFlag)detail \(id)` with network access)"
        if saved == nil, statistics == nil {
            fail("nothing saved for \(id): \(missingRow ?? "") and \(missingDetail)", code: 1)
        }
        if cli.options.json {
            if let saved { sayJSON(saved.json) } else if let statistics { sayJSON(statistics.json) }
            return
        }
        if let saved {
            printScreen(cli, saved)
            if saved.isStale, let asOf = saved.asOf {
                say(cli.terminal.dim("detail saved \(asOf.formatted(Date.ISO8601FormatStyle())); older than the detail TTL"))
            }
        } else if let statistics {
            say(cli.terminal.bold(Terminal.printable("\(statistics.coin.name) (\(statistics.coin.symbol.uppercased()))")))
            printStatistics(cli, overview: statistics.overview, additional: statistics.additional)
            say("")
            say(cli.terminal.dim(missingDetail))
        }
        if let missingRow { say(cli.terminal.dim(missingRow + "; the market figures read n/a")) }
    }

    private func printScreen(_ cli: CLI, _ screen: CoinDetailScreen) {
        say(cli.terminal.bold(Terminal.printable("\(screen.detail.name) (\(screen.detail.symbol.uppercased()))")))
        printStatistics(cli, overview: screen.overview, additional: screen.additional)
        if let description = screen.detail.description, !description.isEmpty {
            say("")
            say(Terminal.printable(description, multiline: true))
        }
        if let homepage = screen.detail.homepage { say("\nWebsite: \(Terminal.printable(homepage))") }
        if let reddit = screen.detail.subredditURL { say("Reddit: \(Terminal.printable(reddit))") }
    }

    private func printStatistics(_ cli: CLI, overview: [Statistic], additional: [Statistic]) {
        say("")
        say(cli.terminal.bold("Overview"))
        say(cli.statisticsBlock(overview))
        say("")
        say(cli.terminal.bold("Additional Details"))
        say(cli.statisticsBlock(additional))
    }
}
