/// Whether a disposal's gain is short or long term (SPEC §19): long when the disposal's UTC date
/// is after the anniversary of `long_term_after_years` (`HoldingPeriod`).
public enum Term: String, Sendable {
    /// Held until the anniversary, or less.
    case short
    /// Held past the anniversary.
    case long
}

/// One (disposal, lot) pair of `realized` (SPEC §19): the units of one lot a sell or a fee row
/// took, what they brought and what they cost. Money is in the portfolio's currency, exact to 38
/// significant digits.
public struct RealizedRow: Hashable, Sendable {
    /// The portfolio of the disposal.
    public var portfolio: String
    /// CoinGecko coin id.
    public var coinID: String
    /// Units of the lot disposed of.
    public var amount: PreciseDecimal
    /// When the units were first acquired (ms, UTC; a move keeps it). With `average` and in the
    /// `uk` Section 104 pool, the earliest acquisition in the pool; a `uk` match, the first
    /// acquisition of the matched day.
    public var acquiredAt: Int64
    /// The disposal's time (ms, UTC).
    public var disposedAt: Int64
    /// This lot's share, by units, of the disposal's proceeds net of its fees; nil while the
    /// disposal's price or its fee's value is pending.
    public var proceeds: PreciseDecimal?
    /// The units' cost; nil when unknown (transferred in, a pending price) — never 0.
    public var cost: PreciseDecimal?
    /// proceeds − cost; nil when either is unknown.
    public var gain: PreciseDecimal?
    /// UTC calendar days from the acquisition's date to the disposal's (0 for a `uk` thirty-day
    /// match, acquired after the disposal).
    public var holdingDays: Int
    /// Short or long term.
    public var term: Term
    /// Whether the lot was held past `tax_free_after_years`; nil when that option is null.
    public var taxFree: Bool?
    /// The id of the sell or fee transaction.
    public var disposalID: Int64

    /// `description,acquired,disposed,proceeds,cost,gain,term`: the columns of `csv`.
    static let csvHeader = "description,acquired,disposed,proceeds,cost,gain,term"

    /// The keys of a row's JSON, in the order written.
    enum JSONKey: String, WireKeys {
        case portfolio, coinID = "coin_id", amount, acquiredAt = "acquired_at", disposedAt = "disposed_at", proceeds, cost, gain
        case holdingDays = "holding_days", term, taxFree = "tax_free", disposalID = "disposal_id"
    }

    /// Each key with the punctuation before it (`{"portfolio":`, `,"coin_id":`, …) in one buffer,
    /// made once, and where each one lies in it: a report writes every row's keys, and rows run
    /// to hundreds of thousands (one buffer: no retain and release of an array per key written).
    private static let keyFragments: [[UInt8]] = JSONKey.allCases.enumerated().map { index, key in
        Array(((index == 0 ? "{" : ",") + "\"" + key.rawValue + "\":").utf8)
    }
    private static let keyText: [UInt8] = Array(keyFragments.joined())
    private static let keyRanges: [Range<Int>] = {
        var start = 0
        return keyFragments.map { fragment in
            defer { start += fragment.count }
            return start..<start + fragment.count
        }
    }()

    /// The most bytes `writeJSON` writes: the keys, the strings escaped, four decimals, two
    /// times and two integers.
    static func jsonRoom(names: Int) -> Int { keyText.count + 6 * names + 4 * PreciseDecimal.textCapacity + 256 }

    /// Appends the row's JSON object to `bytes` (`acquired` and `disposed`: the dates last written
    /// in those keys): written into a buffer on the stack, appended whole.
    func appendJSON(to bytes: inout [UInt8], acquired: inout LedgerTimestamp.DateCache, disposed: inout LedgerTimestamp.DateCache) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.jsonRoom(names: portfolio.utf8.count + coinID.utf8.count)) { buffer in
            guard let base = buffer.baseAddress else { return }
            var cursor = ByteCursor(base)
            withUnsafePointer(to: self) { Self.writeJSON($0, to: &cursor, acquired: &acquired, disposed: &disposed) }
            bytes.append(contentsOf: cursor.written)
        }
    }

    /// Writes the JSON object (at most `jsonRoom` bytes) of the row at `row`, read field by field
    /// where it lies (a method called on `row.pointee` copied the whole row, retaining its names).
    static func writeJSON(
        _ row: UnsafePointer<RealizedRow>, to cursor: inout ByteCursor, acquired: inout LedgerTimestamp.DateCache,
        disposed: inout LedgerTimestamp.DateCache
    ) {
        var (portfolio, coinID) = (row.pointee.portfolio, row.pointee.coinID)
        portfolio.withUTF8 { portfolio in
            coinID.withUTF8 { coinID in write(row, to: &cursor, portfolio, coinID, acquired: &acquired, disposed: &disposed) }
        }
    }

    private static func write(
        _ row: UnsafePointer<RealizedRow>, to bytes: inout ByteCursor, _ portfolio: UnsafeBufferPointer<UInt8>,
        _ coinID: UnsafeBufferPointer<UInt8>, acquired: inout LedgerTimestamp.DateCache, disposed: inout LedgerTimestamp.DateCache
    ) {
        let ranges = Self.keyRanges
        Self.keyText.withUnsafeBufferPointer { text in
            guard let start = text.baseAddress else { return }
            // A key's bytes by pointer arithmetic (a slice of the buffer went through a generic
            // call not inlined, once a key).
            func key(_ index: Int) {
                let range = ranges[index]
                bytes.put(UnsafeBufferPointer(start: start + range.lowerBound, count: range.count))
            }
            func decimal(_ value: PreciseDecimal?) {
                if let value { value.writeText(to: &bytes) } else { bytes.put("null") }
            }
            key(0)
            bytes.putQuoted(portfolio)
            key(1)
            bytes.putQuoted(coinID)
            key(2)
            row.pointee.amount.writeText(to: &bytes)
            key(3)
            bytes.put(UInt8(ascii: "\""))
            LedgerTimestamp.write(row.pointee.acquiredAt, to: &bytes, dates: &acquired)
            bytes.put(UInt8(ascii: "\""))
            key(4)
            bytes.put(UInt8(ascii: "\""))
            LedgerTimestamp.write(row.pointee.disposedAt, to: &bytes, dates: &disposed)
            bytes.put(UInt8(ascii: "\""))
            key(5)
            decimal(row.pointee.proceeds)
            key(6)
            decimal(row.pointee.cost)
            key(7)
            decimal(row.pointee.gain)
            key(8)
            bytes.putInteger(Int64(row.pointee.holdingDays))
            key(9)
            bytes.put(row.pointee.term == .long ? "\"long\"" : "\"short\"")
            key(10)
            bytes.put(row.pointee.taxFree.map { $0 ? "true" : "false" } ?? "null")
            key(11)
            bytes.put(UInt8(ascii: "\""))
            bytes.putInteger(row.pointee.disposalID)
            bytes.put("\"}")
        }
    }

    /// The row as CSV: `<amount> <coin_id>`, the UTC dates, the money (an unknown value is an
    /// empty cell), the term.
    func appendCSV(to bytes: inout [UInt8]) {
        var description: [UInt8] = []
        amount.appendText(to: &description)
        description.append(UInt8(ascii: " "))
        description.append(contentsOf: coinID.utf8)
        CSVWriter.appendField(description, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        LedgerTimestamp.appendDate(HoldingPeriod.day(acquiredAt), to: &bytes)
        bytes.append(UInt8(ascii: ","))
        LedgerTimestamp.appendDate(HoldingPeriod.day(disposedAt), to: &bytes)
        for value in [proceeds, cost, gain] {
            bytes.append(UInt8(ascii: ","))
            value?.appendText(to: &bytes)
        }
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: term.rawValue.utf8)
        bytes.append(contentsOf: [0x0D, 0x0A])
    }
}

/// Income received (SPEC §19): one row per income transaction.
public struct IncomeRow: Hashable, Sendable {
    /// The portfolio.
    public var portfolio: String
    /// CoinGecko coin id.
    public var coinID: String
    /// staking, interest, airdrop, mining, fork, gift, reward or other.
    public var incomeType: IncomeType?
    /// Units received.
    public var amount: PreciseDecimal
    /// amount × price at receipt in the portfolio's currency; nil while the price is pending.
    public var value: PreciseDecimal?
    /// When it was received (ms, UTC).
    public var timestamp: Int64
    /// The transaction's id.
    public var transactionID: Int64

    /// The keys of an element of `realized`'s `income`, in the order written.
    enum JSONKey: String, WireKeys {
        case portfolio, coinID = "coin_id", incomeType = "income_type", amount, value, timestamp, transactionID = "transaction_id"
    }

    func writeJSON(to w: inout JSONWriter) {
        w.key(JSONKey.portfolio); w.string(portfolio)
        w.key(JSONKey.coinID); w.string(coinID)
        w.key(JSONKey.incomeType); w.string(incomeType?.rawValue)
        w.key(JSONKey.amount); w.decimal(amount)
        w.key(JSONKey.value); w.decimal(value)
        w.key(JSONKey.timestamp); w.timestamp(timestamp)
        w.key(JSONKey.transactionID); w.string(String(transactionID))
    }
}

/// `realized` (SPEC §19): every (disposal, lot) pair of the period in ledger order, their totals,
/// and the income received in the period.
public struct RealizedReport: Sendable {
    /// The portfolio; nil: every portfolio of the owner.
    public var portfolio: String?
    /// The currency of every money value.
    public var vsCurrency: String
    /// The cost basis method.
    public var method: CostBasisMethod
    /// The rows, by disposal (ledger order), each disposal's lots in the order the method took them.
    public var rows: [RealizedRow]
    /// Their sums.
    public var totals: RealizedTotals
    /// Income of the period, in ledger order.
    public var income: [IncomeRow]
    /// Σ value of the income rows whose value is known.
    public var incomeTotal: PreciseDecimal

    /// The keys of the `realized` answer, in the order written.
    enum JSONKey: String, WireKeys {
        case portfolio, vsCurrency = "vs_currency", method, rows, totals, income, incomeTotal = "income_total"
    }

    /// `{"portfolio","vs_currency","method","rows":[{portfolio, coin_id, amount, acquired_at,
    /// disposed_at, proceeds, cost, gain, holding_days, term, tax_free, disposal_id}…],
    /// "totals":{proceeds, cost, gain, short_term_gain, long_term_gain, taxable_gain, coverage},
    /// "income":[{portfolio, coin_id, income_type, amount, value, timestamp, transaction_id}…],
    /// "income_total"}`
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter(reserving: rows.count * 400 + income.count * 240 + 400)
        writeJSON(to: &w, movingChunksTo: nil)
        return w.bytes
    }

    /// Writes `jsonUTF8` or `csv`, as `format` says, into `answer` (the C ABI's answer, written in
    /// place: no array of its size in between).
    @_spi(ABI) public func write(as format: RealizedOptions.Format, into answer: AnswerBuffer) {
        if format == .csv {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(AnswerBuffer.chunk + 4096)
            writeCSV(to: &bytes, movingChunksTo: answer)
            answer.append(bytes)
        } else {
            var w = JSONWriter(reserving: AnswerBuffer.chunk + 4096)
            writeJSON(to: &w, movingChunksTo: answer)
            answer.append(w.bytes)
        }
    }

    /// An upper estimate of the answer's size, for `AnswerBuffer(expected:)`.
    @_spi(ABI) public func expectedSize(as format: RealizedOptions.Format) -> Int {
        format == .csv ? rows.count * 120 + 64 : rows.count * 400 + income.count * 240 + 400
    }

    /// Writes the JSON to `w`, moving what it holds to `answer` (when there is one) every
    /// `AnswerBuffer.chunk` bytes of rows.
    private func writeJSON(to w: inout JSONWriter, movingChunksTo answer: AnswerBuffer?) {
        Self.writeJSON(to: &w, portfolio: portfolio, vsCurrency: vsCurrency, method: method) { bytes in
            var acquired = LedgerTimestamp.DateCache()
            var disposed = LedgerTimestamp.DateCache()
            if let answer {
                // Each row straight into the answer.
                answer.move(&bytes)
                rows.withUnsafeBufferPointer { rows in
                    guard let base = rows.baseAddress else { return }
                    for index in rows.indices {
                        RealizedRow.writeJSON(base + index, into: answer, first: index == 0, acquired: &acquired, disposed: &disposed)
                    }
                }
            } else {
                for (index, row) in rows.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    row.appendJSON(to: &bytes, acquired: &acquired, disposed: &disposed)
                }
            }
            return (totals, income, incomeTotal)
        }
    }

    /// Writes the JSON answer to `w`: `rows` writes the rows (after the `[` in `bytes`, which it
    /// may move to an answer) and answers what follows them, the totals and the income.
    static func writeJSON(
        to w: inout JSONWriter, portfolio: String?, vsCurrency: String, method: CostBasisMethod,
        rows: (inout [UInt8]) -> (totals: RealizedTotals, income: [IncomeRow], incomeTotal: PreciseDecimal)
    ) {
        w.beginObject()
        w.key(JSONKey.portfolio); w.string(portfolio)
        w.key(JSONKey.vsCurrency); w.string(vsCurrency)
        w.key(JSONKey.method); w.string(method.rawValue)
        w.key(JSONKey.rows)
        var rest: (totals: RealizedTotals, income: [IncomeRow], incomeTotal: PreciseDecimal)?
        w.rawBytes { bytes in
            bytes.append(UInt8(ascii: "["))
            rest = rows(&bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        guard let rest else { return }
        w.key(JSONKey.totals); w.beginObject(); rest.totals.writeJSON(to: &w); w.endObject()
        w.key(JSONKey.income); w.beginArray()
        for row in rest.income { w.beginObject(); row.writeJSON(to: &w); w.endObject() }
        w.endArray()
        w.key(JSONKey.incomeTotal); w.decimal(rest.incomeTotal)
        w.endObject()
    }

    /// The rows as CSV (RFC 4180, CRLF) in Form 8949-like columns:
    /// `description,acquired,disposed,proceeds,cost,gain,term` — description `<amount> <coin_id>`,
    /// dates as UTC `YYYY-MM-DD`, exact money, an unknown value as an empty cell.
    public var csv: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.count * 120 + 64)
        writeCSV(to: &bytes, movingChunksTo: nil)
        return bytes
    }

    /// Writes the CSV to `bytes`, moving them to `answer` (when there is one) every
    /// `AnswerBuffer.chunk` bytes.
    private func writeCSV(to bytes: inout [UInt8], movingChunksTo answer: AnswerBuffer?) {
        bytes.append(contentsOf: RealizedRow.csvHeader.utf8)
        bytes.append(contentsOf: [0x0D, 0x0A])
        for row in rows {
            row.appendCSV(to: &bytes)
            if let answer, bytes.count >= AnswerBuffer.chunk { answer.move(&bytes) }
        }
    }
}
