/// The sums over `realized`'s rows, each over the rows whose figure is known.
public struct RealizedTotals: Hashable, Sendable {
    /// Σ proceeds.
    public var proceeds = PreciseDecimal.zero
    /// Σ cost.
    public var cost = PreciseDecimal.zero
    /// Σ gain.
    public var gain = PreciseDecimal.zero
    /// Σ gain of the short-term rows.
    public var shortTermGain = PreciseDecimal.zero
    /// Σ gain of the long-term rows.
    public var longTermGain = PreciseDecimal.zero
    /// Σ gain of the rows that are not tax-free (all of them without `tax_free_after_years`).
    public var taxableGain = PreciseDecimal.zero
    /// Share (0…1) of the rows whose gain is known; 1 when there is none.
    public var coverage: Double = 1

    init(_ rows: [RealizedRow]) {
        var sum = Sum()
        rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }
            for index in rows.indices { sum.add(base + index) }
        }
        self = sum.totals
    }

    private init() {}

    /// The sums taken row by row, in the rows' order (an answer written as its rows are made), each
    /// a `CompensatedSum`: the exact sum rounded once, not a running sum rounded at every row.
    ///
    /// While every known gain so far is of one term, that term's sum is not kept: it is the same
    /// additions from zero in the same order as `gain`'s, so the same value, digit for digit. Likewise
    /// the taxable sum while no row is tax-free (always, without `tax_free_after_years`). The first
    /// row that breaks the likeness sets the sum from `gain`'s before it. A sum of 38-digit shares
    /// costs a 128-bit division a row: two of the five sums a row are spared.
    struct Sum {
        private var proceeds = CompensatedSum()
        private var cost = CompensatedSum()
        private var gain = CompensatedSum()
        private var shortTermGain = CompensatedSum()
        private var longTermGain = CompensatedSum()
        private var taxableGain = CompensatedSum()
        private var known = 0
        private var count = 0
        /// The term of every known gain so far, while they are all of one (nil before the first).
        private var onlyTerm: Term?
        /// Whether the known gains so far are of both terms (both term sums then kept).
        private var bothTerms = false
        /// Whether no known gain so far is tax-free (the taxable sum then not kept).
        private var allTaxable = true

        /// Adds the row at `row` (read where it lies: no copy of it).
        mutating func add(_ row: UnsafePointer<RealizedRow>) {
            count += 1
            if let value = row.pointee.proceeds { proceeds.add(value) }
            if let value = row.pointee.cost { cost.add(value) }
            guard let value = row.pointee.gain else { return }
            known += 1
            let before = gain
            gain.add(value)
            let term = row.pointee.term
            if !bothTerms, onlyTerm != nil, onlyTerm != term {
                // The first gain of the other term: the one term's sum so far is `gain`'s before it.
                if term == .long { shortTermGain = before } else { longTermGain = before }
                bothTerms = true
            }
            if bothTerms {
                if term == .long { longTermGain.add(value) } else { shortTermGain.add(value) }
            } else {
                onlyTerm = term
            }
            if row.pointee.taxFree == true {
                if allTaxable { taxableGain = before }
                allTaxable = false
            } else if !allTaxable {
                taxableGain.add(value)
            }
        }

        /// The totals of the rows added.
        var totals: RealizedTotals {
            var totals = RealizedTotals()
            (totals.proceeds, totals.cost, totals.gain) = (proceeds.total, cost.total, gain.total)
            (totals.shortTermGain, totals.longTermGain) = (shortTermGain.total, longTermGain.total)
            if !bothTerms {
                if onlyTerm == .long { totals.longTermGain = totals.gain } else if onlyTerm == .short { totals.shortTermGain = totals.gain }
            }
            totals.taxableGain = allTaxable ? totals.gain : taxableGain.total
            totals.coverage = count == 0 ? 1 : Double(known) / Double(count)
            return totals
        }
    }

    /// The keys of `realized`'s `totals`, in the order written.
    enum JSONKey: String, WireKeys {
        case proceeds, cost, gain, shortTermGain = "short_term_gain", longTermGain = "long_term_gain", taxableGain = "taxable_gain"
        case coverage
    }

    func writeJSON(to w: inout JSONWriter) {
        w.key(JSONKey.proceeds); w.decimal(proceeds)
        w.key(JSONKey.cost); w.decimal(cost)
        w.key(JSONKey.gain); w.decimal(gain)
        w.key(JSONKey.shortTermGain); w.decimal(shortTermGain)
        w.key(JSONKey.longTermGain); w.decimal(longTermGain)
        w.key(JSONKey.taxableGain); w.decimal(taxableGain)
        w.key(JSONKey.coverage); w.number(coverage)
    }
}
