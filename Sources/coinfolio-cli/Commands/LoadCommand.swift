import Coinfolio

/// `load MARKETS.json [GLOBAL.json]`: import saved `/coins/markets` and `/global` bodies as the
/// snapshot.
struct LoadCommand: Command {
    static let name = "load"
    static let operandCount: ClosedRange<Int>? = 1...2
    static let usage = [
        Usage(operands: "MARKETS.json [GLOBAL.json]", summary: "import saved /coins/markets and /global bodies as the snapshot")
    ]

    func run(_ cli: CLI) throws {
        let operands = cli.options.operands
        let markets = try read(operands[0])
        let global = try operands.count > 1 ? read(operands[1]) : nil
        let engine = try cli.openEngine()
        let summary: RefreshSummary
        do {
            summary = try engine.load(marketsBody: markets, globalBody: global)
        } catch let error as CoinfolioError where error.details[.input] != nil {
            // Name the file rather than the engine's "markets body" / "global body".
            let isGlobal = error.details[.input] == .string("global_body")
            let file = isGlobal ? operands[1] : operands[0]
            cli.failReporting(error, "\(file): \(error.messageWithoutInput)", code: 1)
        }
        if cli.options.json { sayJSON(summary.json); return }
        say("loaded \(summary.coins) coins")
    }
}
