import Coinfolio
import Foundation

/// `performance [--range 24h|7d|30d|90d|1y|ytd|max|FROM..TO] [--benchmark COIN] [--svg FILE]`: the
/// `--portfolio`'s value at the ends of the range, its flows, gain, roi, twr and mwr, a benchmark
/// coin's change, and how many days lack a stored price — with the values as a line chart.
struct PerformanceCommand: Command {
    static let name = "performance"
    static let operandCount: ClosedRange<Int>? = 0...0
    static let usage = [
        Usage(
            operands: "", optional: [.range, .benchmark, .svg],
            summary: """
                value, flows, gain, roi, time- and money-weighted returns over the
                range (default max), from stored prices; days without one listed
                """)
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let engine = try cli.openEngine()
        var performance = PerformanceOptions(portfolio: options.portfolio, benchmark: options.benchmark)
        if let range = options.range {
            if let dots = range.range(of: "..") {
                let end = String(range[dots.upperBound...])
                performance.range = try .init(from: String(range[..<dots.lowerBound]), to: end.isEmpty ? nil : end)
            } else {
                do {
                    performance.range = try .init(name: range)
                } catch var error as CoinfolioError {
                    // The library names its JSON form ({"from","to"}); the CLI's is FROM..TO.
                    error.message =
                        "--range must be 24h, 7d, 30d, 90d, 1y, ytd, max or FROM..TO (2024-01-01..2024-07-01), not \"\(range.prefix(64))\""
                    throw error
                }
            }
        }
        let report = try engine.performance(performance)
        try cli.writeSVG(options.svg, title: "\(report.portfolio ?? "every portfolio"), value") { report.svg($0) }
        if options.json { sayJSON(report.json); return }
        let terminal = cli.terminal
        let vs = (try? VsCurrency(report.vsCurrency)) ?? .usd
        func money(_ value: PreciseDecimal?, signed: Bool = false) -> String {
            guard let value else { return NumberFormat.notAvailable }
            let text = NumberFormat.value(abs(value.double), vsCurrency: vs)
            return signed ? terminal.signed((value.isNegative ? "-" : "+") + text, value) : NumberFormat.value(value.double, vsCurrency: vs)
        }
        func percent(_ value: Double?) -> String { value.map { terminal.change($0) } ?? NumberFormat.notAvailable }
        let ends = "\(LedgerTimestamp.format(report.from)) → \(LedgerTimestamp.format(report.to))"
        say(terminal.bold(Terminal.printable(report.portfolio ?? "every portfolio")) + terminal.dim(" \(ends), \(report.vsCurrency)"))
        let rising = (report.endValue ?? .zero) >= (report.startValue ?? .zero)
        // A range over which nothing was held draws no flat line on a $0.00 axis: it says so.
        if report.points.allSatisfy({ $0.value?.isZero == true }) {
            say(terminal.dim("(nothing held over this range)"))
        } else {
            drawChart(report, vs: vs, rising: rising, terminal: terminal)
        }
        say("Start value  \(money(report.startValue))")
        say("End value    \(money(report.endValue))")
        say("Net flows    \(money(report.netFlows, signed: true))")
        say("Gain         \(money(report.gain, signed: true))")
        say("ROI          \(percent(report.roi))")
        say("TWR          \(percent(report.twr))")
        say("MWR          \(Self.moneyWeighted(report, percent: percent, dim: terminal.dim))")
        if let benchmark = report.benchmark {
            say("\(Terminal.printable(benchmark.coinID).padding(toLength: 12, withPad: " ", startingAt: 0)) \(percent(benchmark.change))")
        }
        let days = report.points.count
        var coverage = "Coverage     \(NumberFormat.percent(report.coverage * 100)) of \(days) points"
        if !report.missing.isEmpty {
            let listed = report.missing.prefix(3).map { day in
                "\(LedgerTimestamp.format(day.day * 86_400_000).prefix(10)) \(day.coinIDs.map { Terminal.printable($0) }.joined(separator: " "))"
            }
            coverage +=
                ": no stored price on \(report.missing.count) day\(report.missing.count == 1 ? "" : "s") ("
                + listed.joined(separator: ", ") + (report.missing.count > 3 ? ", …" : "") + ")"
        }
        say(report.coverage < 1 || !report.missing.isEmpty ? terminal.dim(coverage) : coverage)
        if !report.missing.isEmpty {
            // The two ways to price a missing day (SPEC §17): CoinGecko's points of that day,
            // stored by `price --at`, or the owner's manual price of that UTC day.
            say(terminal.dim("Fill a day: price COIN --at DAY (stores CoinGecko's points of that day) or set-price COIN PRICE --at DAY"))
        }
        if let path = options.svg { say(terminal.dim("wrote \(path)")) }
    }

    /// The values as a line chart as wide as the terminal, green when the range ends at or above its start.
    func drawChart(_ report: PerformanceReport, vs: VsCurrency, rising: Bool, terminal: Terminal) {
        let environment = ProcessInfo.processInfo.environment
        let chart = LineChart(points: report.points.map { (time: Double($0.time), value: $0.value?.double) }, vsCurrency: vs)
        for line in chart.render(
            width: Terminal.width(environment: environment), height: 10, unicode: Terminal.isUTF8(environment: environment),
            paint: { terminal.paint($0, rising ? "32" : "31") })
        {
            say(line)
        }
    }

    /// The MWR line: the yearly rate (SPEC §19's `mwr`); over a range shorter than a year, the
    /// rate over the range first, (1 + mwr)^(days/365) − 1, with the yearly rate beside it in
    /// brackets — as GIPS has it, a return for less than a year is not shown annualized alone (a
    /// week's +2 % reads as +180 % a year).
    static func moneyWeighted(_ report: PerformanceReport, percent: (Double?) -> String, dim: (String) -> String) -> String {
        guard let yearly = report.mwr else { return percent(nil) }
        let days = Double(report.to - report.from) / 86_400_000
        guard days > 0, days < 365 else { return percent(yearly) + dim(" a year") }
        let over = (pow(1 + yearly / 100, days / 365) - 1) * 100
        guard over.isFinite else { return percent(yearly) + dim(" a year") }
        let span = days.rounded() == days ? "\(Int(days)) day\(days == 1 ? "" : "s")" : String(format: "%.1f days", days)
        return percent(over) + dim(" over \(span) (\(percent(yearly)) a year)")
    }
}
