import Coinfolio

/// `detail COIN`: one coin's overview, additional details, description and links (needs the
/// network: the description comes from `/coins/{id}`).
struct DetailCommand: Command {
    static let name = "detail"
    static let operands: (count: ClosedRange<Int>, shape: String)? = (1...1, "COIN")

    func run(_ cli: CLI) throws {
        if cli.options.offline {
            fail("detail needs the network: the description comes from CoinGecko's /coins/{id} (drop --offline)", code: 1)
        }
        let engine = try cli.openEngine()
        if engine.currentSnapshotAsOf == nil { cli.refreshOrExplain(engine) }
        let id = cli.options.operands[0]
        let screen = try cli.aboutCoin(engine, id) { try engine.coinDetail(id: id) }
        if cli.options.json { say(screen.json); return }
        let terminal = cli.terminal
        say(terminal.bold(Terminal.printable("\(screen.detail.name) (\(screen.detail.symbol.uppercased()))")))
        say("")
        say(terminal.bold("Overview"))
        say(cli.statisticsBlock(screen.overview))
        say("")
        say(terminal.bold("Additional Details"))
        say(cli.statisticsBlock(screen.additional))
        if let description = screen.detail.description, !description.isEmpty {
            say("")
            say(Terminal.printable(description, multiline: true))
        }
        if let homepage = screen.detail.homepage { say("\nWebsite: \(Terminal.printable(homepage))") }
        if let reddit = screen.detail.subredditURL { say("Reddit: \(Terminal.printable(reddit))") }
    }
}
