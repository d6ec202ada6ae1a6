import Coinfolio
import Foundation

/// `export [FILE.csv]`: the `--portfolio`'s transactions as CSV, to FILE or standard output.
struct ExportCommand: Command {
    static let name = "export"
    static let operandCount: ClosedRange<Int>? = 0...1
    static let usage = [
        Usage(operands: "[FILE.csv]", summary: "write the portfolio's transactions as CSV (standard output without FILE)")
    ]

    func run(_ cli: CLI) throws {
        let engine = try cli.openEngine()
        let portfolio = cli.options.portfolio
        guard let path = cli.options.operands.first else {
            try engine.exportCSV(portfolio: portfolio, to: FileHandle.standardOutput)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil) else { fail("cannot write \(path)", code: 1) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try engine.exportCSV(portfolio: portfolio, to: handle)
        try handle.synchronize()
    }
}
