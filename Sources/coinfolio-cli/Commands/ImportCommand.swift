import Coinfolio
import Foundation

/// `import FILE [--format F] [--dry-run] [--symbol SYMBOL=ID]…`: an exchange's or tracker's export
/// (SPEC §18) or Coinfolio's own CSV into `--portfolio`, all rows or none; with `--dry-run` the
/// rows that would be written, nothing written. A progress bar on stderr while it works.
struct ImportCommand: Command {
    static let name = "import"
    static let operandCount: ClosedRange<Int>? = 1...1
    static let usage = [
        Usage(
            operands: "FILE", optional: [.format, .dryRun, .symbol],
            summary: """
                import an exchange's or tracker's export (Coinbase, Binance, Kraken,
                CoinTracking, Koinly; detected from the header unless --format F says
                which: auto, coinfolio, coinbase, binance, kraken, cointracking or
                koinly) or Coinfolio's CSV: all rows or none; rows already there are
                skipped; --dry-run prints what would be written and writes nothing;
                --symbol BOND=barnbridge says which coin a ticker is
                """)
    ]

    func run(_ cli: CLI) throws {
        let path = cli.options.operands[0]
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            fail("cannot read \(Terminal.printable(path)): no such file (nothing was imported)", code: 1)
        }
        if isFolder.boolValue {
            fail("cannot read \(Terminal.printable(path)): it is a folder, not a file (nothing was imported)", code: 1)
        }
        let options = cli.options
        let engine = try cli.openEngine()
        let report: ImportReport
        do {
            defer { if ProgressBar.isEnabled { ProgressBar.clear() } }
            report = try engine.importFile(
                contentsOf: URL(fileURLWithPath: path),
                options: ImportOptions(
                    format: options.format, portfolio: options.portfolio, dryRun: options.dryRun, symbols: options.symbols))
        } catch let error as CoinfolioError where error.code == .invalidArgument {
            cli.failReporting(error, "\(Terminal.printable(path)): \(Self.explain(error))", code: 1)
        }
        if options.json { sayJSON(report.json); return }
        let name = "\(report.format.rawValue) \(report.variant)"
        let counted = "\(report.imported) transaction\(report.imported == 1 ? "" : "s")"
        let pending = report.pendingPrices > 0 ? " (\(report.pendingPrices) with a pending price)" : ""
        let skipped = report.skipped > 0 ? ", skipped \(report.skipped) already there" : ""
        if let planned = report.transactions {
            if !planned.isEmpty { say(TransactionsCommand.table(planned, vsCurrency: try cli.portfolioCurrency(engine))) }
            say("dry run of \(name): would import \(counted)\(pending)\(skipped); nothing was written")
        } else {
            say("\(name): imported \(counted)\(pending)\(skipped)")
        }
        for (title, notices) in [("ignored", report.ignored), ("warnings", report.warnings)] where !notices.isEmpty {
            say(cli.terminal.dim("\(title):"))
            for notice in notices { say("  line \(notice.line): \(Terminal.printable(notice.reason))") }
        }
        if !report.unknownSymbols.isEmpty {
            say("unknown symbols (say which with --symbol SYMBOL=ID):")
            for unknown in report.unknownSymbols { say("  " + Self.describe(unknown)) }
        }
    }

    /// The error's message and "nothing was imported"; for unknown symbols, each one on a line of
    /// its own with its candidates and how to say which (`--symbol BOND=barnbridge`).
    static func explain(_ error: CoinfolioError) -> String {
        guard error.reason == .unknownSymbols, case .array(let items)? = error.details[.symbols] else {
            return "\(Terminal.printable(error.message)) (nothing was imported)"
        }
        let lines = items.compactMap(UnknownSymbol.init(detail:)).map { "  " + describe($0) }
        return "nothing was imported: symbols that name no one coin (say which with --symbol SYMBOL=ID):\n" + lines.joined(separator: "\n")
    }

    /// "BOND: barnbridge or bond-protocol (--symbol BOND=barnbridge)", or "FOO: no coin has it".
    static func describe(_ unknown: UnknownSymbol) -> String {
        let symbol = Terminal.printable(unknown.symbol)
        guard let first = unknown.candidates.first else { return "\(symbol): no coin of the snapshot has it" }
        return
            "\(symbol): \(unknown.candidates.map { Terminal.printable($0) }.joined(separator: " or ")) (--symbol \(symbol)=\(Terminal.printable(first)))"
    }
}
