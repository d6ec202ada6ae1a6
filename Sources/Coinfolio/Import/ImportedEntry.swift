/// What a file row — or the rows of one exchange transaction — becomes (SPEC §18): the shared
/// row model every importer writes, before its symbols are resolved. `ImportPlan` turns each
/// entry into ledger rows (§16): an exchange of money for a coin is a buy or a sell, of two coins
/// a trade; a fee in a coin becomes a fee row; money moved in or out is ignored.
struct ImportedEntry: Sendable {
    /// An amount of one symbol, as the file names it (`BTC`, `EUR`; exchange codes such as
    /// Kraken's `XXBT` already normalized by the importer).
    struct Asset: Sendable, Hashable {
        /// The symbol, upper-case.
        var symbol: String
        /// Units, ≥ 0.
        var amount: ExactDecimal

        /// `symbol` upper-cased; itself, uncopied, when it has no lower-case letter (as exchanges
        /// write tickers).
        static func upperCased(_ symbol: String) -> String {
            // Over the bytes in memory where the string has them (the generic UTF8View walk was
            // a visible share of an import: several symbols a row).
            func needsCase(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || byte >= 0x80 }
            let needs =
                symbol.utf8.withContiguousStorageIfAvailable { $0.contains(where: needsCase) } ?? symbol.utf8.contains(where: needsCase)
            return needs ? symbol.uppercased() : symbol
        }

        init(_ symbol: String, _ amount: ExactDecimal) {
            self.symbol = Self.upperCased(symbol)
            self.amount = amount
        }

        /// An amount of `symbol`, which is upper-case already (`upperCased`'s answer).
        init(upperCased symbol: String, _ amount: ExactDecimal) {
            self.symbol = symbol
            self.amount = amount
        }
    }

    /// What happened.
    enum Action: Sendable {
        /// Something given for something received: a buy (money for a coin), a sell (a coin
        /// for money) or a trade (two coins). `value` is what the exchange was worth when the
        /// file says so (Coinbase's Subtotal of a Convert, Koinly's Net Worth).
        case exchange(sent: Asset, received: Asset, value: Asset?)
        /// Coins received as income of `type`, worth `value` in all when the file says so.
        case income(Asset, IncomeType, value: Asset?)
        /// Coins (or money) arriving from elsewhere.
        case transferIn(Asset)
        /// Coins (or money) leaving to elsewhere.
        case transferOut(Asset)
        /// Coins spent at a price the file does not give (CoinTracking's Spend): a sell whose
        /// price is pending.
        case spend(Asset)
    }

    /// The physical line of the entry's first row.
    var line: Int
    /// Milliseconds since the epoch, UTC.
    var timestamp: Int64
    /// What happened.
    var action: Action
    /// The fees, each in money or in a coin (then a fee row of that coin); zero ones left out.
    var fees: [Asset] = []
    /// Free text for the ledger's note (the file's notes or description).
    var note: String
    /// `"<format>:<the exchange's id>"` or `"<format>:"` + 32 hex digits of SHA-256 (SPEC §18);
    /// the entry's other rows add `#2`, `#3`, ….
    var externalID: String

    /// Calls `body` with each symbol the entry names (no array made: an import asks for every
    /// entry's).
    func forEachSymbol(_ body: (String) -> Void) {
        switch action {
        case .exchange(let sent, let received, let value):
            body(sent.symbol)
            body(received.symbol)
            if let value { body(value.symbol) }
        case .income(let asset, _, let value):
            body(asset.symbol)
            if let value { body(value.symbol) }
        case .transferIn(let asset), .transferOut(let asset), .spend(let asset): body(asset.symbol)
        }
        for fee in fees { body(fee.symbol) }
    }
}

/// A row that was not written, and why (SPEC §18's `ignored` and `warnings`: `{"line","reason"}`).
public struct ImportNotice: Sendable, Hashable {
    /// The row's physical line (1-based, preamble lines included).
    public var line: Int
    /// Why, in one sentence for a person.
    public var reason: String

    /// A notice about `line`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// What an importer made of a file: its entries in file order, the rows ignored on purpose (a
/// fiat deposit, a move between an exchange's own wallets) and the rows not understood
/// (warnings: an operation no rule names).
struct ImportedFile: Sendable {
    /// The format read.
    var format: ImportFormat
    /// The variant's name.
    var variant: String
    /// The entries, in file order.
    var entries: [ImportedEntry] = []
    /// Rows left out on purpose.
    var ignored: [ImportNotice] = []
    /// Rows not understood, left out.
    var warnings: [ImportNotice] = []
    /// Data rows read (not counting the header and preamble).
    var rowsRead = 0
    /// The external ids given so far.
    var ids: ImportExternalID

    init(format: ImportFormat, variant: String) {
        self.format = format
        self.variant = variant
        self.ids = ImportExternalID(format: format)
    }

    /// Adds an entry (its fees of 0 left out).
    mutating func add(
        line: Int, timestamp: Int64, _ action: ImportedEntry.Action, fees: [ImportedEntry.Asset] = [], note: String, externalID: String
    ) {
        entries.append(
            ImportedEntry(
                line: line, timestamp: timestamp, action: action,
                fees: fees.contains(where: \.amount.isZero) ? fees.filter { !$0.amount.isZero } : fees, note: note,
                externalID: externalID))
    }

    /// Notes a row left out on purpose.
    mutating func ignore(_ line: Int, _ reason: String) { ignored.append(ImportNotice(line: line, reason: reason)) }

    /// Notes a row not understood.
    mutating func warn(_ line: Int, _ reason: String) { warnings.append(ImportNotice(line: line, reason: reason)) }
}
