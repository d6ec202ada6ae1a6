import Coinfolio

/// `trade AMOUNT COIN AMOUNT COIN [--value V] [--fee F [--fee-coin ID [--fee-price P]]] [--at TIME]
/// [--note TEXT]`: swaps the first coin for the second in the `--portfolio` (SPEC §16): a sell and a
/// buy, one group; `--value` is the trade's value in the portfolio's currency (without it the
/// prices are pending).
struct TradeCommand: Command {
    static let name = "trade"
    static let operandCount: ClosedRange<Int>? = 4...4
    static let usage = [
        Usage(
            operands: "AMOUNT COIN AMOUNT COIN", optional: [.value, .fee, .feeCoin, .feePrice, .at, .note],
            summary: """
                swap the first coin for the second (trade 0.5 bitcoin 10 ethereum);
                --value: the trade's value in the portfolio's currency
                """)
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let sent = Trade.Side(coinID: options.operands[1], amount: cli.positiveAmount(options.operands[0], "the sent amount"))
        let received = Trade.Side(coinID: options.operands[3], amount: cli.positiveAmount(options.operands[2], "the received amount"))
        let engine = try cli.openEngine()
        let group = try cli.explainingShortfall(sent.coinID) {
            try engine.addTrade(
                Trade(
                    portfolio: options.portfolio, timestamp: cli.timestamp(), sent: sent, received: received,
                    value: options.value.map { cli.decimal($0, "--value") }, fee: options.fee.map { cli.decimal($0, "--fee") } ?? .zero,
                    feeCoinID: options.feeCoin, feePrice: options.feePrice.map { cli.decimal($0, "--fee-price") },
                    note: options.note))
        }
        if options.json { sayJSON(group.json); return }
        let vs = (try? cli.portfolioCurrency(engine)) ?? .usd
        for leg in group.transactions {
            let price = leg.price.map { "at \(NumberFormat.price($0.double, vsCurrency: vs))" } ?? "(price pending)"
            say("\(leg.kind.rawValue) \(leg.amount) \(Terminal.printable(leg.coinID)) \(price) (transaction \(leg.id ?? 0))")
        }
    }
}

/// `move COIN AMOUNT --from P --to Q [--received R] [--at TIME] [--note TEXT]`: moves coins between
/// two of the owner's portfolios of one currency, keeping their cost and acquisition times; R
/// below AMOUNT when a network fee was paid in the coin (SPEC §16).
struct MoveCommand: Command {
    static let name = "move"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(
            operands: "COIN AMOUNT", required: [.from, .to], optional: [.received, .at, .note],
            summary: """
                move coins between two portfolios, keeping their cost; R < AMOUNT
                when a network fee was paid in the coin
                """)
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        guard let from = options.from, let to = options.to else { fail("move needs --from P and --to Q (portfolio names)", code: 2) }
        let coinID = options.operands[0]
        let amount = cli.positiveAmount(options.operands[1], "amount")
        let engine = try cli.openEngine()
        let group = try cli.explainingShortfall(coinID) {
            try engine.move(
                Move(
                    from: from, to: to, coinID: coinID, amount: amount,
                    receivedAmount: options.received.map { cli.positiveAmount($0, "--received") }, timestamp: cli.timestamp(),
                    note: options.note))
        }
        if options.json { sayJSON(group.json); return }
        let arrived = group.transactions.last?.amount ?? amount
        say(
            "moved \(amount) \(Terminal.printable(coinID)) from \(Terminal.printable(from)) to \(Terminal.printable(to)) (\(arrived) arrived)"
        )
    }
}
