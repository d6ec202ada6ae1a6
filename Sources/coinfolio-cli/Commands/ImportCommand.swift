import Coinfolio
import Foundation

/// `import FILE.csv`: ledger rows (timestamp,portfolio,coin_id,kind,amount,price,fee,note,
/// external_id), read 64 KiB at a time; all rows or none; rows already there are skipped.
struct ImportCommand: Command {
    static let name = "import"
    static let operandCount: ClosedRange<Int>? = 1...1
    static let usage = [
        Usage(
            operands: "FILE.csv",
            summary: """
                import transactions (timestamp,portfolio,coin_id,kind,amount,price,
                fee,note,external_id[,fee_coin_id,fee_price,income_type,group_id]):
                all rows or none; known external ids skipped
                """)
    ]

    func run(_ cli: CLI) throws {
        let path = cli.options.operands[0]
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            fail("cannot read \(path): no such file (nothing was imported)", code: 1)
        }
        if isFolder.boolValue { fail("cannot read \(path): it is a folder, not a file (nothing was imported)", code: 1) }
        let engine = try cli.openEngine()
        let summary: ImportSummary
        do {
            defer { if ProgressBar.isEnabled { ProgressBar.clear() } }
            summary = try engine.importCSV(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CoinfolioError where error.code == .invalidArgument {
            fail("\(path): \(error.message) (nothing was imported)", code: 1)
        }
        if cli.options.json { sayJSON(summary.json); return }
        say(
            "imported \(summary.imported) transaction\(summary.imported == 1 ? "" : "s")"
                + (summary.skipped > 0 ? ", skipped \(summary.skipped) already there" : ""))
    }
}
