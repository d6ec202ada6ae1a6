/// What a ledger transaction does to a holding (SPEC §12, §16).
public enum TransactionKind: String, Sendable, CaseIterable {
    /// Units bought at `price` per unit; the fee adds to the lot's cost.
    case buy
    /// Units sold at `price` per unit; the fee reduces the proceeds.
    case sell
    /// Units arriving from elsewhere, of unknown cost (no price) — unless a move links it to a
    /// transfer_out, whose lots it then receives.
    case transferIn = "transfer_in"
    /// Units leaving to elsewhere; removes lots like a sell and realizes nothing (no price).
    case transferOut = "transfer_out"
    /// Units paid as a fee in a coin: a disposal at `price` that realizes (amount × price − the
    /// cost of the lots it takes); written by the engine after the transaction whose
    /// `fee_coin_id` names the coin, or alone.
    case fee
    /// Units received as income (staking, interest, airdrop, …), acquired at their market value
    /// `price` per unit; realizes nothing when received.
    case income

    /// Whether the kind adds units (buy, transfer_in, income); the others remove them.
    public var adds: Bool { self == .buy || self == .transferIn || self == .income }
    /// What `amount` units of this kind change a holding by: + for a kind that adds, − else.
    /// The one place the sign of a ledger row is decided (positions, holdings, the checks).
    func signed(_ amount: ExactDecimal) -> ExactDecimal { adds ? amount : -amount }
    /// Whether the kind carries a price per unit (buy, sell, fee, income); null there means
    /// pending (SPEC §17). Transfers never have one.
    public var hasPrice: Bool { self != .transferIn && self != .transferOut }

    /// The kind whose name is `utf8` (a database column read in place, without a `String`), or
    /// nil for any other text.
    init?(utf8: UnsafeBufferPointer<UInt8>) {
        guard let kind = Self.names.first(where: { $0.name.count == utf8.count && $0.name.elementsEqual(utf8) })?.kind else {
            return nil
        }
        self = kind
    }

    /// Every kind with its name's bytes (compared by length first: a ledger read checks a kind per row).
    private static let names = allCases.map { (kind: $0, name: Array($0.rawValue.utf8)) }

    /// "buy, sell, transfer_in, transfer_out, fee or income", for messages.
    static let list = "buy, sell, transfer_in, transfer_out, fee or income"
}

/// What kind of income a `income` transaction is (SPEC §16).
public enum IncomeType: String, Sendable, CaseIterable {
    /// Rewards for staking (proof of stake, delegation).
    case staking
    /// Interest from lending or savings.
    case interest
    /// Coins given away to holders or users.
    case airdrop
    /// Mining rewards.
    case mining
    /// Coins of a chain split, received for holding the original coin.
    case fork
    /// Coins received as a gift.
    case gift
    /// Other rewards (learning rewards, referral bonuses, cash back).
    case reward
    /// Any other income.
    case other

    /// "staking, interest, …, reward or other", for messages.
    static let list = "staking, interest, airdrop, mining, fork, gift, reward or other"
}

/// Where a transaction's price came from (SPEC §17): the user, nobody yet (`pending`: the price is
/// null and every figure that needs it is unknown, never 0), a CoinGecko price point, or a manual
/// price point.
public enum PriceSource: String, Sendable, CaseIterable {
    /// Given by the user (or taken from an imported file).
    case user
    /// Not known yet: null until `fill_prices` (SPEC §17) or the user gives it.
    case pending
    /// A stored CoinGecko price point (`price_at` is its time).
    case coingecko
    /// A manual price point the owner set (`price_at` is its time).
    case manual
}
