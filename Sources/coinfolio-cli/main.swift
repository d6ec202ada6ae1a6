// coinfolio-cli: a terminal crypto tracker on the Coinfolio Swift API.
import Coinfolio
import Foundation

let environment = ProcessInfo.processInfo.environment
let terminal = Terminal(environment: environment)

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("coinfolio-cli: \(message)\n".utf8))
    exit(code)
}

func say(_ text: String) { print(text) }

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch let error as Options.UsageError {
    fail("\(error.message) (see coinfolio-cli --help)", code: 2)
}

if options.command == "help" { say(Options.usage); exit(0) }
if options.command == "version" {
    say(options.json ? #"{"version":"\#(Coinfolio.version)"}"# : "coinfolio-cli \(Coinfolio.version)")
    exit(0)
}

func expectOperands(_ count: ClosedRange<Int>, _ shape: String) {
    guard count.contains(options.operands.count) else { fail("usage: coinfolio-cli \(options.command) \(shape)", code: 2) }
}

/// The engine, with the database's folder created first.
func openEngine() throws -> PortfolioEngine {
    let configuration = try options.engineConfiguration()
    if configuration.database != ":memory:" {
        let folder = URL(fileURLWithPath: configuration.database).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    return try PortfolioEngine(configuration: configuration)
}

/// Refreshes unless offline; on failure says so and goes on with the saved snapshot, if any.
func refreshOrExplain(_ engine: PortfolioEngine) {
    guard !options.offline else { return }
    do {
        try engine.refresh()
    } catch let error as CoinfolioError {
        FileHandle.standardError.write(Data("coinfolio-cli: refresh failed: \(error.message)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("coinfolio-cli: refresh failed: \(error)\n".utf8))
    }
}

let noDataHelp =
    "no market data yet: run `coinfolio-cli home` with network access, or `coinfolio-cli load MARKETS.json [GLOBAL.json]` with saved CoinGecko bodies"

func ageLine(asOf: Date?, stale: Bool) -> String {
    guard let asOf else { return terminal.dim("no market data yet") }
    let stamp = asOf.formatted(Date.ISO8601FormatStyle())
    return stale ? terminal.paint("stale as of \(stamp)", "33") : terminal.dim("as of \(stamp)")
}

func vs() -> VsCurrency { (try? VsCurrency(options.vsCurrency)) ?? .usd }

func coinRows(_ coins: [Coin]) -> String {
    let rows = coins.map { coin -> [String] in
        [
            coin.marketCapRank.map(String.init) ?? "-", Terminal.printable(coin.symbol.uppercased()), Terminal.printable(coin.name),
            coin.currentPrice.map { NumberFormat.price($0, vsCurrency: vs()) } ?? NumberFormat.notAvailable,
            terminal.change(coin.priceChangePercentage24h), Terminal.sparkline(coin.sparklineIn7d),
        ]
    }
    return Terminal.table(["#", "SYMBOL", "NAME", "PRICE", "24H", "7D"], rows, right: [0, 3, 4])
}

func statisticsBlock(_ statistics: [Statistic]) -> String {
    statistics.map {
        "\(terminal.bold($0.title)): \($0.value) \(terminal.change($0.percentageChange))".trimmingCharacters(in: .whitespaces)
    }
    .joined(separator: "\n")
}

func run() throws {
    switch options.command {
    case "home":
        expectOperands(0...0, "")
        let engine = try openEngine()
        refreshOrExplain(engine)
        let statistics: [Statistic]
        let listing: CoinListing
        do {
            statistics = try engine.statistics()
            listing = try engine.coins(CoinQuery(limit: options.limit, sparkline: true))
        } catch let error as CoinfolioError where error.code == .noData {
            fail(noDataHelp, code: 1)
        }
        if options.json {
            say(#"{"statistics":\#(statistics.jsonArray),"coins":\#(listing.json)}"#)
            return
        }
        say(statisticsBlock(statistics))
        say("")
        say(coinRows(listing.coins))
        say(ageLine(asOf: listing.asOf, stale: listing.isStale))

    case "portfolio":
        expectOperands(0...0, "")
        let engine = try openEngine()
        refreshOrExplain(engine)
        let portfolio = try engine.portfolio(PortfolioQuery(portfolio: options.portfolio))
        if options.json { say(portfolio.json); return }
        if portfolio.entries.isEmpty {
            say("no holdings yet: coinfolio-cli set COIN AMOUNT (for example: set bitcoin 0.5)")
            return
        }
        let rows = portfolio.entries.map { entry -> [String] in
            [
                Terminal.printable(entry.coin?.symbol.uppercased() ?? "?"), Terminal.printable(entry.coin?.name ?? entry.coinID),
                amountText(entry.amount),
                entry.value.map { NumberFormat.currency($0, vsCurrency: vs()) } ?? "no price",
                terminal.change(entry.coin?.priceChangePercentage24h),
            ]
        }
        say(Terminal.table(["SYMBOL", "NAME", "AMOUNT", "VALUE", "24H"], rows, right: [2, 3, 4]))
        say("\(terminal.bold("Total")): \(NumberFormat.currency(portfolio.totalValue, vsCurrency: vs()))")
        say(ageLine(asOf: portfolio.asOf, stale: portfolio.isStale))

    case "set":
        expectOperands(2...2, "COIN AMOUNT")
        let id = options.operands[0]
        guard let amount = decimalNumber(options.operands[1]), amount.isFinite else {
            fail("amount must be a number, not \"\(options.operands[1])\"", code: 2)
        }
        let engine = try openEngine()
        if amount > 0, !options.offline, (try? engine.coins(CoinQuery(search: id)))?.coins.contains(where: { $0.id == id }) != true {
            // Not in the saved list: ask CoinGecko whether the id exists before storing a typo.
            let found: MarketsPage
            do {
                found = try engine.client.markets(MarketsRequest(vsCurrency: vs(), ids: [id], sparkline: false))
            } catch let error as CoinfolioError where error.code != .invalidArgument {
                fail("cannot check that \"\(id)\" is a CoinGecko coin id: \(error.message) (use --offline to store it unchecked)", code: 1)
            }
            guard found.coins.contains(where: { $0.id == id }) else {
                fail("unknown coin \"\(id)\": use its CoinGecko id (for example bitcoin, not btc)", code: 1)
            }
        }
        try engine.setHolding(coinID: id, amount: amount, portfolio: options.portfolio)
        if options.json { say([Holding(coinID: id, amount: max(amount, 0))].json); return }
        say(amount > 0 ? "holding \(options.operands[1]) \(id)" : "removed \(id)")

    case "detail":
        expectOperands(1...1, "COIN")
        if options.offline {
            fail("detail needs the network: the description comes from CoinGecko's /coins/{id} (drop --offline)", code: 1)
        }
        let engine = try openEngine()
        if engine.currentSnapshotAsOf == nil { refreshOrExplain(engine) }
        let screen = try engine.coinDetail(id: options.operands[0])
        if options.json { say(screen.json); return }
        say(terminal.bold(Terminal.printable("\(screen.detail.name) (\(screen.detail.symbol.uppercased()))")))
        say("")
        say(terminal.bold("Overview"))
        say(statisticsBlock(screen.overview))
        say("")
        say(terminal.bold("Additional Details"))
        say(statisticsBlock(screen.additional))
        if let description = screen.detail.description, !description.isEmpty {
            say("")
            say(Terminal.printable(description, multiline: true))
        }
        if let homepage = screen.detail.homepage { say("\nWebsite: \(Terminal.printable(homepage))") }
        if let reddit = screen.detail.subredditURL { say("Reddit: \(Terminal.printable(reddit))") }

    case "search":
        expectOperands(1...1, "TEXT")
        let engine = try openEngine()
        if engine.currentSnapshotAsOf == nil { refreshOrExplain(engine) }
        let listing: CoinListing
        do {
            listing = try engine.coins(CoinQuery(search: options.operands[0], limit: options.limit, sparkline: !options.json))
        } catch let error as CoinfolioError where error.code == .noData {
            fail(noDataHelp, code: 1)
        }
        if options.json { say(listing.json); return }
        if listing.coins.isEmpty { say("no coin matches \"\(options.operands[0])\""); return }
        say(coinRows(listing.coins))
        say(terminal.dim("\(listing.total) match\(listing.total == 1 ? "" : "es")"))

    case "load":
        expectOperands(1...2, "MARKETS.json [GLOBAL.json]")
        let markets = try read(options.operands[0])
        let global = try options.operands.count > 1 ? read(options.operands[1]) : nil
        let engine = try openEngine()
        let summary: RefreshSummary
        do {
            summary = try engine.load(marketsBody: markets, globalBody: global)
        } catch var error as CoinfolioError where error.details["input"] != nil {
            // Name the file rather than the engine's "markets body" / "global body".
            let isGlobal = error.details["input"] == .string("global_body")
            let file = isGlobal ? options.operands[1] : options.operands[0]
            if let colon = error.message.range(of: ": ") { error.message = String(error.message[colon.upperBound...]) }
            fail("\(file): \(error.message)", code: 1)
        }
        if options.json { say(summary.json); return }
        say("loaded \(summary.coins) coins")

    case "buy": try runTrade(.buy)
    case "sell": try runTrade(.sell)
    case "transactions": try runTransactions()
    case "pnl": try runProfitAndLoss()
    case "import": try runImport()
    case "export": try runExport()

    default:
        fail("unknown command \"\(options.command)\" (see coinfolio-cli --help)", code: 2)
    }
}

/// A decimal number as people type it (`0.5`, `1e-9`, `-5`); nil for anything else, including
/// the hexadecimal and "nan"/"inf" forms `Double(_:)` would accept.
func decimalNumber(_ text: String) -> Double? {
    let pattern = #/[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?/#
    guard text.wholeMatch(of: pattern) != nil else { return nil }
    return Double(text)
}

/// An amount as typed: 0.5, 2, 1e-08 → "0.00000001".
func amountText(_ amount: Double) -> String {
    NumberFormat.currency(amount, minimumFractionDigits: 0, maximumFractionDigits: 12, vsCurrency: .usd).replacingOccurrences(
        of: "$", with: "")
}

func read(_ path: String) throws -> Data {
    do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
        fail("cannot read \(path): \(error.localizedDescription)", code: 1)
    }
}

do {
    try run()
} catch let error as CoinfolioError {
    let code: Int32 = error.code == .invalidArgument ? 2 : 1
    fail(error.message, code: code)
} catch let error as Options.UsageError {
    fail(error.message, code: 2)
} catch {
    fail("\(error)", code: 1)
}
