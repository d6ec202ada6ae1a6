import Coinfolio

/// `set COIN AMOUNT`: hold AMOUNT of COIN; 0 or less removes it. Unless `--offline`, an id the
/// snapshot does not list is checked with CoinGecko first, so a typo is not stored.
struct SetCommand: Command {
    static let name = "set"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(operands: "COIN AMOUNT", summary: "hold AMOUNT of COIN (a CoinGecko id); 0 or less removes it")
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let id = options.operands[0]
        let text = options.operands[1]
        // Read exactly first, as buy reads amounts: more than 18 fraction digits are refused, never
        // rounded into another holding (1e-400 read as the double 0 removed the holding).
        guard let exact = ExactDecimal(text), let amount = decimalNumber(text), amount.isFinite else {
            fail(
                "amount must be a decimal number at most 8.5e19 with at most 18 fraction digits, not \"\(Terminal.printable(text))\"",
                code: 2)
        }
        // A holding is a double (set_holding): digits a double does not keep are refused, not dropped.
        guard exact.isNegative || exact.isZero || ExactDecimal(amount) == exact else {
            fail("amount \(text) has more digits than a holding keeps (about 15 significant); buy records exact amounts", code: 2)
        }
        // "Bitcoin", " bitcoin": refused before any request (removing one is the store's call).
        if amount > 0 { try CoinID.validateHolding(id) }
        let engine = try cli.openEngine()
        if amount > 0, !options.offline {
            let exists: Bool
            do {
                exists = try engine.coinExists(id: id)
            } catch let error as CoinfolioError where error.code != .invalidArgument {
                fail("cannot check that \"\(id)\" is a CoinGecko coin id: \(error.message) (use --offline to store it unchecked)", code: 1)
            }
            guard exists else {
                fail(CLI.unknownCoin(id), code: 1)
            }
        }
        try engine.setHolding(coinID: id, amount: amount, portfolio: options.portfolio)
        if options.json { sayJSON([Holding(coinID: id, amount: max(amount, 0))].json); return }
        say(amount > 0 ? "holding \(text) \(id)" : "removed \(id)")
    }
}
