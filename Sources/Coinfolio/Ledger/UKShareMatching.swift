/// The identification rules of UK share pooling for one coin in one portfolio (HMRC's
/// Cryptoassets Manual CRYPTO22200–CRYPTO22256, TCGA 1992 s105, s106A and s104; SPEC §19), worked
/// out over the whole ledger before it is run, because a disposal may match acquisitions made after
/// it:
///
/// 1. Same day (s105): a UTC day's acquisitions (buys and income) count as one acquisition at their
///    average cost and its disposals (sells and fee rows) as one disposal; the smaller of the two
///    is matched.
/// 2. Thirty days (s106A "bed and breakfast"): what a day's disposal still lacks matches the
///    acquisitions of the 30 days after it (day + 1 … day + 30), earliest first, and earlier
///    disposals match first; an acquisition's units matched once are gone.
/// 3. Everything else goes through the Section 104 pool (`UKShareLots`): unmatched acquisitions
///    join it, the rest of each disposal leaves it at its average cost.
///
/// A day's matches are shared among its disposals in proportion to their units, and each
/// acquisition of a day gives the same share of its units to the day's matches, the last of each
/// taking the remainder so that every share adds up exactly. A share of units is a whole number
/// of the ledger's smallest unit (1e-18), so every count of units stays exact (a share rounded
/// to 38 digits left dust that a later disposal found missing from the pool). What a day's
/// acquisitions keep joins the pool at the day's average cost (s105), shared among them the same
/// way. Transfers are no acquisition or disposal: a transfer in joins the pool, a transfer out
/// leaves it.
struct UKShareMatching {
    /// One entry's part of the plan, at its ledger point.
    struct Planned<Value> {
        var at: LedgerPoint
        var value: Value
    }

    /// Where the pieces each disposal matched by rules 1 and 2 lie in `matchedLots` (in the order
    /// of the rules and then of the acquisitions), in ledger order; a disposal not listed matched
    /// none. One array of pieces for the coin, not an array per disposal (an allocation and a
    /// free each, a sixth of the plan's time).
    private(set) var matched: [Planned<Range<Int>>] = []
    /// Every disposal's matched pieces, disposal after disposal (see `matched`).
    private(set) var matchedLots: [Lot] = []
    /// The units each acquisition's day gave to matches (they never reach the pool) and, when the
    /// day's acquisitions were all of known cost, the lot the acquisition adds to the pool instead
    /// of its own rest (its share of what the day kept, at the day's average cost; nil when it
    /// keeps nothing), in ledger order; an acquisition not listed gave none.
    private(set) var reserved: [Planned<Reserved>] = []

    /// An acquisition's part in its day's matches.
    struct Reserved {
        var units: PreciseDecimal
        var pooled: Lot?
        /// Whether `pooled` stands for the acquisition's rest (the day's acquisitions were all of known cost).
        var planned: Bool
    }

    /// The value `list` (in ledger order) plans for the entry at `point`, read with `cursor`: the
    /// entries are asked in ledger order, so the cursor passes over the points before `point`
    /// (entries never asked for) and stops after `point`'s own (no hashing, no lookup).
    static func take<Value>(_ list: [Planned<Value>], at point: LedgerPoint, cursor: inout Int) -> Value? {
        while cursor < list.count, precedes(list[cursor].at, point) { cursor += 1 }
        guard cursor < list.count, list[cursor].at == point else { return nil }
        cursor += 1
        return list[cursor - 1].value
    }

    /// How far after a disposal's day its acquisitions match: 30 days (CRYPTO22253, CG51560: a
    /// repurchase on day 31 falls to the pool).
    static let window: Int64 = 30

    /// An entry of a day: its point and units.
    private typealias DayEntry = (at: LedgerPoint, units: PreciseDecimal)

    /// One day's acquisitions as one: their units and cost (an average pool, known and unknown
    /// cost apart), what was matched from them, and their entries (a range of one array shared
    /// by every day: a day's entries are adjacent in ledger order).
    private struct Acquisitions {
        var day: Int64
        var pool = AverageCostLots()
        var units = PreciseDecimal.zero
        var matchedUnits = PreciseDecimal.zero
        var entries: Range<Int>
    }

    /// One day's disposals as one: their units, what is still unmatched, the matches (rule 1's a
    /// range of one array shared by every day, rule 2's of another: each rule runs over the days
    /// in order, so a day's matches by one rule are adjacent), the entries (a range of one array
    /// shared by every day).
    private struct Disposals {
        var day: Int64
        var units = PreciseDecimal.zero
        var unmatched = PreciseDecimal.zero
        var sameDay = 0..<0
        var later = 0..<0
        var entries: Range<Int>
        var hasMatches: Bool { !sameDay.isEmpty || !later.isEmpty }
    }

    /// The plan for `entries` (one coin of one portfolio, in ledger order).
    init(_ entries: [LedgerEntry]) {
        var acquisitions: [Acquisitions] = []
        var disposals: [Disposals] = []
        var acquired: [DayEntry] = []
        var disposed: [DayEntry] = []
        // Room for every entry in each (arrays grown by doubling were copied at each).
        acquisitions.reserveCapacity(entries.count)
        disposals.reserveCapacity(entries.count)
        acquired.reserveCapacity(entries.count)
        disposed.reserveCapacity(entries.count)
        for entry in entries {
            let day = UTCDay.number(of: entry.timestamp)
            switch entry.kind {
            case .buy, .income:
                if acquisitions.last?.day != day {
                    acquisitions.append(Acquisitions(day: day, entries: acquired.count..<acquired.count))
                }
                var cost: PreciseDecimal?
                if let price = entry.price, let fee = entry.fee { cost = entry.units * price + fee }
                acquisitions[acquisitions.count - 1].pool.add(Lot(units: entry.units, cost: cost, acquired: entry.point))
                acquisitions[acquisitions.count - 1].units += entry.units
                acquired.append((entry.point, entry.units))
                acquisitions[acquisitions.count - 1].entries = acquisitions[acquisitions.count - 1].entries.lowerBound..<acquired.count
            case .sell, .fee:
                if disposals.last?.day != day { disposals.append(Disposals(day: day, entries: disposed.count..<disposed.count)) }
                disposals[disposals.count - 1].units += entry.units
                disposals[disposals.count - 1].unmatched += entry.units
                disposed.append((entry.point, entry.units))
                disposals[disposals.count - 1].entries = disposals[disposals.count - 1].entries.lowerBound..<disposed.count
            case .transferIn, .transferOut:
                continue
            }
        }
        guard !acquisitions.isEmpty, !disposals.isEmpty else { return }
        var sameDayLots: [Lot] = []
        var laterLots: [Lot] = []
        // Rule 1, every day first: a later day's same-day match comes before an earlier day's
        // thirty-day match (CRYPTO22256).
        var first = 0
        for index in disposals.indices {
            while first < acquisitions.count, acquisitions[first].day < disposals[index].day { first += 1 }
            if first < acquisitions.count, acquisitions[first].day == disposals[index].day {
                let start = sameDayLots.count
                Self.match(&disposals[index], &acquisitions[first], into: &sameDayLots)
                disposals[index].sameDay = start..<sameDayLots.count
            }
        }
        // Rule 2, the earliest disposal first.
        first = 0
        for index in disposals.indices where !disposals[index].unmatched.isZero {
            let day = disposals[index].day
            while first < acquisitions.count, acquisitions[first].day <= day { first += 1 }
            var next = first
            let start = laterLots.count
            while next < acquisitions.count, acquisitions[next].day <= day + Self.window, !disposals[index].unmatched.isZero {
                Self.match(&disposals[index], &acquisitions[next], into: &laterLots)
                next += 1
            }
            disposals[index].later = start..<laterLots.count
        }
        // Days in ledger order, each day's entries in ledger order: the lists come out in ledger order.
        matched.reserveCapacity(disposals.reduce(0) { $0 + ($1.hasMatches ? $1.entries.count : 0) })
        matchedLots.reserveCapacity(sameDayLots.count + laterLots.count)
        reserved.reserveCapacity(acquisitions.reduce(0) { $0 + ($1.matchedUnits.isZero ? 0 : $1.entries.count) })
        for day in disposals where day.hasMatches {
            share(day, disposed[day.entries], sameDayLots[day.sameDay], laterLots[day.later])
        }
        for day in acquisitions where !day.matchedUnits.isZero {
            // What the day kept, when all of known cost: one lot at the day's average cost.
            var (keptCount, keptFirst, keptKnown) = (0, Lot?.none, true)
            day.pool.forEachLot { lot in
                if keptCount == 0 { keptFirst = lot }
                keptCount += 1
                if lot.cost == nil { keptKnown = false }
            }
            let planned = keptKnown && keptCount <= 1
            var left = keptFirst
            let entries = acquired[day.entries]
            Self.forEachShare(of: day.matchedUnits, among: entries, total: day.units) { offset, at, units in
                let keeps = entries[entries.startIndex + offset].units - units
                var pooled: Lot?
                if planned, !keeps.isZero, var rest = left {
                    pooled = offset == entries.count - 1 ? rest : rest.split(keeps)
                    pooled?.acquired = at
                    left = rest
                }
                reserved.append(Planned(at: at, value: Reserved(units: units, pooled: pooled, planned: planned)))
            }
        }
    }

    /// Matches what `disposals` still lacks with what `acquisitions` still has, appending the
    /// pieces to `lots`.
    private static func match(_ disposals: inout Disposals, _ acquisitions: inout Acquisitions, into lots: inout [Lot]) {
        let available = acquisitions.units - acquisitions.matchedUnits
        guard !available.isZero else { return }
        let units = min(disposals.unmatched, available)
        acquisitions.pool.remove(units, into: &lots)
        acquisitions.matchedUnits += units
        disposals.unmatched -= units
    }

    /// Shares a day's matches (`sameDay`, then `later`) among its disposals (`entries`) in
    /// proportion to their units.
    private mutating func share(_ day: Disposals, _ entries: ArraySlice<DayEntry>, _ sameDay: ArraySlice<Lot>, _ later: ArraySlice<Lot>) {
        guard entries.count > 1 else {
            guard let only = entries.first else { return }
            let start = matchedLots.count
            matchedLots.append(contentsOf: sameDay)
            matchedLots.append(contentsOf: later)
            matched.append(Planned(at: only.at, value: start..<matchedLots.count))
            return
        }
        var pieces = [[Lot]](repeating: [], count: entries.count)
        for match in [sameDay, later].joined() {
            let shares = Self.shares(of: match.units, among: entries, total: day.units)
            var rest = match
            for (index, share) in shares.enumerated() where !share.units.isZero {
                pieces[index].append(index == shares.count - 1 ? rest : rest.split(share.units))
            }
        }
        for (index, entry) in entries.enumerated() where !pieces[index].isEmpty {
            let start = matchedLots.count
            matchedLots.append(contentsOf: pieces[index])
            matched.append(Planned(at: entry.at, value: start..<matchedLots.count))
        }
    }

    /// `part` shared among `entries` in proportion to their units (which add up to `total`), each
    /// share rounded to the ledger's 18 fraction digits (half to even), the last taking the
    /// remainder.
    private static func shares(of part: PreciseDecimal, among entries: ArraySlice<DayEntry>, total: PreciseDecimal)
        -> ArraySlice<DayEntry>
    {
        var result = entries
        forEachShare(of: part, among: entries, total: total) { offset, _, units in result[result.startIndex + offset].units = units }
        return result
    }

    /// `shares(of:among:total:)` handed to `body` one by one (offset, point, units), without a
    /// copy of the entries (a day's acquisitions made one copy each, an allocation).
    private static func forEachShare(
        of part: PreciseDecimal, among entries: ArraySlice<DayEntry>, total: PreciseDecimal,
        _ body: (Int, LedgerPoint, PreciseDecimal) -> Void
    ) {
        guard part != total else {
            for (offset, entry) in entries.enumerated() { body(offset, entry.at, entry.units) }
            return
        }
        var given = PreciseDecimal.zero
        for index in entries.indices {
            let offset = index - entries.startIndex
            guard index < entries.endIndex - 1 else {
                body(offset, entries[index].at, part - given)
                return
            }
            let exact = entries[index].units.multiplied(by: part, dividedBy: total)
            let share = min(exact.roundedToLedger.map(PreciseDecimal.init) ?? exact, part - given)
            given += share
            body(offset, entries[index].at, share)
        }
    }
}
