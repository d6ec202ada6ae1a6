/// CoinTracking's trade list export (SPEC §18), variant `default`:
/// `"Type","Buy","Cur.","Sell","Cur.","Fee","Cur.","Exchange","Group","Comment","Date"` — three
/// columns named `Cur.`, read by position (the currency of Buy, Sell and Fee); `-` is an empty
/// cell; dates `dd.mm.yyyy HH:MM:SS` in UTC.
///
/// Types (compared without case; `Reward/Bonus` also with spaces around the slash): Trade → the
/// Sell side given for the Buy side; Deposit → transfer_in (Buy); Withdrawal → transfer_out
/// (Sell); Staking, Mining, Airdrop, Gift/Tip, Interest Income, Reward/Bonus, Income (other) →
/// income of type staking, mining, airdrop, gift, interest, reward, other (Buy); Spend → a sell
/// whose price is pending (Sell); Lost → transfer_out (Sell). Any other type is a warning with
/// its line. A Fee of 0 with no currency is no fee. The note is the Comment. External ids: the hash of the row's cells.
struct CoinTrackingImporter: RowImporter {
    static let variants = [
        ImportVariant(
            format: .cointracking, name: "default",
            columns: ["Type", "Buy", "Cur.", "Sell", "Cur.", "Fee", "Cur.", "Exchange", "Group", "Comment", "Date"].map { .named($0) }
        ) { try CoinTrackingImporter(header: $0) }
    ]

    /// Income types by the Type cell, lower-cased.
    static let incomeTypes: [String: IncomeType] = [
        "staking": .staking, "mining": .mining, "airdrop": .airdrop, "gift/tip": .gift, "interest income": .interest,
        "reward/bonus": .reward, "reward / bonus": .reward, "income (other)": .other, "income": .other,
    ]

    private let type, buy, buyCurrency, sell, sellCurrency, fee, feeCurrency, comment, date: ImportHeader.Field

    init(header: ImportHeader) throws {
        type = try header.require("Type")
        buy = try header.require("Buy")
        buyCurrency = try header.require("Cur.", occurrence: 1)
        sell = try header.require("Sell")
        sellCurrency = try header.require("Cur.", occurrence: 2)
        fee = try header.require("Fee")
        feeCurrency = try header.require("Cur.", occurrence: 3)
        comment = try header.require("Comment")
        date = try header.require("Date")
    }

    mutating func read(_ row: ImportRow, into file: inout ImportedFile) throws {
        let time = try row.time(date, .dayMonthYear)
        /// The amount and currency of one side; nil when both cells are empty.
        func side(_ amount: ImportHeader.Field, _ currency: ImportHeader.Field) throws -> ImportedEntry.Asset? {
            let read = try row.number(amount, .dashIsEmpty)
            let code = row.text(currency)
            if read == nil, code.isEmpty || code == "-" { return nil }
            guard let read else { throw row.error(amount, "\(amount.title) is empty while its currency is \(code)") }
            guard !code.isEmpty, code != "-" else { throw row.error(currency, "the currency of \(amount.title) \(read.value) is empty") }
            return ImportedEntry.Asset(code, read.value)
        }
        func required(_ amount: ImportHeader.Field, _ currency: ImportHeader.Field) throws -> ImportedEntry.Asset {
            guard let asset = try side(amount, currency) else { throw row.error(amount, "\(amount.title) is empty") }
            return asset
        }
        // A fee of 0 needs no currency: no fee (a fee of more without one is still refused).
        let noFee = try row.number(fee, .dashIsEmpty)?.value.isZero == true && ["", "-"].contains(row.text(feeCurrency))
        let fees = noFee ? [] : try side(fee, feeCurrency).map { [$0] } ?? []
        let kind = row.text(type).lowercased()
        let action: ImportedEntry.Action
        switch kind {
        case "trade": action = .exchange(sent: try required(sell, sellCurrency), received: try required(buy, buyCurrency), value: nil)
        case "deposit": action = .transferIn(try required(buy, buyCurrency))
        case "withdrawal", "lost": action = .transferOut(try required(sell, sellCurrency))
        case "spend": action = .spend(try required(sell, sellCurrency))
        default:
            guard let income = Self.incomeTypes[kind] else {
                return file.warn(row.line, "CoinTracking type \"\(row.text(type))\" is not one Coinfolio reads; the row was left out")
            }
            action = .income(try required(buy, buyCurrency), income, value: nil)
        }
        let id = file.ids.hashed([row.record])
        file.add(line: row.line, timestamp: time, action, fees: fees, note: row.text(comment), externalID: id)
    }
}
