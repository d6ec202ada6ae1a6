/// Coinbase's transaction history (SPEC §18), variants `v1`…`v4`; each may start with preamble
/// lines (v4's files begin with `Transactions` and `User,…` lines too). Money cells may carry a currency sign and thousands separators (`$1,234.50`), outflows
/// are negative (`-0.5`, `-$225.00`); the signs are read, the amounts kept as their size.
///
/// Price = Subtotal ÷ |Quantity| in the price currency (the `Price Currency` column, or v1's
/// column prefix); fee = `Fees and/or Spread` (`Fees`). Types, compared without case:
/// Buy and Advanced Trade Buy → buy; Sell and Advanced Trade Sell → sell; Send → transfer_out;
/// Receive → transfer_in; Convert → a trade valued at its Subtotal, the received coin and amount
/// read from Notes ("Converted 0.5 BTC to 10 ETH") or from a second row with the same ID, in
/// either order (the sent side is the row with the negative quantity);
/// Staking Income → income staking; Rewards Income, Inflation Reward, Learning Reward and
/// Coinbase Earn → income reward; Interest payout → income interest; Deposit and Withdrawal →
/// transfers (ignored when the asset is money). Any other type is a warning with its line.
/// External ids: `coinbase:<ID>` (v4), else the hash of the row's cells.
struct CoinbaseImporter: RowImporter {
    static let variants: [ImportVariant] = {
        let head: [ImportVariant.Column] = [
            .named("Timestamp"), .named("Transaction Type"), .named("Asset"), .named("Quantity Transacted"),
        ]
        let addresses = ["Sender Address", "Recipient Address"]
        func variant(_ name: String, _ columns: [ImportVariant.Column], preamble: Bool) -> ImportVariant {
            ImportVariant(format: .coinbase, name: name, columns: columns, newerColumns: addresses, hasPreamble: preamble) {
                try CoinbaseImporter(header: $0)
            }
        }
        return [
            variant(
                "v4",
                [.named("ID")] + head + [
                    .named("Price Currency"), .named("Price at Transaction"), .named("Subtotal"),
                    .named("Total (inclusive of fees and/or spread)"), .named("Fees and/or Spread"), .named("Notes"),
                ], preamble: true),
            variant(
                "v3",
                head + [
                    .named("Spot Price Currency"), .named("Spot Price at Transaction"), .named("Subtotal"),
                    .named("Total (inclusive of fees and/or spread)"), .named("Fees and/or Spread"), .named("Notes"),
                ], preamble: true),
            variant(
                "v2",
                head + [
                    .named("Spot Price Currency"), .named("Spot Price at Transaction"), .named("Subtotal"),
                    .named("Total (inclusive of fees)"), .named("Fees"), .named("Notes"),
                ], preamble: true),
            variant(
                "v1",
                head + [
                    .currencyPrefixed("Spot Price at Transaction"), .currencyPrefixed("Subtotal"),
                    .currencyPrefixed("Total (inclusive of fees)"), .currencyPrefixed("Fees"), .named("Notes"),
                ], preamble: true),
        ]
    }()

    private let id: ImportHeader.Field?
    private let timestamp, type, asset, quantity, subtotal, fees, notes: ImportHeader.Field
    private let currency: ImportHeader.Field?
    private let headerCurrency: String?
    /// A Convert row waiting for the second row of its ID: one whose Notes do not say what it
    /// received (`sent` nil), or its received side (`sent` what its Notes say was sent).
    private var convert: (row: ImportRow, time: Int64, sent: ImportedEntry.Asset?)?
    /// The ID of the last Convert read from its Notes: a second row with that ID is its other side.
    private var convertedID: String?
    /// The last Asset cell read and its symbol; the last price currency cell and its reading.
    private var keptAsset = KeptCell<String>()
    private var keptPrice = KeptCell<PriceCurrency>()

    /// Money cells: a currency sign, thousands separators, a minus on outflows.
    private static let money: NumberForm = [.signed, .thousands, .currencySign]

    init(header: ImportHeader) throws {
        id = header.field("ID")
        timestamp = try header.require("Timestamp")
        type = try header.require("Transaction Type")
        asset = try header.require("Asset")
        quantity = try header.require("Quantity Transacted")
        currency = header.field("Price Currency") ?? header.field("Spot Price Currency")
        headerCurrency = header.currency
        subtotal = try header.require("Subtotal")
        fees = try header.require(anyOf: ["Fees and/or Spread", "Fees"])
        notes = try header.require("Notes")
    }

    mutating func read(_ row: ImportRow, into file: inout ImportedFile) throws {
        let kind = Self.kind(row, type)
        let time = try row.time(timestamp, .iso)
        if let waiting = convert {
            convert = nil
            if let id, row.text(id) == waiting.row.text(id) {
                return try pair(waiting.row, row, time: waiting.time, receivedFirst: waiting.sent != nil, into: &file)
            }
            guard let sent = waiting.sent else { throw unpaired(waiting.row) }
            try lone(waiting.row, sent: sent, time: waiting.time, into: &file)
        }
        // The ID as text only where a Convert compares or keeps it; the external id is written
        // from the cell's bytes.
        let rowID = kind == "convert" ? id.map { row.text($0) } : nil
        defer { if kind != "convert" { convertedID = nil } }
        if kind == "convert", let rowID, rowID == convertedID {
            convertedID = nil
            return file.ignore(row.line, "the other side of Convert \(rowID), read from the Notes of the row before")
        }
        let asset = self.asset
        let symbol = try keptAsset.value(of: asset, in: row) { try $0.symbol(asset) }
        let units = try row.requiredNumber(quantity, [.signed, .thousands]).value.magnitude
        let coin = ImportedEntry.Asset(symbol, units)
        let note = row.text(notes)
        let externalID = id.map { file.ids.own(row, $0) } ?? file.ids.hashed([row.record])
        // The row's price currency, read at the first money cell that has a value (so a broken
        // cell is still refused before an empty currency), then kept for the row's other cells.
        var currency: PriceCurrency?
        // A fee of 0 is left out (as `ImportedFile.add` leaves it): no array made for it.
        let fee = try money(fees, row, &currency).map { $0.amount.isZero ? [] : [$0] } ?? []
        func add(_ action: ImportedEntry.Action) {
            file.add(line: row.line, timestamp: time, action, fees: fee, note: note, externalID: externalID)
        }
        switch kind {
        case "buy", "advanced trade buy": add(.exchange(sent: try subtotalMoney(row, &currency), received: coin, value: nil))
        case "sell", "advanced trade sell": add(.exchange(sent: coin, received: try subtotalMoney(row, &currency), value: nil))
        case "send", "withdrawal": add(.transferOut(coin))
        case "receive", "deposit": add(.transferIn(coin))
        case "convert":
            if let received = try Self.converted(note, row: row, notes: notes) {
                // (The symbols compared first: the Notes are read again only for a received side.)
                if id != nil, symbol == received.symbol, let sent = try Self.convertedFrom(note, row: row, notes: notes),
                    sent.symbol != symbol
                {
                    // The received side told first: the pair waits for its sent row.
                    convert = (row, time, sent)
                    return
                }
                add(.exchange(sent: coin, received: received, value: try money(subtotal, row, &currency)))
                convertedID = rowID
            } else if id != nil {
                convert = (row, time, nil)
            } else {
                throw unpaired(row)
            }
        case "staking income": add(.income(coin, .staking, value: try money(subtotal, row, &currency)))
        case "rewards income", "inflation reward", "learning reward", "coinbase earn":
            add(.income(coin, .reward, value: try money(subtotal, row, &currency)))
        case "interest payout": add(.income(coin, .interest, value: try money(subtotal, row, &currency)))
        default: file.warn(row.line, "Coinbase type \"\(row.text(type))\" is not one Coinfolio reads; the row was left out")
        }
    }

    /// A row's price currency as its upper-case code and whether that code has a sign of its own
    /// (`CurrencySign.hasOwnSign`): read once per row, shared by its money cells.
    private typealias PriceCurrency = (code: String, ownSign: Bool)

    /// The reading of a price currency `name`.
    private static func priceCurrency(named name: String) -> PriceCurrency {
        // `upperCased` is `uppercased()` without a copy when the code is upper-case already.
        let code = ImportedEntry.Asset.upperCased(name)
        return (code, CurrencySign.hasOwnSign(code))
    }

    /// The money in `field` (a currency sign, thousands separators, a minus on outflows) in the
    /// row's price currency, or nil for an empty cell. Methods, not closures in `read`: a nested
    /// function capturing `self` copied the importer at every call.
    private mutating func money(
        _ field: ImportHeader.Field, _ row: ImportRow, _ currency: inout PriceCurrency?
    ) throws -> ImportedEntry.Asset? {
        guard let amount = try row.number(field, Self.money)?.value.magnitude else { return nil }
        let price: PriceCurrency
        if let currency {
            price = currency
        } else {
            if let column = self.currency {
                // A row's currency cell is most often the row before's: kept with its reading.
                price = try keptPrice.value(of: column, in: row) { try Self.priceCurrency(named: $0.symbol(column)) }
            } else {
                price = Self.priceCurrency(named: try priceCurrency(row))
            }
            currency = price
        }
        // Digits, or `$` in a currency without a sign of its own: what `contradiction` answers nil
        // for at once, seen in the bytes (no `String` of the cell).
        let plain =
            row.withASCII(field) { cell -> Bool in
                let start = cell.first == UInt8(ascii: "-") ? 1 : 0
                guard start < cell.count else { return true }
                return (0x30...0x39).contains(cell[start]) || (cell[start] == UInt8(ascii: "$") && !price.ownSign)
            } ?? false
        if !plain, let contradiction = CurrencySign.contradiction(row.text(field), currency: price.code, ownSign: price.ownSign) {
            throw row.error(field, contradiction)
        }
        return ImportedEntry.Asset(upperCased: price.code, amount)
    }

    /// The Subtotal's money, which must be there.
    private mutating func subtotalMoney(
        _ row: ImportRow, _ currency: inout PriceCurrency?
    ) throws -> ImportedEntry.Asset {
        guard let value = try money(subtotal, row, &currency) else { throw row.error(subtotal, "\(subtotal.title) is empty") }
        return value
    }

    mutating func finish(into file: inout ImportedFile) throws {
        guard let waiting = convert else { return }
        convert = nil
        guard let sent = waiting.sent else { throw unpaired(waiting.row) }
        try lone(waiting.row, sent: sent, time: waiting.time, into: &file)
    }

    /// A Convert told by two rows with the same ID, in either order: the row with the negative
    /// quantity is what was sent; when the signs do not tell, the row its Notes name as received
    /// (`receivedFirst`: the first) is not, else the first is.
    private func pair(
        _ first: ImportRow, _ second: ImportRow, time: Int64, receivedFirst: Bool, into file: inout ImportedFile
    ) throws {
        let firstUnits = try first.requiredNumber(quantity, [.signed, .thousands]).value
        let secondUnits = try second.requiredNumber(quantity, [.signed, .thousands]).value
        let firstSent = firstUnits.isNegative != secondUnits.isNegative ? firstUnits.isNegative : !receivedFirst
        let (sent, received) = firstSent ? (first, second) : (second, first)
        func side(_ row: ImportRow) throws -> ImportedEntry.Asset {
            ImportedEntry.Asset(
                try row.symbol(asset), try row.requiredNumber(quantity, [.signed, .thousands]).value.magnitude)
        }
        try add(sent: side(sent), received: side(received), valuedBy: sent, first: first, time: time, into: &file)
    }

    /// The received side of a Convert whose sent row never came (another ID followed, or the file
    /// ended): the trade read from its Notes, `sent` what they say was sent.
    private func lone(_ row: ImportRow, sent: ImportedEntry.Asset, time: Int64, into file: inout ImportedFile) throws {
        let received = ImportedEntry.Asset(
            try row.symbol(asset), try row.requiredNumber(quantity, [.signed, .thousands]).value.magnitude)
        try add(sent: sent, received: received, valuedBy: row, first: row, time: time, into: &file)
    }

    /// The trade of a Convert read from its rows: valued at `valuedBy`'s Subtotal, its fee that
    /// row's, at `first`'s line with its Notes and ID.
    private func add(
        sent: ImportedEntry.Asset, received: ImportedEntry.Asset, valuedBy: ImportRow, first: ImportRow, time: Int64,
        into file: inout ImportedFile
    ) throws {
        let value = try valuedBy.number(subtotal, Self.money).map {
            ImportedEntry.Asset(try priceCurrency(valuedBy), $0.value.magnitude)
        }
        let fee =
            try valuedBy.number(fees, Self.money).map { [ImportedEntry.Asset(try priceCurrency(valuedBy), $0.value.magnitude)] }
            ?? []
        let externalID = file.ids.own(first, id ?? timestamp)
        file.add(
            line: first.line, timestamp: time, .exchange(sent: sent, received: received, value: value), fees: fee,
            note: first.text(notes), externalID: externalID)
    }

    /// What a Convert sent, from Notes "Converted 0.5 BTC to 10 ETH"; nil when the Notes are not so.
    static func convertedFrom(_ note: String, row: ImportRow, notes: ImportHeader.Field) throws -> ImportedEntry.Asset? {
        let words = Self.words(note)
        guard words.count == 6, words[0] == "Converted", words[3] == "to" else { return nil }
        guard let read = try? ImportNumber.read(String(words[1]), .thousands), !read.value.isZero else {
            throw row.error(notes, "\"\(words[1])\" in the Notes is not the amount sent")
        }
        return ImportedEntry.Asset(String(words[2]), read.value)
    }

    /// The row's price currency: its column's, else the header's (v1).
    private func priceCurrency(_ row: ImportRow) throws -> String {
        if let currency { return try row.symbol(currency) }
        if let headerCurrency { return headerCurrency }
        throw row.error(nil, "the row names no price currency")
    }

    /// What a Convert received, from Notes "Converted 0.5 BTC to 10 ETH" (amounts may have
    /// thousands separators); nil when the Notes are not so.
    static func converted(_ note: String, row: ImportRow, notes: ImportHeader.Field) throws -> ImportedEntry.Asset? {
        if let read = convertedPlain(note) { return read }
        let words = Self.words(note)
        guard words.count == 6, words[0] == "Converted", words[3] == "to" else { return nil }
        guard let read = try? ImportNumber.read(String(words[4]), .thousands), !read.value.isZero else {
            throw row.error(notes, "\"\(words[4])\" in the Notes is not the amount received")
        }
        return ImportedEntry.Asset(String(words[5]), read.value)
    }

    /// `note` split at spaces, empty words left out: `split(separator: " ")`, walked over the
    /// bytes when the note is ASCII (its characters are then its bytes; the Character walk was
    /// most of a Convert row's reading).
    static func words(_ note: String) -> [Substring] {
        let utf8 = note.utf8
        guard utf8.withContiguousStorageIfAvailable({ !$0.contains(where: { $0 >= 0x80 }) }) == true else {
            return note.split(separator: " ", omittingEmptySubsequences: true)
        }
        var words: [Substring] = []
        var start: String.Index?
        var index = utf8.startIndex
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: " ") {
                if let first = start { words.append(note[first..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
            index = utf8.index(after: index)
        }
        if let first = start { words.append(note[first..<utf8.endIndex]) }
        return words
    }

    private func unpaired(_ row: ImportRow) -> CoinfolioError {
        row.error(
            notes, "a Convert names what it received in its Notes (\"Converted 0.5 BTC to 10 ETH\") or in a second row with the same ID")
    }
}
