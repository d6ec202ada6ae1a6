/// A trade (swap) of one coin for another (SPEC §16): written as a `sell` of the sent coin and a
/// `buy` of the received coin (and, with a fee in a coin, a fee row), one group.
///
/// Prices: `value` ÷ each side's amount; without a value, the received coin's stored price at
/// that time × its amount is the value, else the sent coin's, else both legs are pending. A price
/// found by division is rounded half-to-even to 18 fraction digits. The fee goes to the received
/// lot's cost (on the buy leg).
public struct Trade: Hashable, Sendable {
    /// One side of a trade: a coin and its units.
    public struct Side: Hashable, Sendable {
        /// CoinGecko coin id (a coin, not a currency: fiat ↔ coin is a buy or a sell).
        public var coinID: String
        /// Coin units, > 0.
        public var amount: ExactDecimal

        /// A side.
        public init(coinID: String, amount: ExactDecimal) {
            self.coinID = coinID
            self.amount = amount
        }
    }

    /// The portfolio (default "main").
    public var portfolio: String
    /// Milliseconds since the epoch, UTC.
    public var timestamp: Int64
    /// What left the portfolio.
    public var sent: Side
    /// What arrived.
    public var received: Side
    /// The trade's value in the portfolio's currency, ≥ 0 (nil: from stored prices, else pending).
    public var value: ExactDecimal?
    /// Fee, ≥ 0: in the portfolio's currency, or in units of `feeCoinID`.
    public var fee: ExactDecimal
    /// The coin the fee was paid in (nil: the portfolio's currency).
    public var feeCoinID: String?
    /// The fee coin's price per unit in the portfolio's currency (optional).
    public var feePrice: ExactDecimal?
    /// Free text, on every leg.
    public var note: String?
    /// The first leg's external id (the others add `#2`, `#3`); unique per portfolio.
    public var externalID: String?

    /// A trade; the engine checks it before writing.
    public init(
        portfolio: String = Transaction.defaultPortfolio, timestamp: Int64, sent: Side, received: Side, value: ExactDecimal? = nil,
        fee: ExactDecimal = .zero, feeCoinID: String? = nil, feePrice: ExactDecimal? = nil, note: String? = nil,
        externalID: String? = nil
    ) {
        self.portfolio = portfolio
        self.timestamp = timestamp
        self.sent = sent
        self.received = received
        self.value = value
        self.fee = fee
        self.feeCoinID = feeCoinID
        self.feePrice = feePrice
        self.note = note
        self.externalID = externalID
    }

    /// Reads `{"portfolio","timestamp","sent":{"coin_id","amount"},"received":{"coin_id","amount"},
    /// "value","fee","fee_coin_id","fee_price","note","external_id"}` (numbers as JSON numbers or
    /// decimal strings; timestamp RFC 3339, default now) and checks it.
    /// - Throws: `.invalidArgument` with `details.field` (`"sent.amount"` inside a side).
    public init(json: String) throws {
        try self.init(parsing: json)
        try validate()
    }

    /// Reads the JSON form without checking the rules (`validate`, which the engine runs).
    init(parsing json: String) throws {
        let read = LedgerJSONFields(try FlatJSONObject(json))
        func side(_ key: String) throws -> Side {
            guard let object = try read.object(key) else { throw read.invalid(key, "\(key) is required: {\"coin_id\",\"amount\"}") }
            guard let coinID = try object.string("coin_id") else { throw object.invalid("coin_id", "\(key).coin_id is required") }
            guard let amount = try object.decimal("amount") else { throw object.invalid("amount", "\(key).amount is required") }
            return Side(coinID: coinID, amount: amount)
        }
        try read.refuseOtherCurrency()
        if read.object["portfolio"] == .null { throw CoinfolioError.everyPortfolioRefused("a trade") }
        self.init(
            portfolio: try read.string("portfolio") ?? Transaction.defaultPortfolio, timestamp: try read.timestamp(),
            sent: try side("sent"), received: try side("received"), value: try read.decimal("value"),
            fee: try read.decimal("fee") ?? .zero, feeCoinID: try read.string("fee_coin_id"), feePrice: try read.decimal("fee_price"),
            note: try read.string("note"), externalID: try read.string("external_id"))
    }

    /// Checks SPEC §16's rules: both sides coins (not currencies), different, amounts > 0;
    /// value ≥ 0; the fee rules of a transaction. - Throws: `.invalidArgument` with `details.field`.
    public func validate() throws { _ = try validatedLegs() }

    /// `validate`, answering the legs it checked: with a `value`, the legs `legs(prices:vsCurrency:)`
    /// makes for any prices and currency (a value prices them alone); without one, pending.
    /// - Throws: as `validate`.
    func validatedLegs() throws -> [Transaction] {
        func refuse(_ field: String, _ message: String) -> CoinfolioError {
            CoinfolioError(.invalidArgument, message, details: [.field: .string(field)])
        }
        try Transaction.validatePortfolioName(portfolio)
        // The fields' names as literals: no text is made unless a side is refused.
        func check(_ side: Side, coinField: String, amountField: String) throws {
            try Transaction.validateCoinID(side.coinID, field: coinField)
            guard !side.amount.isNegative, !side.amount.isZero else {
                throw refuse(amountField, "\(amountField) must be above 0, not \(side.amount)")
            }
        }
        try check(sent, coinField: "sent.coin_id", amountField: "sent.amount")
        try check(received, coinField: "received.coin_id", amountField: "received.amount")
        guard sent.coinID.utf8.elementsEqual(received.coinID.utf8) == false else {
            throw refuse("received.coin_id", "a trade swaps two different coins; both sides are \(sent.coinID)")
        }
        if let value, value.isNegative { throw refuse("value", "value must be 0 or more, not \(value)") }
        // The legs carry the remaining rules (fee, fee coin, note, external id, time).
        let legs = try legs(prices: .none, vsCurrency: "")
        try legs.forEach { try $0.validate() }
        return legs
    }

    /// The sell and buy legs (without a group id or a fee row), priced as the type's comment says.
    /// - Throws: `.invalidArgument` with details.reason `out_of_range` (field `value`) when a
    ///   price found by division is beyond the ledger's 8.5e19.
    func legs(prices: StoredPrices, vsCurrency: String) throws -> [Transaction] {
        var sell = Transaction(
            portfolio: portfolio, coinID: sent.coinID, kind: .sell, amount: sent.amount, timestamp: timestamp, note: note,
            externalID: externalID)
        var buy = Transaction(
            portfolio: portfolio, coinID: received.coinID, kind: .buy, amount: received.amount, fee: fee, timestamp: timestamp,
            note: note, externalID: externalID.map { $0 + "#2" }, feeCoinID: feeCoinID, feePrice: feePrice)
        // The value and where it came from: the user, or a stored point (then its source and time).
        var source = PriceSource.user
        var at: Int64?
        if let value {
            sell.price = try Self.price(value, by: sent.amount)
            buy.price = try Self.price(value, by: received.amount)
        } else if let point = prices.price(of: received.coinID, in: vsCurrency, at: timestamp) {
            buy.price = point.price
            sell.price = try Self.price(point.price, times: received.amount, by: sent.amount)
            (source, at) = (point.source, point.at)
        } else if let point = prices.price(of: sent.coinID, in: vsCurrency, at: timestamp) {
            sell.price = point.price
            buy.price = try Self.price(point.price, times: sent.amount, by: received.amount)
            (source, at) = (point.source, point.at)
        } else {
            return [sell, buy]  // both pending
        }
        (sell.priceSource, sell.priceAt) = (source, at)
        (buy.priceSource, buy.priceAt) = (source, at)
        return [sell, buy]
    }

    /// The price per unit of `amount` units worth `value` in all: value ÷ amount, rounded once,
    /// half-to-even, to 18 fraction digits from the exact quotient (SPEC §16). The one rule for
    /// prices found by division (trade legs, imported buys and sells).
    /// - Throws: `.invalidArgument` with details.reason `out_of_range` (field `value`) when the
    ///   price is beyond the ledger's 8.5e19, or `amount` is 0.
    static func price(_ value: ExactDecimal, by amount: ExactDecimal) throws -> ExactDecimal {
        guard let price = ExactDecimal.product(value, 1, dividedBy: amount) else {
            throw beyondTheLedger("value \(value) ÷ \(amount)")
        }
        return price
    }

    /// `price` × `amount` ÷ `other`: a leg priced from the other leg's stored price, rounded once
    /// as `price(_:by:)` (the product is never rounded on its own).
    /// - Throws: as `price(_:by:)`.
    static func price(_ price: ExactDecimal, times amount: ExactDecimal, by other: ExactDecimal) throws -> ExactDecimal {
        guard let result = ExactDecimal.product(price, amount, dividedBy: other) else {
            throw beyondTheLedger("value \(PreciseDecimal(price) * PreciseDecimal(amount)) ÷ \(other)")
        }
        return result
    }

    private static func beyondTheLedger(_ division: String) -> CoinfolioError {
        CoinfolioError(
            .invalidArgument, "\(division) is a price beyond the ledger's 8.5e19", reason: .outOfRange,
            details: [.field: .string("value")])
    }
}
