/// Binance's Transaction History statement (SPEC §18), variant `statement`:
/// `User_ID,UTC_Time,Account,Operation,Coin,Change,Remark`, one row per coin a change moved.
///
/// Rows with the same `UTC_Time` and `Account` whose operations trade (Buy, Sell, Fee;
/// Transaction Buy, Spend, Fee, Revenue, Sold; Binance Convert) form one entry: the coin whose
/// change is positive was received for the one whose change is negative, the fee rows (Fee,
/// Transaction Fee) are its fees (a BNB fee becomes a BNB fee row). Several fills of one pair in
/// the same second add up; rows that trade more than one coin against another are a warning.
/// Deposit → transfer_in; Withdraw → transfer_out, a fee row of its coin at the same time its
/// fee. Operations naming staking → income staking; launchpool, distribution or airdrop →
/// income airdrop; interest, savings or Simple Earn → income interest (checked in that order).
/// Operations that subscribe, purchase, redeem or transfer move coins between Binance's own
/// accounts and are ignored. Any other operation is a warning with its line. External ids: the
/// hash of the cells of the entry's rows.
struct BinanceStatementImporter: RowImporter {
    static let variants = [
        ImportVariant(
            format: .binance, name: "statement",
            columns: ["User_ID", "UTC_Time", "Account", "Operation", "Coin", "Change", "Remark"].map { .named($0) }
        ) { try BinanceStatementImporter(header: $0) }
    ]

    /// What an operation does.
    enum Operation: Equatable {
        case trade, fee, deposit, withdraw, income(IncomeType), ownAccounts, unknown

        /// The rules, in order: a cell that is exactly one of these names (without case)…
        private static let names: [(StaticString, Operation)] = [
            ("buy", .trade), ("sell", .trade), ("transaction buy", .trade), ("transaction spend", .trade),
            ("transaction revenue", .trade), ("transaction sold", .trade), ("binance convert", .trade),
            ("fee", .fee), ("transaction fee", .fee), ("deposit", .deposit), ("withdraw", .withdraw), ("withdrawal", .withdraw),
        ]
        /// …else the first of these words the cell contains.
        private static let words: [(StaticString, Operation)] = [
            ("subscription", .ownAccounts), ("subscribe", .ownAccounts), ("purchase", .ownAccounts),
            ("redemption", .ownAccounts), ("redeem", .ownAccounts), ("transfer", .ownAccounts),
            ("staking", .income(.staking)), ("launchpool", .income(.airdrop)), ("distribution", .income(.airdrop)),
            ("airdrop", .income(.airdrop)), ("interest", .income(.interest)), ("savings", .income(.interest)),
            ("simple earn", .income(.interest)),
        ]

        /// The operation a cell names (compared without case); `.unknown` for any other. An ASCII
        /// cell (every operation Binance writes) is matched by its bytes (`init(ascii:)`), anything
        /// else as lowercased text (`init(text:)`), both by the same rules.
        init(_ text: String) {
            var text = text
            if let operation = text.withUTF8({ Self(ascii: $0) }) {
                self = operation
            } else {
                self.init(text: text)
            }
        }

        /// The operation an ASCII cell names, its bytes lowercased; nil for a cell with a byte ≥
        /// 0x80 or over 64 bytes (for ASCII, a substring search is the byte search).
        init?(ascii bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count <= 64, !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var lowered: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
            self = withUnsafeMutableBytes(of: &lowered) { raw -> Operation in
                for (index, byte) in bytes.enumerated() {
                    raw[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                let name = UnsafeRawBufferPointer(rebasing: raw[..<bytes.count])
                func matches(_ word: StaticString, at offset: Int) -> Bool {
                    word.withUTF8Buffer { word in
                        guard offset + word.count <= name.count else { return false }
                        for index in 0..<word.count where name[offset + index] != word[index] { return false }
                        return true
                    }
                }
                if let (_, operation) = Self.names.first(where: { $0.0.utf8CodeUnitCount == name.count && matches($0.0, at: 0) }) {
                    return operation
                }
                let contained = Self.words.first { word, _ in
                    word.utf8CodeUnitCount <= name.count
                        && (0...(name.count - word.utf8CodeUnitCount)).contains { matches(word, at: $0) }
                }
                return contained?.1 ?? .unknown
            }
        }

        /// The operation a cell names, compared as lowercased text (any cell).
        init(text: String) {
            let name = text.lowercased()
            if let (_, operation) = Self.names.first(where: { $0.0.description == name }) {
                self = operation
            } else {
                self = Self.words.first { name.contains($0.0.description) }?.1 ?? .unknown
            }
        }
    }

    private let time, account, operation, coin, change, remark: ImportHeader.Field
    /// One row read.
    private struct Leg {
        var row: ImportRow
        var operation: Operation
        var coin: String
        var change: ExactDecimal
        /// Its account: the index in `accounts`.
        var account: Int
    }
    /// The rows of the time being read, in file order (kept, emptied in place, from time to time:
    /// an array of arrays a time was a visible share of an import).
    private var legs: [Leg] = []
    /// The accounts of `legs`, in order of first appearance.
    private var accounts: [String] = []
    private var heldTime: (text: String, ms: Int64)?
    private var operations = RecentOperations()

    /// The last eight operation cells (up to 32 bytes) and what they name, newest last: a
    /// statement repeats a few operations row after row, and matching a cell against the rules
    /// was ~600 instructions a row (a long one that names no rule, ~1,600).
    private struct RecentOperations {
        private typealias Cell = (UInt64, UInt64, UInt64, UInt64)
        private var cells: [(bytes: Cell, count: Int, operation: Operation?)] = []

        /// `Operation(ascii:)` of `bytes`, from the cells kept when it is one of them.
        mutating func operation(ascii bytes: UnsafeBufferPointer<UInt8>) -> Operation? {
            guard bytes.count <= 32, let base = bytes.baseAddress else { return Operation(ascii: bytes) }
            var cell: Cell = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &cell) { $0.baseAddress?.copyMemory(from: base, byteCount: bytes.count) }
            for kept in cells.reversed()
            where kept.count == bytes.count && kept.bytes.0 == cell.0 && kept.bytes.1 == cell.1 && kept.bytes.2 == cell.2
                && kept.bytes.3 == cell.3
            {
                return kept.operation
            }
            let operation = Operation(ascii: bytes)
            if cells.count == 8 { cells.removeFirst() }
            cells.append((cell, bytes.count, operation))
            return operation
        }
    }

    init(header: ImportHeader) throws {
        time = try header.require("UTC_Time")
        account = try header.require("Account")
        operation = try header.require("Operation")
        coin = try header.require("Coin")
        change = try header.require("Change")
        remark = try header.require("Remark")
    }

    mutating func read(_ row: ImportRow, into file: inout ImportedFile) throws {
        // The time's cell compared by its bytes (no `String` unless it is a new time).
        if !(heldTime.map { row.text(time, equals: $0.text) } ?? false) {
            try finish(into: &file)
            heldTime = (row.text(time), try row.time(time, .iso))
        }
        // The operation from the cell's bytes (`init(ascii:)`, which `init(_:)` reads an ASCII cell
        // by), through the cells read last.
        let named = row.withASCII(operation) { operations.operation(ascii: $0) } ?? nil
        var leg = Leg(
            row: row, operation: named ?? Operation(row.text(operation)), coin: try row.symbol(coin),
            change: try row.requiredNumber(change, [.signed, .thousands]).value, account: 0)
        let name = row.text(account)
        if let slot = accounts.firstIndex(of: name) {
            leg.account = slot
        } else {
            leg.account = accounts.count
            accounts.append(name)
        }
        legs.append(leg)
    }

    mutating func finish(into file: inout ImportedFile) throws {
        if let heldTime {
            // Each account's rows in file order, the accounts in order of first appearance.
            if accounts.count == 1 {
                try entries(legs, at: heldTime.ms, into: &file)
            } else {
                for slot in accounts.indices { try entries(legs.filter { $0.account == slot }, at: heldTime.ms, into: &file) }
            }
        }
        legs.removeAll(keepingCapacity: true)
        accounts.removeAll(keepingCapacity: true)
        heldTime = nil
    }

    /// The entries of one account's rows at one time.
    private func entries(_ legs: [Leg], at time: Int64, into file: inout ImportedFile) throws {
        // Fee rows (of a change other than 0) go to the trade when there is one, else to a
        // withdrawal of their coin.
        let hasTrade = legs.contains { $0.operation == .trade }
        var unclaimedFees: [Leg] = []
        if hasTrade {
            try trade(legs, at: time, into: &file)
        } else {
            unclaimedFees = legs.filter { $0.operation == .fee && !$0.change.isZero }
        }
        for leg in legs {
            let line = leg.row.line
            let units = leg.change.magnitude
            switch leg.operation {
            case .trade: continue
            case .fee:
                if !hasTrade, !legs.contains(where: { $0.operation == .withdraw && $0.coin == leg.coin }), !leg.change.isZero {
                    file.warn(line, "a Binance fee of \(units) \(leg.coin) with no trade or withdrawal of its time; the row was left out")
                }
                continue
            case _ where units.isZero:
                file.ignore(line, "the Binance row changes nothing")
            case .deposit where !leg.change.isNegative:
                let id = file.ids.hashed([leg.row.record])
                file.add(
                    line: line, timestamp: time, .transferIn(ImportedEntry.Asset(leg.coin, units)), note: leg.row.text(remark),
                    externalID: id)
            case .withdraw where leg.change.isNegative:
                let fees = unclaimedFees.filter { $0.coin == leg.coin }
                let feeAssets = fees.map { ImportedEntry.Asset($0.coin, $0.change.magnitude) }
                let id = file.ids.hashed(([leg] + fees).map(\.row.record))
                file.add(
                    line: line, timestamp: time, .transferOut(ImportedEntry.Asset(leg.coin, units)), fees: feeAssets,
                    note: leg.row.text(remark), externalID: id)
                unclaimedFees.removeAll { $0.coin == leg.coin }
            case .income(let type) where !leg.change.isNegative:
                let id = file.ids.hashed([leg.row.record])
                file.add(
                    line: line, timestamp: time, .income(ImportedEntry.Asset(leg.coin, units), type, value: nil),
                    note: leg.row.text(remark), externalID: id)
            case .ownAccounts:
                file.ignore(line, "a move between Binance's own accounts (\(leg.row.text(operation)))")
            default:
                file.warn(
                    line,
                    "Binance operation \"\(leg.row.text(operation))\" of \(leg.change) \(leg.coin) is not one Coinfolio reads; the row was left out"
                )
            }
        }
    }

    /// One trade from the trade rows of `legs` (at least one), its fees the fee rows of a change
    /// other than 0: per coin the changes add up; one coin must come in and one go out. The
    /// rows are picked out of `legs` where they lie (no array of them made).
    private func trade(_ legs: [Leg], at time: Int64, into file: inout ImportedFile) throws {
        guard let first = legs.first(where: { $0.operation == .trade }) else { return }
        let totals = try sums(legs, fees: false)
        var received: (count: Int, at: Int) = (0, 0)
        var sent: (count: Int, at: Int) = (0, 0)
        for (index, total) in totals.enumerated() {
            if total.change.isNegative {
                sent = (sent.count + 1, index)
            } else if !total.change.isZero {
                received = (received.count + 1, index)
            }
        }
        guard received.count == 1, sent.count == 1 else {
            let coins = totals.map { "\($0.change) \($0.coin)" }.joined(separator: ", ")
            return file.warn(
                first.row.line, "the Binance rows of this time and account trade \(coins): not one coin for another; they were left out")
        }
        let feeTotals = try sums(legs, fees: true)
        // The trade rows, then the fee rows, each in file order.
        var records: [CSVRecord] = []
        records.reserveCapacity(legs.count)
        for leg in legs where leg.operation == .trade { records.append(leg.row.record) }
        for leg in legs where Self.isFee(leg) { records.append(leg.row.record) }
        let id = file.ids.hashed(records)
        file.add(
            line: first.row.line, timestamp: time,
            .exchange(
                sent: ImportedEntry.Asset(totals[sent.at].coin, totals[sent.at].change.magnitude),
                received: ImportedEntry.Asset(totals[received.at].coin, totals[received.at].change), value: nil),
            fees: feeTotals.map { ImportedEntry.Asset($0.coin, $0.change) }, note: first.row.text(remark),
            externalID: id)
    }

    /// Whether a row is a trade's fee: a fee row of a change other than 0.
    private static func isFee(_ leg: Leg) -> Bool { leg.operation == .fee && !leg.change.isZero }

    /// The changes of the trade rows (or the magnitudes of the fee rows) of `legs` added up per
    /// coin, in order of first appearance.
    /// - Throws: `.invalidArgument` at the row where a sum leaves the ledger's ±8.5e19.
    private func sums(_ legs: [Leg], fees: Bool) throws -> [(coin: String, change: ExactDecimal)] {
        var totals: [(coin: String, change: ExactDecimal)] = []
        for leg in legs {
            let amount: ExactDecimal
            if fees {
                guard Self.isFee(leg) else { continue }
                amount = leg.change.magnitude
            } else {
                guard leg.operation == .trade else { continue }
                amount = leg.change
            }
            guard let slot = totals.firstIndex(where: { $0.coin == leg.coin }) else {
                totals.append((leg.coin, amount))
                continue
            }
            guard let sum = totals[slot].change.adding(amount) else {
                throw leg.row.error(change, "the changes of \(leg.coin) at this time add up beyond the ledger's ±8.5e19")
            }
            totals[slot].change = sum
        }
        return totals
    }
}
