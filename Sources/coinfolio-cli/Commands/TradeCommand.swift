import Coinfolio

/// `buy COIN AMOUNT --price P [--fee F] [--at TIME] [--note TEXT]`: records a purchase in the
/// `--portfolio` (default main); price per unit and fee in the portfolio's currency.
struct BuyCommand: Command {
    static let name = "buy"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(
            operands: "COIN AMOUNT", required: [.price], optional: [.fee, .at, .note],
            summary: "record a purchase (price per unit and fee in the portfolio's currency)")
    ]

    func run(_ cli: CLI) throws { try recordTrade(.buy, cli) }
}

/// `sell COIN AMOUNT --price P [--fee F] [--at TIME] [--note TEXT]`: records a sale; selling more
/// than the portfolio holds at that time is refused.
struct SellCommand: Command {
    static let name = "sell"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(
            operands: "COIN AMOUNT", required: [.price], optional: [.fee, .at, .note],
            summary: "record a sale; more than is held at TIME is refused")
    ]

    func run(_ cli: CLI) throws { try recordTrade(.sell, cli) }
}

/// The work of `buy` and `sell`: the amounts read as exact decimals, `--at` as RFC 3339 (UTC
/// when it has no zone, never the machine's time zone).
private func recordTrade(_ kind: TransactionKind, _ cli: CLI) throws {
    let options = cli.options
    let coinID = options.operands[0]
    guard let amount = ExactDecimal(options.operands[1]), !amount.isNegative, !amount.isZero else {
        fail("amount must be a decimal number above 0 and below 8.5e19, at most 18 fraction digits, a point not a comma; not \"\(options.operands[1])\"", code: 2)
    }
    guard let priceText = options.price else { fail("\(kind.rawValue) needs --price (per unit, in the portfolio's currency)", code: 2) }
    guard let price = ExactDecimal(priceText) else { fail("--price must be a decimal number below 8.5e19 with at most 18 fraction digits, not \"\(priceText)\"", code: 2) }
    var fee = ExactDecimal.zero
    if let feeText = options.fee {
        guard let value = ExactDecimal(feeText) else { fail("--fee must be a decimal number below 8.5e19 with at most 18 fraction digits, not \"\(feeText)\"", code: 2) }
        fee = value
    }
    var timestamp = LedgerTimestamp.now()
    if let at = options.at {
        guard let value = LedgerTimestamp.parse(at) else {
            fail("--at must be an RFC 3339 time such as 2024-03-01T12:30:00Z or 2024-03-01, not \"\(at)\"", code: 2)
        }
        timestamp = value
    }
    let engine = try cli.openEngine()
    let stored: Transaction
    do {
        stored = try engine.addTransaction(
            Transaction(
                portfolio: options.portfolio, coinID: coinID, kind: kind, amount: amount, price: price, fee: fee,
                timestamp: timestamp, note: options.note))
    } catch let error as CoinfolioError where error.details["short_by"] != nil {
        var short = ""
        if case .number(let value)? = error.details["short_by"] { short = " (short by \(ExactDecimal(value) ?? .zero))" }
        fail("cannot sell more \(coinID) than the portfolio holds at that time\(short)", code: 1)
    }
    if options.json { sayJSON(stored.json); return }
    let verb = kind == .buy ? "bought" : "sold"
    say(
        "\(verb) \(amount) \(coinID) at \(NumberFormat.price(price.double, vsCurrency: try cli.portfolioCurrency(engine))) (transaction \(stored.id ?? 0))"
    )
}

extension CLI {
    /// The quote currency of `--portfolio` (its own, or the engine's for "main").
    func portfolioCurrency(_ engine: PortfolioEngine) throws -> VsCurrency {
        let code = try engine.portfolios().first { $0.name == options.portfolio }?.vsCurrency ?? options.vsCurrency
        return (try? VsCurrency(code)) ?? .usd
    }
}

extension Terminal {
    /// `text` in green when `value` > 0, red when < 0, plain otherwise or when unknown.
    func signed(_ text: String, _ value: ExactDecimal?) -> String {
        guard let value, !value.isZero else { return text }
        return paint(text, value.isNegative ? "31" : "32")
    }
}
