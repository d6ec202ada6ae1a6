import Coinfolio

/// `buy COIN AMOUNT [--price P] [--fee F [--fee-coin ID [--fee-price P]]] [--at TIME] [--note TEXT]`:
/// records a purchase in the `--portfolio` (default main); price per unit and fee in the
/// portfolio's currency, or the fee in units of `--fee-coin` (SPEC §16). Without `--price` the
/// price is pending (SPEC §17).
struct BuyCommand: Command {
    static let name = "buy"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(
            operands: "COIN AMOUNT", optional: [.price, .fee, .feeCoin, .feePrice, .at, .note],
            summary: """
                record a purchase (price per unit and fee in the portfolio's currency;
                without --price the price is pending; --fee-coin: the fee is F units
                of that coin, a disposal)
                """)
    ]

    func run(_ cli: CLI) throws { try record(.buy, cli) }
}

/// `sell COIN AMOUNT [--price P] [--fee F [--fee-coin ID [--fee-price P]]] [--at TIME] [--note TEXT]`:
/// records a sale; selling more than the portfolio holds at that time is refused.
struct SellCommand: Command {
    static let name = "sell"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(
            operands: "COIN AMOUNT", optional: [.price, .fee, .feeCoin, .feePrice, .at, .note],
            summary: "record a sale; more than is held at TIME is refused")
    ]

    func run(_ cli: CLI) throws { try record(.sell, cli) }
}

/// `income COIN AMOUNT --type staking|interest|airdrop|mining|fork|gift|reward|other [--price P]`:
/// records coins received as income at their market value P per unit (pending without it).
struct IncomeCommand: Command {
    static let name = "income"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(
            operands: "COIN AMOUNT", required: [.incomeType], optional: [.price, .fee, .feeCoin, .feePrice, .at, .note],
            summary: "record coins received as income at their value P per unit")
    ]

    func run(_ cli: CLI) throws {
        guard let text = cli.options.incomeType else {
            fail("income needs --type: staking, interest, airdrop, mining, fork, gift, reward or other", code: 2)
        }
        guard let type = IncomeType(rawValue: text) else {
            fail(
                "--type must be staking, interest, airdrop, mining, fork, gift, reward or other, not \"\(Terminal.printable(text))\"",
                code: 2)
        }
        try record(.income, cli, incomeType: type)
    }
}

/// The work of `buy`, `sell` and `income`: the numbers read as exact decimals, `--at` as RFC 3339
/// (UTC when it has no zone, never the machine's time zone).
private func record(_ kind: TransactionKind, _ cli: CLI, incomeType: IncomeType? = nil) throws {
    let options = cli.options
    let coinID = options.operands[0]
    let amount = cli.positiveAmount(options.operands[1], "amount")
    let price = options.price.map { cli.decimal($0, "--price") }
    let engine = try cli.openEngine()
    let stored = try cli.explainingShortfall(coinID) {
        try engine.addTransaction(
            Transaction(
                portfolio: options.portfolio, coinID: coinID, kind: kind, amount: amount, price: price,
                fee: options.fee.map { cli.decimal($0, "--fee") } ?? .zero, timestamp: cli.timestamp(), note: options.note,
                feeCoinID: options.feeCoin, feePrice: options.feePrice.map { cli.decimal($0, "--fee-price") },
                incomeType: incomeType))
    }
    if options.json { sayJSON(stored.json); return }
    let verb = [TransactionKind.buy: "bought", .sell: "sold"][kind] ?? "received"
    let at =
        price.map { "at \(NumberFormat.price($0.double, vsCurrency: (try? cli.portfolioCurrency(engine)) ?? .usd))" } ?? "(price pending)"
    say("\(verb) \(amount) \(Terminal.printable(coinID)) \(at) (transaction \(stored.id ?? 0))")
}

extension CLI {
    /// The quote currency of `--portfolio` (its own, or the engine's for "main").
    func portfolioCurrency(_ engine: PortfolioEngine) throws -> VsCurrency {
        let code = try engine.portfolios().first { $0.name == options.portfolio }?.vsCurrency ?? options.vsCurrency
        return (try? VsCurrency(code)) ?? .usd
    }

    /// `text` as an exact decimal, or exit 2 naming the option.
    func decimal(_ text: String, _ what: String) -> ExactDecimal {
        guard let value = ExactDecimal(text) else {
            fail(
                "\(what) must be a decimal number at most 8.5e19 with at most 18 fraction digits, not \"\(Terminal.printable(text))\"",
                code: 2)
        }
        return value
    }

    /// `text` as an exact decimal above 0, or exit 2.
    func positiveAmount(_ text: String, _ what: String) -> ExactDecimal {
        guard let value = ExactDecimal(text), !value.isNegative, !value.isZero else {
            fail(
                "\(what) must be a decimal number above 0 and at most 8.5e19, at most 18 fraction digits, a point not a comma; not \"\(Terminal.printable(text))\"",
                code: 2)
        }
        return value
    }

    /// `--at` in milliseconds (UTC), now without it; exit 2 when it is not RFC 3339.
    func timestamp() -> Int64 {
        guard let at = options.at else { return LedgerTimestamp.now() }
        guard let value = LedgerTimestamp.parse(at) else {
            fail("--at must be an RFC 3339 time such as 2024-03-01T12:30:00Z or 2024-03-01, not \"\(Terminal.printable(at))\"", code: 2)
        }
        return value
    }

    /// Runs a ledger write, saying a shortfall (more sent than held) in words (exit 1).
    func explainingShortfall<T>(_ coinID: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as CoinfolioError where error.details[.shortBy] != nil {
            var short = ""
            if case .number(let value)? = error.details[.shortBy] { short = " (short by \(ExactDecimal(value) ?? .zero))" }
            var coin = coinID
            if case .string(let name)? = error.details[.coinID] { coin = name }
            failReporting(error, "cannot take more \(Terminal.printable(coin)) than the portfolio holds at that time\(short)", code: 1)
        }
    }
}

extension Terminal {
    /// `text` in green when `value` > 0, red when < 0, plain otherwise or when unknown.
    func signed(_ text: String, _ value: PreciseDecimal?) -> String {
        guard let value, !value.isZero else { return text }
        return paint(text, value.isNegative ? "31" : "32")
    }
}
