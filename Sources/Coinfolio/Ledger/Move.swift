/// A move of a coin between two of the owner's portfolios (SPEC §16): a `transfer_out` in
/// `from` and a `transfer_in` in `to`, one group. The transfer in receives the lots the transfer
/// out removed (by the method in use), with their first acquisition times and their whole cost,
/// the units scaled by received ÷ amount: a move realizes nothing, and its network fee (amount −
/// received) is no loss.
public struct Move: Hashable, Sendable {
    /// The portfolio the coins leave.
    public var from: String
    /// The portfolio they arrive in (another one, of the same currency).
    public var to: String
    /// CoinGecko coin id.
    public var coinID: String
    /// Units leaving `from`, > 0.
    public var amount: ExactDecimal
    /// Units arriving in `to`: 0 < received ≤ amount (the difference is a network fee paid in
    /// the coin); nil means `amount`.
    public var receivedAmount: ExactDecimal?
    /// Milliseconds since the epoch, UTC.
    public var timestamp: Int64
    /// Free text, on both sides.
    public var note: String?
    /// The transfer out's external id (the transfer in's adds `#2`).
    public var externalID: String?

    /// A move; the engine checks it before writing.
    public init(
        from: String, to: String, coinID: String, amount: ExactDecimal, receivedAmount: ExactDecimal? = nil, timestamp: Int64,
        note: String? = nil, externalID: String? = nil
    ) {
        self.from = from
        self.to = to
        self.coinID = coinID
        self.amount = amount
        self.receivedAmount = receivedAmount
        self.timestamp = timestamp
        self.note = note
        self.externalID = externalID
    }

    /// Reads `{"from","to","coin_id","amount","received_amount","timestamp","note","external_id"}`
    /// (numbers as JSON numbers or decimal strings; timestamp RFC 3339, default now) and checks it.
    /// - Throws: `.invalidArgument` with `details.field`.
    public init(json: String) throws {
        try self.init(parsing: json)
        try validate()
    }

    /// Reads the JSON form without checking the rules (`validate`, which the engine runs).
    init(parsing json: String) throws {
        let read = LedgerJSONFields(try FlatJSONObject(json))
        guard let from = try read.string("from") else { throw read.invalid("from", "from is required: the portfolio the coins leave") }
        guard let to = try read.string("to") else { throw read.invalid("to", "to is required: the portfolio the coins arrive in") }
        guard let coinID = try read.string("coin_id") else { throw read.invalid("coin_id", "coin_id is required") }
        guard let amount = try read.decimal("amount") else { throw read.invalid("amount", "amount is required") }
        self.init(
            from: from, to: to, coinID: coinID, amount: amount, receivedAmount: try read.decimal("received_amount"),
            timestamp: try read.timestamp(), note: try read.string("note"), externalID: try read.string("external_id"))
    }

    /// Checks SPEC §16's rules: two different portfolios, amount > 0, 0 < received ≤ amount, and
    /// a transaction's rules for each side. - Throws: `.invalidArgument` with `details.field`.
    public func validate() throws {
        func refuse(_ field: String, _ message: String) -> CoinfolioError {
            CoinfolioError(.invalidArgument, message, details: [.field: .string(field)])
        }
        do { try Transaction.validatePortfolioName(from) } catch var error as CoinfolioError {
            error.details[.field] = .string("from")
            throw error
        }
        do { try Transaction.validatePortfolioName(to) } catch var error as CoinfolioError {
            error.details[.field] = .string("to")
            throw error
        }
        guard !from.utf8.elementsEqual(to.utf8) else {
            throw refuse("to", "a move goes to another portfolio; from and to are both \"\(from)\"")
        }
        if let receivedAmount {
            guard !receivedAmount.isNegative, !receivedAmount.isZero else {
                throw refuse("received_amount", "received_amount must be above 0, not \(receivedAmount)")
            }
            guard receivedAmount <= amount else {
                throw refuse(
                    "received_amount", "received_amount \(receivedAmount) is more than the amount \(amount) that left \"\(from)\"")
            }
        }
        for side in legs { try side.validate() }
    }

    /// The transfer_out and the transfer_in (without a group id).
    var legs: [Transaction] {
        [
            Transaction(
                portfolio: from, coinID: coinID, kind: .transferOut, amount: amount, timestamp: timestamp, note: note,
                externalID: externalID),
            Transaction(
                portfolio: to, coinID: coinID, kind: .transferIn, amount: receivedAmount ?? amount, timestamp: timestamp, note: note,
                externalID: externalID.map { $0 + "#2" }),
        ]
    }
}
