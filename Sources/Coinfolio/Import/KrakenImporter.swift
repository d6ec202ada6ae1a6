/// Kraken's ledgers export (SPEC §18): `ledgers` (older files, no `wallet` column) and
/// `ledgers_wallet`; newer files' `amountusd` and `subclass` are read as the same variant (and
/// not used). Amounts are signed; `fee` is in the row's asset and leaves the balance besides
/// the amount. Asset codes go through `SymbolTable.krakenTicker` (`XXBT` → BTC, `ZEUR` → EUR,
/// `DOT.S` → DOT). Rows in `KFEE` (the fee credits of older accounts) carry no money value: they
/// are ignored, and a trade whose fee they paid is read from its other rows.
///
/// Rows sharing a `refid` form one entry, whatever their times and wherever they are in the
/// file (Buy Crypto's `spend` and `receive` may be a second apart): the rows are held until the
/// file ends, and the entries made in the order their refids first appear. A `trade` (or the
/// `spend`/`receive` pair of Kraken's Buy Crypto) is an exchange of the negative row's asset for
/// the positive one's at the earliest of its rows' times, at the line of its first row, each
/// row's fee a fee of the entry. `deposit` → transfer_in, `withdrawal` → transfer_out (its
/// fee a fee row in the coin); both ignored for money. `staking`, and `earn` with subtype
/// `reward`, → income staking. Moves between Kraken's own wallets (`transfer` between spot,
/// staking and futures; `earn` allocations and migrations) are ignored, and a row without a
/// `txid` too: Kraken writes a deposit or withdrawal twice, first without one while it is pending.
/// A `transfer` with subtype `airdrop` is income airdrop. Any other type is a warning with its
/// line. External ids: `kraken:<refid>`.
struct KrakenImporter: RowImporter {
    static let variants: [ImportVariant] = {
        let before: [ImportVariant.Column] = ["txid", "refid", "time", "type", "subtype", "aclass", "asset"].map { .named($0) }
        let after: [ImportVariant.Column] = ["amount", "fee", "balance"].map { .named($0) }
        let newer = ["amountusd", "subclass"]
        return [
            ImportVariant(format: .kraken, name: "ledgers", columns: before + after, newerColumns: newer) {
                try KrakenImporter(header: $0)
            },
            ImportVariant(format: .kraken, name: "ledgers_wallet", columns: before + [.named("wallet")] + after, newerColumns: newer) {
                try KrakenImporter(header: $0)
            },
        ]
    }()

    private let txid, refid, time, type, subtype, asset, amount, fee: ImportHeader.Field
    /// One row read: its line, cells, time, ticker and signed amount and fee.
    private struct Leg {
        var row: ImportRow
        var time: Int64
        var ticker: String
        var amount: ExactDecimal
        var fee: ExactDecimal
    }
    /// The rows read, by refid in order of first appearance (kept to the end of the file: a
    /// refid's rows need not be next to each other).
    private var held: [(refid: String, legs: [Leg])] = []
    /// Each refid's place in `held`.
    private var slots: [String: Int] = [:]

    init(header: ImportHeader) throws {
        txid = try header.require("txid")
        refid = try header.require("refid")
        time = try header.require("time")
        type = try header.require("type")
        subtype = try header.require("subtype")
        asset = try header.require("asset")
        amount = try header.require("amount")
        fee = try header.require("fee")
    }

    mutating func read(_ row: ImportRow, into file: inout ImportedFile) throws {
        let leg = Leg(
            row: row, time: try row.time(time, .iso), ticker: SymbolTable.krakenTicker(try row.symbol(asset)),
            amount: try row.decimal(amount, .signed), fee: try row.number(fee, .signed)?.value ?? .zero)
        guard !row.text(txid).isEmpty else {
            return file.ignore(row.line, "a Kraken row without a txid is pending; Kraken writes it again once it is done")
        }
        guard leg.ticker != "KFEE" else {
            return file.ignore(row.line, "Kraken fee credits (KFEE) have no market value; the row was left out")
        }
        let id = row.text(refid)
        guard !id.isEmpty else { throw row.error(refid, "refid is empty") }
        if let slot = slots[id] {
            held[slot].legs.append(leg)
        } else {
            slots[id] = held.count
            held.append((id, [leg]))
        }
    }

    mutating func finish(into file: inout ImportedFile) throws {
        for (id, legs) in held { try entry(id, legs, into: &file) }
        held.removeAll()
        slots.removeAll()
    }

    private func entry(_ id: String, _ legs: [Leg], into file: inout ImportedFile) throws {
        guard let first = legs.first else { return }
        let kind = first.row.text(type).lowercased()
        let sub = first.row.text(subtype).lowercased()
        let externalID = file.ids.own(id)
        func asset(_ leg: Leg, _ units: ExactDecimal) -> ImportedEntry.Asset {
            ImportedEntry.Asset(leg.ticker, units)
        }
        let fees = legs.filter { !$0.fee.isZero }.map { ImportedEntry.Asset($0.ticker, $0.fee.magnitude) }
        // At the earliest row's time: when the trade began (its rows may be a second apart).
        let earliest = legs.lazy.map(\.time).min() ?? first.time
        func add(_ action: ImportedEntry.Action) {
            file.add(line: first.row.line, timestamp: earliest, action, fees: fees, note: "", externalID: externalID)
        }
        switch kind {
        case "trade", "spend", "receive":
            let sent = legs.filter { $0.amount.isNegative }
            let received = legs.filter { !$0.amount.isNegative && !$0.amount.isZero }
            guard sent.count == 1, received.count == 1 else {
                return file.warn(
                    first.row.line,
                    "the Kraken trade \(id) has \(sent.count) rows paid and \(received.count) received (one of each is read); it was left out"
                )
            }
            add(.exchange(sent: asset(sent[0], sent[0].amount.magnitude), received: asset(received[0], received[0].amount), value: nil))
        case "deposit", "withdrawal", "staking", "earn", "transfer":
            for leg in legs { try single(leg, kind: kind, sub: sub, externalID: legs.count == 1 ? externalID : nil, into: &file) }
        default:
            for leg in legs {
                file.warn(leg.row.line, "Kraken type \"\(leg.row.text(type))\" is not one Coinfolio reads; the row was left out")
            }
        }
    }

    /// A row that stands alone (a deposit, withdrawal, reward or wallet move). Several rows of
    /// one refid each take the hash of their cells.
    private func single(_ leg: Leg, kind: String, sub: String, externalID: String?, into file: inout ImportedFile) throws {
        let units = leg.amount.magnitude
        let line = leg.row.line
        guard !units.isZero else { return file.ignore(line, "the Kraken row moves nothing") }
        let coin = ImportedEntry.Asset(leg.ticker, units)
        let fees = leg.fee.isZero ? [] : [ImportedEntry.Asset(leg.ticker, leg.fee.magnitude)]
        let id = externalID ?? file.ids.hashed([leg.row.record])
        func add(_ action: ImportedEntry.Action) {
            file.add(line: line, timestamp: leg.time, action, fees: fees, note: "", externalID: id)
        }
        let incoming = !leg.amount.isNegative
        switch (kind, sub) {
        case ("deposit", _) where incoming: add(.transferIn(coin))
        case ("withdrawal", _) where !incoming: add(.transferOut(coin))
        case ("staking", _) where incoming, ("earn", "reward") where incoming: add(.income(coin, .staking, value: nil))
        case ("transfer", "airdrop") where incoming: add(.income(coin, .airdrop, value: nil))
        case ("transfer", _) where Self.walletMoves.contains(sub), ("earn", _) where sub != "reward":
            file.ignore(line, "a move between Kraken's own wallets (\(kind) \(sub))")
        default:
            file.warn(
                line,
                "Kraken \(kind) \(sub.isEmpty ? "" : "\(sub) ")of \(leg.amount) \(leg.ticker) is not one Coinfolio reads; the row was left out"
            )
        }
    }

    /// `transfer` subtypes that move coins between Kraken's spot, staking and futures wallets.
    private static let walletMoves: Set<String> = [
        "spottostaking", "stakingfromspot", "stakingtospot", "spotfromstaking", "spottofutures", "spotfromfutures",
    ]
}
