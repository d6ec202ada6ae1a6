@_spi(Files) import Coinfolio
import Foundation

/// What `chart COIN` and `portfolio --history` share: a terminal line chart with its summary, or
/// the library's JSON with `--json`; `--svg FILE` also writes the SVG (a new FILE 0600, like the
/// database).
extension CLI {
    /// One coin's chart over `--days` (default 7).
    func showChart(_ engine: PortfolioEngine, coinID: String) throws {
        let days: ChartDays = options.days.map { $0 == "max" ? .max : .days(Int($0) ?? 7) } ?? .days(7)
        let chart = try engine.chart(coinID: coinID, ChartOptions(days: days))
        var name = coinID
        if let coin = try? engine.coins(CoinQuery(search: coinID)).coins.first(where: { $0.id == coinID }) {
            name = "\(coin.name) (\(coin.symbol.uppercased()))"
        }
        let period = chart.days == .max ? "all history" : "\(chart.days) day\(chart.days == .days(1) ? "" : "s")"
        let title = "\(name), \(period)"
        try writeSVG(options.svg, title: title) { chart.svg($0) }
        if options.json { sayJSON(chart.json); return }
        say(terminal.bold(Terminal.printable(title)) + (chart.clamped ? terminal.dim(" (the plan allows 365 days)") : ""))
        show(chart.points.map { ($0.time, $0.value) }, summary: chart.summary, vsCurrency: chart.vsCurrency)
        if let path = options.svg { say(terminal.dim("wrote \(path)")) }
    }

    /// The portfolio's last 7 days, from the snapshot's sparklines.
    func showPortfolioHistory(_ engine: PortfolioEngine) throws {
        let history = try engine.portfolioHistory()
        try writeSVG(options.svg, title: "Portfolio, 7 days") { history.svg($0) }
        if options.json { sayJSON(history.json); return }
        say(terminal.bold("Portfolio, 7 days"))
        show(history.points.map { ($0.time, $0.value) }, summary: history.summary, vsCurrency: history.vsCurrency)
        let partial = history.points.filter(\.partial).count
        if partial > 0 { say(terminal.dim("\(partial) of \(history.points.count) hours miss the price of some coin")) }
        if let path = options.svg { say(terminal.dim("wrote \(path)")) }
    }

    /// Writes the SVG `render` draws to `path` (nothing without one), owner-only.
    func writeSVG(_ path: String?, title: String, _ render: (ChartSVGOptions) -> String) throws {
        guard let path else { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CoinfolioError(.invalidArgument, "cannot write \(path): there is no folder \(folder)")
        }
        let svg = render(try ChartSVGOptions(width: 800, height: 400, title: title))
        // Owner-only (0600) like the database: the chart shows what the portfolio holds.
        let handle = try OwnerOnlyFile.openForWriting(path)
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data(svg.utf8))
        } catch {
            throw CoinfolioError(.invalidArgument, "cannot write \(path): \(error.localizedDescription)")
        }
    }

    private func show(_ points: [(Double, Double?)], summary: ChartSummary, vsCurrency: VsCurrency) {
        let environment = ProcessInfo.processInfo.environment
        let rising = (summary.last ?? 0) >= (summary.first ?? 0)
        let lines = LineChart(points: points.map { (time: $0.0, value: $0.1) }, vsCurrency: vsCurrency).render(
            width: Terminal.width(environment: environment), height: 12, unicode: Terminal.isUTF8(environment: environment),
            paint: { terminal.paint($0, rising ? "32" : "31") })
        for line in lines { say(line) }
        guard let first = summary.first, let last = summary.last else { return }
        func price(_ value: Double?) -> String { value.map { NumberFormat.price($0, vsCurrency: vsCurrency) } ?? NumberFormat.notAvailable }
        func at(_ time: Double?) -> String { time.map { " at " + LineChart.date($0, withTime: true) } ?? "" }
        let change =
            summary.change.map { ($0 < 0 ? "-" : "+") + NumberFormat.price(abs($0), vsCurrency: vsCurrency) } ?? NumberFormat.notAvailable
        say("First  \(price(first))")
        say("Last   \(price(last))")
        say("Change \(change) \(terminal.change(summary.percentageChange))".trailingSpacesRemoved)
        say("Low    \(price(summary.min))\(at(summary.minAt))")
        say("High   \(price(summary.max))\(at(summary.maxAt))")
    }
}
