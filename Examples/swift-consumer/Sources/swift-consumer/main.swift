// swift-consumer: loads saved CoinGecko bodies into a Coinfolio engine and prints the home
// screen statistics.
//
//     swift run --package-path Examples/swift-consumer swift-consumer [MARKETS.json GLOBAL.json]
//
// Without arguments it reads the repository's own small fixtures (Tests/fixtures/coingecko).
import Coinfolio
import Foundation

let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../../Tests/fixtures/coingecko").standardizedFileURL
let arguments = CommandLine.arguments.dropFirst()
let marketsPath = arguments.first ?? fixtures.appendingPathComponent("markets.json").path
let globalPath = arguments.dropFirst().first ?? fixtures.appendingPathComponent("global.json").path

do {
    let engine = try PortfolioEngine(configuration: EngineConfiguration(database: ":memory:"))
    try engine.load(
        marketsBody: try Data(contentsOf: URL(fileURLWithPath: marketsPath)),
        globalBody: try Data(contentsOf: URL(fileURLWithPath: globalPath)))
    try engine.setHolding(coinID: "bitcoin", amount: 0.5)
    for statistic in try engine.statistics() {
        let change = statistic.percentageChange.map { " (\($0 > 0 ? "+" : "")\(NumberFormat.percent($0)))" } ?? ""
        print("\(statistic.title): \(statistic.value)\(change)")
    }
} catch let error as CoinfolioError {
    FileHandle.standardError.write(Data("swift-consumer: \(error.message)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("swift-consumer: \(error)\n".utf8))
    exit(1)
}
