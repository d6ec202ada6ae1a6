@_spi(Files) import Coinfolio
import Foundation

/// `export [FILE.csv] [--all]`: the `--portfolio`'s transactions as CSV (every portfolio's with
/// `--all`, each row naming its portfolio, so importing the file restores them all), to FILE or
/// standard output (the exact bytes through a pipe; on a terminal with control characters made
/// visible). A new FILE is
/// created 0600 (`OwnerOnlyFile`); an existing one is rewritten and keeps its mode.
struct ExportCommand: Command {
    static let name = "export"
    static let operandCount: ClosedRange<Int>? = 0...1
    static let usage = [
        Usage(
            operands: "[FILE.csv]", optional: [.all],
            summary: """
                write the portfolio's transactions as CSV (standard output without FILE);
                --all: every portfolio's, each row naming its portfolio
                """)
    ]

    func run(_ cli: CLI) throws {
        // --all writes every portfolio: a --portfolio beside it would be ignored, so it is refused.
        if cli.options.allPortfolios, cli.options.portfolioGiven {
            fail("export takes --all or --portfolio, not both (see coinfolio-cli --help)", code: 2)
        }
        let engine = try cli.openEngine()
        let portfolio: String? = cli.options.allPortfolios ? nil : cli.options.portfolio
        guard let path = cli.options.operands.first else {
            if isatty(STDOUT_FILENO) == 1 {
                // Read by a person: cells (notes) may hold control characters, made visible.
                let text = String(decoding: try engine.exportCSV(portfolio: portfolio), as: UTF8.self)
                writeOutput(Data(Terminal.printable(text.replacingOccurrences(of: "\r\n", with: "\n"), multiline: true).utf8))
            } else {
                flushOutput()
                do {
                    try engine.exportCSV(portfolio: portfolio, to: FileHandle.standardOutput)  // the exact bytes
                } catch let error as CoinfolioError {
                    throw error
                } catch {
                    fail("cannot write the output: \(describe(error))", code: 1)
                }
            }
            return
        }
        let existed = FileManager.default.fileExists(atPath: path)
        // Owner-only (0600) like the database: a ledger is as private as the portfolio.
        let handle = try OwnerOnlyFile.openForWriting(path)
        do {
            try engine.exportCSV(portfolio: portfolio, to: handle)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            // A file this call created and could not fill is removed, not left half written.
            if !existed { try? FileManager.default.removeItem(atPath: path) }
            if let error = error as? CoinfolioError { throw error }
            fail("cannot write \(path): \(describe(error))\(existed ? "" : " (nothing was kept)")", code: 1)
        }
    }
}
