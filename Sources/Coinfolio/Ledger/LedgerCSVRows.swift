import Foundation

/// The rows of a ledger CSV file (SPEC §12, header
/// `timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id`, and §16's optional
/// `fee_coin_id,fee_price,income_type,group_id` and `price_currency,original_price`), read from a
/// CSV stream and checked one by one:
/// the header's columns, then each row as a validated `Transaction`.
/// Every error is `.invalidArgument` naming the physical line where the record starts (the
/// header is line 1) and the column (`details.line`, `details.column`). The store writes the
/// rows (`LedgerStore.importCSV`); nothing here touches a database.
struct LedgerCSVRows {
    /// Each known column's position in the file's header.
    private let timestamp: Int?, portfolio: Int?, coinID: Int?, kind: Int?, amount: Int?
    private let price: Int?, fee: Int?, note: Int?, externalID: Int?
    private let feeCoinID: Int?, feePrice: Int?, incomeType: Int?, groupID: Int?
    private let priceCurrency: Int?, originalPrice: Int?
    /// The header's column names, in order (a row's syntax error names the column it is in).
    private let names: [String]
    /// How many fields every row has (the header's count).
    private var width: Int { names.count }
    /// The portfolio of a row whose portfolio cell is empty or missing.
    private let defaultPortfolio: String
    /// Rows read so far (not counting the header).
    private(set) var rowsRead = 0

    /// Reads and checks the header.
    /// - Returns: nil for a file with no record at all.
    /// - Throws: `.invalidArgument` for a `;` separator, an unknown or repeated column, a
    ///   missing required one (`timestamp`, `coin_id`, `kind`, `amount`), or a CSV syntax error.
    static func header(_ reader: inout CSVReader, defaultPortfolio: String? = nil) throws -> LedgerCSVRows? {
        guard let header = try record(&reader) else { return nil }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        if names.count == 1, names[0].contains(";") {
            throw error(line: header.line, column: nil, "the separator must be a comma, not \";\"")
        }
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() {
            guard LedgerCSV.columns.contains(name) || LedgerCSV.currencyColumns.contains(name) else {
                throw error(
                    line: header.line, column: name,
                    "unknown column \"\(name)\": the header is \(LedgerCSV.columns.joined(separator: ",")) (and optional "
                        + "\(LedgerCSV.currencyColumns.joined(separator: ",")))")
            }
            guard index[name] == nil else { throw error(line: header.line, column: name, "column \"\(name)\" appears twice") }
            index[name] = position
        }
        for name in LedgerCSV.columns where LedgerCSV.required.contains(name) && index[name] == nil {
            throw error(line: header.line, column: name, "the header has no \"\(name)\" column")
        }
        return LedgerCSVRows(index: index, names: names, defaultPortfolio: defaultPortfolio ?? Transaction.defaultPortfolio)
    }

    private init(index: [String: Int], names: [String], defaultPortfolio: String) {
        self.defaultPortfolio = defaultPortfolio
        timestamp = index["timestamp"]
        portfolio = index["portfolio"]
        coinID = index["coin_id"]
        kind = index["kind"]
        amount = index["amount"]
        price = index["price"]
        fee = index["fee"]
        note = index["note"]
        externalID = index["external_id"]
        feeCoinID = index["fee_coin_id"]
        feePrice = index["fee_price"]
        incomeType = index["income_type"]
        groupID = index["group_id"]
        priceCurrency = index["price_currency"]
        originalPrice = index["original_price"]
        self.names = names
    }

    /// The next row as a validated transaction (no id; an empty portfolio is the default one, an empty
    /// fee 0, an empty external_id, fee_coin_id, fee_price, income_type or group_id none; an empty
    /// price on a buy, sell, fee or income pending) and its line; nil after the last row. The
    /// transaction's `groupID` is the file's label, local to the file (the store gives each label a
    /// fresh group id).
    /// - Throws: `.invalidArgument` with the line and column: a row of another width, a bad
    ///   time, kind or decimal (spelled otherwise than a JSON number; a decimal comma said so), an empty amount, any rule of
    ///   `Transaction.validate`; a CSV syntax error (`details.field_index` and the column).
    mutating func next(_ reader: inout CSVReader) throws -> (transaction: Transaction, line: Int)? {
        guard let read = try Self.byteRecord(&reader, names: names) else { return nil }
        rowsRead += 1
        let line = read.line
        let record = read.record
        guard record.count == width else {
            // A short row: the first column without a cell; a long one has no column to name.
            throw Self.error(
                line: line, column: record.count < width ? names[record.count] : nil,
                "the row has \(record.count) fields and the header \(width) (the separator is a comma and the decimal mark a point)")
        }
        // A cell export protected against formula injection reads back as written (SpreadsheetFormula).
        func field(_ column: Int?) -> String? {
            column.map { SpreadsheetFormula.unprotected(record.string($0)) }
        }
        func decimal(_ name: String, _ column: Int?) throws -> ExactDecimal? {
            // A decimal read from the cell's bytes is the one its text reads as (a protected cell
            // starts with `'`, which no decimal does): the text only for an empty cell or a refusal.
            // Spelled as a JSON number ("+1", ".5", "1." and "01" are refused: SPEC §18 keeps this
            // format strict).
            if let column,
                let value = record.withField(column, { NumberText.spellsNumber($0) ? ExactDecimal.parse($0, rounding: false) : nil })
            {
                return value
            }
            guard let text = field(column), !text.isEmpty else { return nil }
            if NumberText.spellsNumber(text), let value = ExactDecimal(text) { return value }
            if let comma = DecimalComma.refusal(text) {
                throw Self.error(line: line, column: name, comma.message, reason: comma.reason)
            }
            if ExactDecimal.refusal(text.utf8) == .beyondRange {
                throw Self.error(
                    line: line, column: name, "\"\(text)\" is beyond what the ledger keeps exactly (±8.5e19)", reason: .outOfRange)
            }
            let rule = "as JSON writes one (\"0.5\", \"1e-8\"; at most 18 fraction digits)"
            throw Self.error(line: line, column: name, "\"\(text)\" is not a decimal number \(rule)")
        }
        // The time from the cell's bytes (as its text reads); the text only for a refusal.
        let time: Int64
        if let timestamp, let parsed = record.withField(timestamp, { LedgerTimestamp.parse(utf8: $0) }) {
            time = parsed
        } else if let parsed = LedgerTimestamp.parse(field(timestamp) ?? "") {
            time = parsed
        } else {
            let timestampText = field(timestamp) ?? ""
            throw Self.error(line: line, column: "timestamp", "\"\(timestampText)\" is not an RFC 3339 time (2024-03-01T12:30:00Z)")
        }
        let kindText = field(kind) ?? ""
        guard let transactionKind = TransactionKind(rawValue: kindText) else {
            throw Self.error(line: line, column: "kind", "\"\(kindText)\" is not \(TransactionKind.list)")
        }
        var income: IncomeType?
        if let text = field(incomeType), !text.isEmpty {
            guard let type = IncomeType(rawValue: text) else {
                throw Self.error(line: line, column: "income_type", "\"\(text)\" is not \(IncomeType.list)")
            }
            income = type
        }
        func optional(_ column: Int?) -> String? {
            guard let text = field(column), !text.isEmpty else { return nil }
            return text
        }
        guard let units = try decimal("amount", amount) else { throw Self.error(line: line, column: "amount", "amount is empty") }
        let portfolioText = field(portfolio) ?? ""
        let externalText = field(externalID) ?? ""
        let transaction = Transaction(
            portfolio: portfolioText.isEmpty ? defaultPortfolio : portfolioText,
            coinID: field(coinID) ?? "", kind: transactionKind, amount: units, price: try decimal("price", price),
            fee: try decimal("fee", fee) ?? .zero, timestamp: time, note: field(note).flatMap { $0.isEmpty ? nil : $0 },
            externalID: externalText.isEmpty ? nil : externalText, feeCoinID: optional(feeCoinID),
            feePrice: try decimal("fee_price", feePrice), incomeType: income, groupID: optional(groupID),
            priceCurrency: optional(priceCurrency)?.lowercased(), originalPrice: try decimal("original_price", originalPrice))
        do {
            try transaction.validate()
            // A group label follows the external id's rule (1…256 bytes, no control characters).
            if let label = transaction.groupID { try Transaction.validateExternalID(label, field: "group_id") }
        } catch let error as CoinfolioError {
            var column: String?
            if case .string(let name)? = error.details[.field] { column = name }
            throw Self.error(line: line, column: column, error.message)
        }
        return (transaction, line)
    }

    /// The next CSV record of a ledger or exchange file (`ImportDetection` and `ImportReader`
    /// read theirs through it too): a syntax error as `.invalidArgument` with its line,
    /// `details.field_index`, and — past the header, whose column `names` are — `details.column`.
    static func record(_ reader: inout CSVReader, names: [String] = []) throws -> (fields: [String], line: Int)? {
        do { return try reader.nextRecord() } catch let error as CSVReader.SyntaxError { throw syntaxError(error, names: names) }
    }

    /// `record` as the fields' bytes (`CSVReader.nextByteRecord`), with the same errors.
    static func byteRecord(_ reader: inout CSVReader, names: [String]) throws -> (record: CSVRecord, line: Int)? {
        do { return try reader.nextByteRecord() } catch let error as CSVReader.SyntaxError { throw syntaxError(error, names: names) }
    }

    /// A syntax error as `.invalidArgument`: its line, `details.field_index`, the column when
    /// `names` has one there and its reason (`"bad_utf8"`) when it has one.
    private static func syntaxError(_ error: CSVReader.SyntaxError, names: [String]) -> CoinfolioError {
        let index = CoinfolioError.details([.fieldIndex: .number(Double(error.field))])
        let column = names.indices.contains(error.field) ? names[error.field] : nil
        return Self.error(line: error.line, column: column, error.message, reason: error.reason, index)
    }

    /// An import error at `line` (and `column`, a header name): `.invalidArgument`, the message
    /// prefixed with "line N, column C: ", `details.line`, `details.column` and `details.reason`
    /// when one is given.
    static func error(
        line: Int, column: String?, _ message: String, reason: CoinfolioError.Reason? = nil,
        _ extra: [String: CoinfolioError.Detail] = [:]
    ) -> CoinfolioError {
        let place = column.map { "line \(line), column \($0)" } ?? "line \(line)"
        var error =
            reason.map { CoinfolioError(.invalidArgument, "\(place): \(message)", reason: $0) }
            ?? CoinfolioError(.invalidArgument, "\(place): \(message)")
        error.details.merge(extra) { own, _ in own }
        error.details[.line] = .number(Double(line))
        if let column { error.details[.column] = .string(column) }
        return error
    }
}
