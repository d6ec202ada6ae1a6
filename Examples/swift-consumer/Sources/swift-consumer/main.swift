// swift-consumer: a small tracker app on Coinfolio's HomeModel (the home screen of the original
// SwiftUI app), drawn as text: it loads saved CoinGecko bodies, holds some coins, and shows the
// statistics, the portfolio and the coin list as a user searches and sorts.
//
//     swift run --package-path Examples/swift-consumer swift-consumer [MARKETS.json GLOBAL.json]
//     swift run --package-path Examples/swift-consumer swift-consumer --live [DATABASE]
//
// Without arguments it reads the repository's own small fixtures (Tests/fixtures/coingecko) into
// a `:memory:` engine. `--live` refreshes from CoinGecko instead (`HomeModel.reload()`), keeping
// the portfolio in DATABASE (default `portfolio.sqlite`).
import Coinfolio
import CoinfolioObservation
import Foundation

let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../../Tests/fixtures/coingecko").standardizedFileURL
let arguments = Array(CommandLine.arguments.dropFirst())
let live = arguments.first == "--live"

@MainActor
func run() async throws {
    let database = live ? (arguments.dropFirst().first ?? "portfolio.sqlite") : ":memory:"
    let engine = try PortfolioEngine(configuration: EngineConfiguration(database: database))
    let home = HomeModel(engine: engine)
    let screen = HomeScreen(model: home)
    screen.watch()  // redraw-on-change, as SwiftUI would: Observation says what changed

    if live {
        await home.reload()
        if let error = home.lastError { print("refresh failed: \(error.message)") }
    } else {
        let marketsPath = arguments.first ?? fixtures.appendingPathComponent("markets.json").path
        let globalPath = arguments.dropFirst().first ?? fixtures.appendingPathComponent("global.json").path
        try await engine.load(
            marketsBody: try Data(contentsOf: URL(fileURLWithPath: marketsPath)),
            globalBody: try Data(contentsOf: URL(fileURLWithPath: globalPath)))
        await home.update()
    }
    // The portfolio screen's "save": hold half a bitcoin.
    if let bitcoin = home.allCoins.first(where: { $0.id == "bitcoin" }) {
        try await home.updatePortfolio(coin: bitcoin, amount: 0.5)
    }
    screen.drawStatistics()
    screen.drawPortfolio()

    // The user types in the search field, then picks another order.
    home.searchText = "eth"
    await screen.settle()
    screen.drawCoins(title: "search \"eth\"")
    home.searchText = ""
    home.sortOption = .price
    await screen.settle()
    screen.drawCoins(title: "by price", limit: 5)
    print("observed changes: \(screen.changes)")
}

do {
    try await run()
} catch let error as CoinfolioError {
    FileHandle.standardError.write(Data("swift-consumer: \(error.message)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("swift-consumer: \(error)\n".utf8))
    exit(1)
}
