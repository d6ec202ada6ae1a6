import Coinfolio

/// `price COIN [--at TIME]`: the coin's price at TIME (default now) in `--vs-currency`, by the
/// rule of SPEC §17 (a manual point of that UTC day, a stored CoinGecko point of the day, the
/// snapshot within an hour, else one range request for the day — not with `--offline`), and
/// where it came from.
struct PriceCommand: Command {
    static let name = "price"
    static let operandCount: ClosedRange<Int>? = 1...1
    static let usage = [
        Usage(
            operands: "COIN", optional: [.at],
            summary: """
                the coin's price at TIME (default now) and where it came from: your manual
                price of that UTC day, CoinGecko's stored points, the snapshot within an
                hour, else one request for the day
                """)
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let time = cli.timestamp()
        let engine = try cli.openEngine()
        let answer: HistoricalPrice
        do {
            answer = try engine.priceAt(
                PriceQuery(coinID: options.operands[0], time: time, vsCurrency: VsCurrency(options.vsCurrency)), fetch: !options.offline)
        } catch let error as CoinfolioError where error.code == .noData {
            cli.failReporting(error, error.message, code: 1)
        }
        if options.json { say(answer.json); return }
        let currency = (try? VsCurrency(answer.vsCurrency)) ?? .usd
        let source: String
        switch answer.source {
        case .manual: source = "your manual price of \(LedgerTimestamp.format(answer.at))"
        case .coingecko: source = "CoinGecko's point of \(LedgerTimestamp.format(answer.at))"
        case .snapshot: source = "the snapshot, updated \(LedgerTimestamp.format(answer.at))"
        }
        let price = NumberFormat.price(answer.price, vsCurrency: currency)
        say("\(Terminal.printable(answer.coinID)) at \(LedgerTimestamp.format(answer.time)): \(price) (\(source))")
    }
}

/// `set-price COIN PRICE [--at TIME]`: a manual price in `--vs-currency`: with `--at`, a point
/// `price` takes for that whole UTC day; without, the coin's current price (values a holding the
/// snapshot has no price for). PRICE `none` removes it.
struct SetPriceCommand: Command {
    static let name = "set-price"
    static let operandCount: ClosedRange<Int>? = 2...2
    static let usage = [
        Usage(
            operands: "COIN PRICE|none", optional: [.at],
            summary: """
                a manual price in --vs-currency: for TIME's UTC day, or without --at the
                current price of a coin CoinGecko does not list; none removes it
                """)
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let text = options.operands[1]
        var price: ExactDecimal?
        if text != "none" {
            guard let value = ExactDecimal(text), !value.isNegative else {
                fail(
                    "PRICE must be a decimal number of 0 or more (at most 8.5e19, at most 18 fraction digits, a point not a comma) "
                        + "or none, not \"\(Terminal.printable(text))\"", code: 2)
            }
            price = value
        }
        let time = options.at.map { _ in cli.timestamp() }
        let currency = try VsCurrency(options.vsCurrency)
        let setting = try PriceSetting(coinID: options.operands[0], vsCurrency: currency, time: time, price: price)
        try cli.openEngine().setPrice(setting)
        let which = time.map { "price on the UTC day of \(LedgerTimestamp.format($0))" } ?? "current price"
        guard let price else {
            say("removed the manual \(which) of \(Terminal.printable(setting.coinID))")
            return
        }
        say("\(Terminal.printable(setting.coinID)) \(which): \(NumberFormat.price(price.double, vsCurrency: currency)) (manual)")
    }
}

/// `fill-prices [--portfolio NAME] [--max-requests N]`: prices the pending transactions (every
/// portfolio without `--portfolio`) from stored points, then from as few CoinGecko range
/// requests as they need, and says what is still pending and why.
struct FillPricesCommand: Command {
    static let name = "fill-prices"
    static let operandCount: ClosedRange<Int>? = 0...0
    static let usage = [
        Usage(
            operands: "", optional: [.maxRequests],
            summary: """
                price the transactions stored without one (every portfolio, or
                --portfolio): stored points first, then at most one CoinGecko request
                per coin, currency and year of their times (N at most, default 20)
                """)
    ]

    /// The rows listed one per line; the rest are counted.
    static let listed = 20

    func run(_ cli: CLI) throws {
        let options = cli.options
        let fill = try cli.openEngine().fillPrices(
            FillOptions(
                portfolio: options.portfolioGiven ? options.portfolio : nil,
                maxRequests: options.maxRequests ?? FillOptions.defaultMaxRequests))
        if ProgressBar.isEnabled { ProgressBar.clear() }
        if options.json { say(fill.json); return }
        say("filled \(fill.filled) price\(fill.filled == 1 ? "" : "s") with \(fill.requests) request\(fill.requests == 1 ? "" : "s")")
        guard !fill.missing.isEmpty else { return }
        say("\(fill.missing.count) still pending:")
        for row in fill.missing.prefix(Self.listed) {
            say(
                "  transaction \(row.transactionID) \(Terminal.printable(row.coinID)) \(LedgerTimestamp.format(row.timestamp)): \(Self.explain(row.reason))"
            )
        }
        if fill.missing.count > Self.listed { say("  … and \(fill.missing.count - Self.listed) more (--json lists them all)") }
    }

    /// What a reason means, for people.
    static func explain(_ reason: PriceGap) -> String {
        switch reason {
        case .noPoint: return "CoinGecko has no price that day"
        case .unknownCoin: return "CoinGecko does not know the coin"
        case .historyLimit: return "older than the plan's 365 days (a pro key reaches further)"
        case .maxRequests: return "not asked: --max-requests reached"
        case .rateLimited: return "CoinGecko asked to wait (rate limit); run fill-prices again later"
        }
    }
}
