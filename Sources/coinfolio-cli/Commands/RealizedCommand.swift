import Coinfolio
import Foundation

/// `realized [--year Y] [--method fifo|lifo|hifo|lofo|average|uk] [--tax-free-after N] [--csv]`: each lot the `--portfolio`'s
/// disposals took, with its holding days, term, proceeds, cost and gain, then the totals and the
/// income; `--csv` writes the rows in Form 8949-like columns instead.
struct RealizedCommand: Command {
    static let name = "realized"
    static let operandCount: ClosedRange<Int>? = 0...0
    static let usage = [
        Usage(
            operands: "", optional: [.year, .method, .taxFreeAfter, .csv],
            summary: """
                each lot sold with its holding days, term, proceeds, cost and gain
                (uk: UK share pooling); --csv: Form 8949-like columns
                """)
    ]

    func run(_ cli: CLI) throws {
        let options = cli.options
        let engine = try cli.openEngine()
        var realized = RealizedOptions(
            portfolio: options.portfolio, method: CostBasisMethod(rawValue: options.method) ?? .fifo,
            taxFreeAfterYears: options.taxFreeAfter, format: options.csv ? .csv : .json)
        if let year = options.year { (realized.from, realized.to) = try RealizedOptions.year(year) }
        let report = try engine.realized(realized)
        if options.csv {
            writeOutput(Data(report.csv))
            return
        }
        if options.json { sayJSON(report.json); return }
        if report.rows.isEmpty && report.income.isEmpty {
            say("nothing was sold\(options.year.map { " in \($0)" } ?? "") and no income came in")
            return
        }
        let terminal = cli.terminal
        let vs = (try? VsCurrency(report.vsCurrency)) ?? .usd
        func money(_ value: PreciseDecimal?) -> String {
            value.map { NumberFormat.value($0.double, vsCurrency: vs) } ?? NumberFormat.notAvailable
        }
        func date(_ time: Int64) -> String { String(LedgerTimestamp.format(time).prefix(10)) }
        let taxFree = realized.taxFreeAfterYears != nil
        let rows = report.rows.map { row -> [String] in
            [
                date(row.disposedAt), Terminal.printable(row.coinID), row.amount.description, date(row.acquiredAt), String(row.holdingDays),
                row.term.rawValue, money(row.proceeds), money(row.cost), terminal.signed(money(row.gain), row.gain),
            ] + (taxFree ? [row.taxFree == true ? "yes" : "no"] : [])
        }
        if !rows.isEmpty {
            say(
                Terminal.table(
                    ["DISPOSED", "COIN", "AMOUNT", "ACQUIRED", "DAYS", "TERM", "PROCEEDS", "COST", "GAIN"] + (taxFree ? ["TAX-FREE"] : []),
                    rows,
                    right: [2, 4, 6, 7, 8]))
        }
        let totals = report.totals
        // The line's totals are over the rows whose gain is known, so that gain = proceeds − cost
        // (the JSON's proceeds and cost also count a known side of the other rows); over no such
        // row they are unknown ("n/a"), never $0.00 (SPEC §17: a sale at a pending price).
        let gainKnown = totals.coverage > 0
        func total(_ value: PreciseDecimal) -> PreciseDecimal? { gainKnown ? value : nil }
        var proceeds = PreciseDecimal.zero
        var cost = PreciseDecimal.zero
        for row in report.rows where row.gain != nil {
            proceeds += row.proceeds ?? .zero
            cost += row.cost ?? .zero
        }
        let gain = total(totals.gain)
        say(
            "\(terminal.bold("Gain")): \(terminal.signed(money(gain), gain))  "
                + "short term \(money(total(totals.shortTermGain))), long term \(money(total(totals.longTermGain)))  "
                + (taxFree ? "\(terminal.bold("Taxable")): \(money(total(totals.taxableGain)))  " : "")
                + "\(terminal.bold("Proceeds")): \(money(total(proceeds)))  \(terminal.bold("Cost")): \(money(total(cost)))  "
                + terminal.dim("(\(report.method.rawValue), \(Terminal.printable(report.portfolio ?? "every portfolio")))"))
        if totals.coverage < 1 {
            say(
                terminal.dim(
                    "\(NumberFormat.percent((1 - totals.coverage) * 100)) of the rows have no known gain "
                        + "(a lot transferred in without its cost, or a pending price): left out of the totals"
                ))
        }
        if !report.income.isEmpty {
            let pending = report.income.filter { $0.value == nil }.count
            say(
                "\(terminal.bold("Income")): \(pending == report.income.count ? NumberFormat.notAvailable : money(report.incomeTotal)) "
                    + "from \(report.income.count) transaction\(report.income.count == 1 ? "" : "s")"
                    + (pending > 0 ? ", \(pending) with a pending price (left out)" : "")
            )
        }
    }
}
