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
    }
    /// The rows of the time being read, by account in order of first appearance.
    private var held: [(account: String, legs: [Leg])] = []
    private var heldTime: (text: String, ms: Int64)?

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
        // The operation from the cell's bytes (`init(ascii:)`, which `init(_:)` reads an ASCII cell by).
        let named = row.withASCII(operation) { Operation(ascii: $0) } ?? nil
        let leg = Leg(
            row: row, operation: named ?? Operation(row.text(operation)), coin: try row.symbol(coin),
            change: try row.requiredNumber(change, [.signed, .thousands]).value)
        let name = row.text(account)
        if let slot = held.firstIndex(where: { $0.account == name }) {
            held[slot].legs.append(leg)
        } else {
            held.append((name, [leg]))
        }
    }

    mutating func finish(into file: inout ImportedFile) throws {
        if let heldTime {
            for (_, legs) in held { try entries(legs, at: heldTime.ms, into: &file) }
        }
        held.removeAll(keepingCapacity: true)
        heldTime = nil
    }

    /// The entries of one account's rows at one time.
    private func entries(_ legs: [Leg], at time: Int64, into file: inout ImportedFile) throws {
        let trades = legs.filter { $0.operation == .trade }
        let feeLegs = legs.filter { $0.operation == .fee && !$0.change.isZero }
        let withdrawals = legs.filter { $0.operation == .withdraw }
        // Fee rows go to the trade when there is one, else to a withdrawal of their coin.
        var unclaimedFees = feeLegs
        if !trades.isEmpty {
            try trade(trades, fees: feeLegs, at: time, into: &file)
            unclaimedFees = []
        }
        for leg in legs {
            let line = leg.row.line
            let units = leg.change.magnitude
            let asset = ImportedEntry.Asset(leg.coin, units)
            switch leg.operation {
            case .trade: continue
            case .fee:
                if trades.isEmpty, !withdrawals.contains(where: { $0.coin == leg.coin }), !leg.change.isZero {
                    file.warn(line, "a Binance fee of \(units) \(leg.coin) with no trade or withdrawal of its time; the row was left out")
                }
                continue
            case _ where units.isZero:
                file.ignore(line, "the Binance row changes nothing")
            case .deposit where !leg.change.isNegative:
                let id = file.ids.hashed([leg.row.record])
                file.add(line: line, timestamp: time, .transferIn(asset), note: leg.row.text(remark), externalID: id)
            case .withdraw where leg.change.isNegative:
                let fees = unclaimedFees.filter { $0.coin == leg.coin }
                let feeAssets = fees.map { ImportedEntry.Asset($0.coin, $0.change.magnitude) }
                let id = file.ids.hashed(([leg] + fees).map(\.row.record))
                file.add(line: line, timestamp: time, .transferOut(asset), fees: feeAssets, note: leg.row.text(remark), externalID: id)
                unclaimedFees.removeAll { $0.coin == leg.coin }
            case .income(let type) where !leg.change.isNegative:
                let id = file.ids.hashed([leg.row.record])
                file.add(line: line, timestamp: time, .income(asset, type, value: nil), note: leg.row.text(remark), externalID: id)
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

    /// One trade from its rows: per coin the changes add up; one coin must come in and one go out.
    private func trade(_ legs: [Leg], fees: [Leg], at time: Int64, into file: inout ImportedFile) throws {
        let totals = try sums(legs.map { ($0, $0.change) })
        let line = legs[0].row.line
        let received = totals.filter { !$0.change.isNegative && !$0.change.isZero }
        let sent = totals.filter { $0.change.isNegative }
        guard received.count == 1, sent.count == 1 else {
            let coins = totals.map { "\($0.change) \($0.coin)" }.joined(separator: ", ")
            return file.warn(line, "the Binance rows of this time and account trade \(coins): not one coin for another; they were left out")
        }
        let feeTotals = try sums(fees.map { ($0, $0.change.magnitude) })
        let id = file.ids.hashed((legs + fees).map(\.row.record))
        file.add(
            line: line, timestamp: time,
            .exchange(
                sent: ImportedEntry.Asset(sent[0].coin, sent[0].change.magnitude),
                received: ImportedEntry.Asset(received[0].coin, received[0].change), value: nil),
            fees: feeTotals.map { ImportedEntry.Asset($0.coin, $0.change) }, note: legs[0].row.text(remark),
            externalID: id)
    }

    /// The amounts added up per coin, in order of first appearance.
    /// - Throws: `.invalidArgument` at the row where a sum leaves the ledger's ±8.5e19.
    private func sums(_ amounts: [(leg: Leg, amount: ExactDecimal)]) throws -> [(coin: String, change: ExactDecimal)] {
        var totals: [(coin: String, change: ExactDecimal)] = []
        for (leg, amount) in amounts {
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
