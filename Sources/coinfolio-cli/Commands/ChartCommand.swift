import Coinfolio

/// `chart COIN [--days N|max] [--svg FILE]`: a coin's price chart in the terminal (braille, or
/// ASCII without a UTF-8 locale) with its summary; needs the network (`/coins/{id}/market_chart`).
struct ChartCommand: Command {
    static let name = "chart"
    static let operandCount: ClosedRange<Int>? = 1...1
    static let usage = [
        Usage(
            operands: "COIN", optional: [.days, .svg],
            summary: "a coin's price chart and summary (days 1…36500 or max, default 7;\nthe public and demo plans stop at 365)")
    ]

    func run(_ cli: CLI) throws {
        if cli.options.offline {
            fail("chart needs the network: prices over time come from CoinGecko's /coins/{id}/market_chart (drop --offline)", code: 1)
        }
        let engine = try cli.openEngine()
        let id = cli.options.operands[0]
        try cli.aboutCoin(engine, id) { try cli.showChart(engine, coinID: id) }
    }
}
