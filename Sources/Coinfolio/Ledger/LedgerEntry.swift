/// A point of the ledger order: timestamp, then insertion (the row id). Entries after a point have
/// a later timestamp, or the same one and a larger id; `(t, Int64.max)` is where a new entry at
/// `t` goes (after every entry at `t`).
typealias LedgerPoint = (timestamp: Int64, id: Int64)

/// Whether point a comes before point b in ledger order.
@inline(__always) func precedes(_ a: LedgerPoint, _ b: LedgerPoint) -> Bool {
    a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.id < b.id
}

/// One transaction as the cost basis calculator and the never-negative check need it: compact,
/// in ledger order.
struct LedgerEntry: Sendable {
    var id: Int64
    var timestamp: Int64
    var kind: TransactionKind
    var amount: ExactDecimal
    /// `amount` as a `PreciseDecimal`, converted once when the entry is read (the calculator's
    /// arithmetic is in that type; a cached ledger is computed again and again).
    var units: PreciseDecimal
    /// Price per unit in the portfolio's currency; nil for transfers and pending prices.
    var price: PreciseDecimal?
    /// The fee's value in the portfolio's currency: the fee itself, or the value (amount ×
    /// price) of the linked fee row when the fee was paid in a coin; nil while that price is
    /// pending.
    var fee: PreciseDecimal?
    /// The row's group (SPEC §16) as a number standing for its `group_id` (`LedgerGroupNumbers`;
    /// 0: none): a transfer_out and a transfer_in of one group are a move, the second receiving
    /// the lots the first removed. A number, not the text, so that an entry is plain bytes: the
    /// calculator copies entries without reference counting.
    var group: Int32
    /// The fee was paid in a coin (`fee_coin_id`): its value is a disposal of that coin, no money
    /// from outside (SPEC §19: not a flow).
    var feeInCoin = false

    init(
        id: Int64, timestamp: Int64, kind: TransactionKind, amount: ExactDecimal, price: PreciseDecimal? = nil,
        fee: PreciseDecimal? = .zero, group: Int32 = 0, feeInCoin: Bool = false
    ) {
        self.id = id
        self.timestamp = timestamp
        self.kind = kind
        self.amount = amount
        self.units = PreciseDecimal(amount)
        self.price = price
        self.fee = fee
        self.group = group
        self.feeInCoin = feeInCoin
    }

    var point: LedgerPoint { (timestamp, id) }
    /// The amount with the sign of its effect on the holding.
    var signedAmount: ExactDecimal { kind.adds ? amount : -amount }
}

/// Numbers standing for group ids within one store (1, 2, …; the same text always gets the same
/// number), so that ledger entries carry no strings.
struct LedgerGroupNumbers: Sendable {
    private var numbers: [String: Int32] = [:]

    /// The number of `groupID` (given the next one on first sight).
    mutating func number(_ groupID: String) -> Int32 {
        if let known = numbers[groupID] { return known }
        let next = Int32(truncatingIfNeeded: numbers.count + 1)
        numbers[groupID] = next
        return next
    }
}

/// What went wrong with a running amount: it fell below zero (SPEC §12 "never negative"), or
/// rose past what the ledger holds exactly (`ExactDecimal`'s ±8.5 × 10¹⁹).
enum RunningAmountBreach {
    case short(by: ExactDecimal)
    case outOfRange
}

/// The first entry after which the running amount of one coin, in ledger order, goes below zero
/// or beyond the ledger's range, and what happened there. `held` is what is held before the
/// first entry (zero for a coin's whole ledger).
func firstBreach(_ entries: [LedgerEntry], startingAt start: ExactDecimal = .zero) -> (entry: LedgerEntry, breach: RunningAmountBreach)? {
    var held = start
    for entry in entries {
        // Both terms are within ±8.5e19, so the sum cannot wrap; the check keeps it so.
        held += entry.signedAmount
        if held.isNegative { return (entry, .short(by: -held)) }
        if held.units > ExactDecimal.maximumUnits { return (entry, .outOfRange) }
    }
    return nil
}
