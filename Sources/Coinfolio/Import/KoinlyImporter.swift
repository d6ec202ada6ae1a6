/// Koinly's universal CSV (SPEC §18), variant `universal`: `Date (UTC),Sent Amount,Sent
/// Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth
/// Currency,Label,Description,TxHash`.
///
/// A row with both sides is an exchange (valued at its Net Worth when given); with only a
/// received side it is income when its Label says so (staking, reward, airdrop, mining, gift,
/// lending interest → that type, other income → other; Net Worth is its value), a transfer_in
/// without a label; with only a sent side a transfer_out (no label, gift, lost or donation).
/// Labels are compared without case; any other label on a one-sided row is a warning with its
/// line. A Fee Amount of 0 with no Fee Currency is no fee. The note is the Description. External ids: the hash of the row's cells (a TxHash names
/// a blockchain transaction, which may hold several rows).
struct KoinlyImporter: RowImporter {
    static let variants = [
        ImportVariant(
            format: .koinly, name: "universal",
            columns: [
                "Date (UTC)", "Sent Amount", "Sent Currency", "Received Amount", "Received Currency", "Fee Amount", "Fee Currency",
                "Net Worth Amount", "Net Worth Currency", "Label", "Description", "TxHash",
            ].map { .named($0) }
        ) { try KoinlyImporter(header: $0) }
    ]

    /// Income types by label, lower-cased.
    static let incomeLabels: [String: IncomeType] = [
        "staking": .staking, "reward": .reward, "airdrop": .airdrop, "mining": .mining, "gift": .gift, "lending interest": .interest,
        "other income": .other,
    ]
    /// Labels of a sent-only row that make it a transfer_out.
    static let outgoingLabels: Set<String> = ["", "gift", "lost", "donation"]

    private let date, sentAmount, sentCurrency, receivedAmount, receivedCurrency, feeAmount, feeCurrency: ImportHeader.Field
    private let worthAmount, worthCurrency, label, description: ImportHeader.Field

    init(header: ImportHeader) throws {
        date = try header.require("Date (UTC)")
        sentAmount = try header.require("Sent Amount")
        sentCurrency = try header.require("Sent Currency")
        receivedAmount = try header.require("Received Amount")
        receivedCurrency = try header.require("Received Currency")
        feeAmount = try header.require("Fee Amount")
        feeCurrency = try header.require("Fee Currency")
        worthAmount = try header.require("Net Worth Amount")
        worthCurrency = try header.require("Net Worth Currency")
        label = try header.require("Label")
        description = try header.require("Description")
    }

    mutating func read(_ row: ImportRow, into file: inout ImportedFile) throws {
        let time = try row.time(date, .iso)
        func side(_ amount: ImportHeader.Field, _ currency: ImportHeader.Field) throws -> ImportedEntry.Asset? {
            guard let read = try row.number(amount, []) else {
                guard row.text(currency).isEmpty else { throw row.error(amount, "\(amount.title) is empty while \(currency.title) is not") }
                return nil
            }
            return ImportedEntry.Asset(try row.symbol(currency), read.value)
        }
        let sent = try side(sentAmount, sentCurrency)
        let received = try side(receivedAmount, receivedCurrency)
        let worth = try side(worthAmount, worthCurrency)
        // A fee of 0 needs no currency: no fee (a fee of more without one is still refused).
        let noFee = try row.number(feeAmount, [])?.value.isZero == true && row.text(feeCurrency).isEmpty
        let fees = noFee ? [] : try side(feeAmount, feeCurrency).map { [$0] } ?? []
        let name = row.text(label).lowercased()
        let action: ImportedEntry.Action
        switch (sent, received) {
        case (let sent?, let received?): action = .exchange(sent: sent, received: received, value: worth)
        case (nil, let received?):
            if let type = Self.incomeLabels[name] {
                action = .income(received, type, value: worth)
            } else if name.isEmpty {
                action = .transferIn(received)
            } else {
                return file.warn(
                    row.line, "Koinly label \"\(row.text(label))\" on a received amount is not one Coinfolio reads; the row was left out")
            }
        case (let sent?, nil):
            guard Self.outgoingLabels.contains(name) else {
                return file.warn(
                    row.line, "Koinly label \"\(row.text(label))\" on a sent amount is not one Coinfolio reads; the row was left out")
            }
            action = .transferOut(sent)
        case (nil, nil):
            throw row.error(sentAmount, "the row has neither a sent nor a received amount")
        }
        let id = file.ids.hashed([row.record])
        file.add(line: row.line, timestamp: time, action, fees: fees, note: row.text(description), externalID: id)
    }
}
