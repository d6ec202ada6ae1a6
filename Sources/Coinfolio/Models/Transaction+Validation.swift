/// The rules a transaction obeys before it is stored (SPEC §12, §16, §17).
extension Transaction {
    /// Checks the rules of SPEC §12 and §16: a valid coin id and portfolio name; amount > 0; a
    /// price ≥ 0 or none (pending) for buy, sell, fee and income, none for transfers; fee ≥ 0 (0
    /// on a fee row); `income_type` on income and only there; `fee_coin_id` a coin id (not a
    /// money code such as `usd`), not on a fee row; `fee_price` ≥ 0 and only with `fee_coin_id`;
    /// a note of at most 64 KiB without NUL; an external id of 1…256 bytes without control
    /// characters; a time in years 1…9999; `price_currency` (SPEC §17) a currency CoinGecko prices
    /// in (`details.reason` "unknown_currency" otherwise), only on a buy, sell, fee or income, and
    /// `original_price` ≥ 0 and only with it.
    /// - Throws: `.invalidArgument` with `details.field` naming the offending field.
    public func validate() throws {
        try Transaction.validatePortfolioName(portfolio)
        try Transaction.validateCoinID(coinID, field: "coin_id", moneyAllowed: true)
        func refuse(_ field: String, _ message: String) -> CoinfolioError {
            CoinfolioError(.invalidArgument, message, details: [.field: .string(field)])
        }
        guard !amount.isNegative, !amount.isZero else { throw refuse("amount", "amount must be above 0, not \(amount)") }
        if kind.hasPrice {
            if let price, price.isNegative { throw refuse("price", "price must be 0 or more, not \(price)") }
        } else if price != nil {
            throw refuse("price", "a \(kind.rawValue) has no price: its cost is unknown (leave price out or null)")
        }
        guard !fee.isNegative else { throw refuse("fee", "fee must be 0 or more, not \(fee)") }
        if kind == .income {
            guard incomeType != nil else {
                throw refuse("income_type", "income needs an income_type: \(IncomeType.list)")
            }
        } else if incomeType != nil {
            throw refuse("income_type", "only income has an income_type; this is a \(kind.rawValue)")
        }
        if kind == .fee {
            guard fee.isZero else { throw refuse("fee", "a fee row is the fee itself: its own fee must be 0") }
            guard feeCoinID == nil else { throw refuse("fee_coin_id", "a fee row is the fee itself: it has no fee_coin_id") }
        }
        if let feeCoinID { try Transaction.validateCoinID(feeCoinID, field: "fee_coin_id") }
        if let feePrice {
            guard feeCoinID != nil else {
                throw refuse("fee_price", "fee_price is the price of the fee's coin: give fee_coin_id with it")
            }
            guard !feePrice.isNegative else { throw refuse("fee_price", "fee_price must be 0 or more, not \(feePrice)") }
        }
        if let note {
            guard note.utf8.count <= Transaction.maximumNoteBytes else {
                throw refuse("note", "note is \(note.utf8.count) bytes; at most \(Transaction.maximumNoteBytes) are kept")
            }
            guard !note.utf8.contains(0) else { throw refuse("note", "note contains a NUL character") }
        }
        if let externalID { try Transaction.validateExternalID(externalID) }
        if let priceCurrency {
            guard kind.hasPrice else { throw refuse("price_currency", "a \(kind.rawValue) has no price to give in another currency") }
            let currency: VsCurrency
            do { currency = try VsCurrency(priceCurrency) } catch var error as CoinfolioError {
                error.details[.field] = .string("price_currency")
                throw error
            }
            try currency.requireCoinGeckoQuote(field: "price_currency")
        }
        if let originalPrice {
            guard priceCurrency != nil else { throw refuse("original_price", "original_price goes with price_currency") }
            guard !originalPrice.isNegative else { throw refuse("original_price", "original_price must be 0 or more") }
        }
        guard timestamp >= Transaction.earliestTimestamp, timestamp <= Transaction.latestTimestamp else {
            throw refuse("timestamp", "timestamp must be between years 1 and 9999")
        }
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in milliseconds.
    static let earliestTimestamp: Int64 = -62_135_596_800_000
    static let latestTimestamp: Int64 = 253_402_300_799_999

    /// A portfolio name: 1…128 characters (Unicode code points, not UTF-8 bytes: 128 × "ü" is a
    /// name) without control characters or surrounding spaces.
    /// - Throws: `.invalidArgument` with `details.field` = "portfolio".
    public static func validatePortfolioName(_ name: String) throws {
        // Fast path: printable ASCII without a space at either end.
        let bytes = name.utf8
        if !bytes.isEmpty, bytes.count <= 128, bytes.first != 0x20, bytes.last != 0x20, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return
        }
        let bad =
            name.isEmpty || name.unicodeScalars.count > 128
            || name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            || name.first?.isWhitespace == true || name.last?.isWhitespace == true
        guard !bad else {
            throw CoinfolioError(
                .invalidArgument, "portfolio name must be 1 to 128 characters, without control characters or surrounding spaces",
                details: [.field: .string("portfolio")])
        }
    }

    /// An external id (or a CSV file's group label, `field` "group_id"): 1…256 bytes without
    /// control characters. - Throws: `.invalidArgument` with `details.field` = `field`.
    static func validateExternalID(_ text: String, field: String = "external_id") throws {
        func refuse(_ message: String) -> CoinfolioError {
            CoinfolioError(.invalidArgument, message, details: [.field: .string(field)])
        }
        guard !text.isEmpty, text.utf8.count <= Transaction.maximumExternalIDBytes else {
            throw refuse("\(field) must be 1 to \(Transaction.maximumExternalIDBytes) bytes")
        }
        // Control characters are single bytes below 0x80 in UTF-8: the bytes say it without decoding.
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw refuse("\(field) contains a control character")
        }
    }

    /// A coin id of the ledger: the holding rule (SPEC §10: no upper case, no surrounding
    /// spaces, no comma) and, unless `moneyAllowed` (a plain transaction's coin, as before §16),
    /// not a money code (`usd`, `eur`: SPEC §16, a fee in the portfolio's currency has no
    /// fee_coin_id, and fiat ↔ coin is a buy or a sell).
    /// - Throws: `.invalidArgument` with `details.field` = `field`.
    static func validateCoinID(_ id: String, field: String, moneyAllowed: Bool = false) throws {
        do {
            try CoinID.validateHeldAsListable(id)
            // Plain lower-case ASCII ids (nearly all) need no upper-case or spacing suggestion.
            let plain = id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !(0x41...0x5A).contains($0) }
            if plain { try CoinID.validate(id) } else { try CoinID.validateHolding(id) }
        } catch var error as CoinfolioError {
            error.details[.field] = .string(field)
            throw error
        }
        guard moneyAllowed || !MoneyCodes.isMoney(id) else {
            throw CoinfolioError(
                .invalidArgument,
                "\(field) \"\(id)\" is a currency, not a coin (a fee in the portfolio's currency has no fee_coin_id; fiat ↔ coin is a buy or a sell)",
                details: [.field: .string(field)])
        }
    }
}
