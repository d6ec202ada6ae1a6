/// An option a command reads beyond the shared ones, as usage lines show it (the raw value).
enum CommandFlag: String, CaseIterable {
    case price = "--price P"
    case fee = "--fee F"
    case feeCoin = "--fee-coin ID"
    case feePrice = "--fee-price P"
    case value = "--value V"
    case from = "--from P"
    case to = "--to Q"
    case received = "--received R"
    case incomeType = "--type staking|interest|airdrop|mining|fork|gift|reward|other"
    case at = "--at TIME"
    case note = "--note TEXT"
    case method = "--method fifo|lifo|hifo|lofo|average|uk"
    case days = "--days N|max"
    case svg = "--svg FILE"
    case history = "--history"
    case maxRequests = "--max-requests N"
    case range = "--range 24h|7d|30d|90d|1y|ytd|max|FROM..TO"
    case benchmark = "--benchmark COIN"
    case year = "--year Y"
    case taxFreeAfter = "--tax-free-after N"
    case csv = "--csv"
    case format = "--format F"
    case dryRun = "--dry-run"
    case symbol = "--symbol SYMBOL=ID"
    case all = "--all"

    /// The option's name on the command line (`--price`).
    var option: String { String(rawValue.prefix { $0 != " " }) }

    /// Whether the option may be given more than once (`--symbol`); the usage writes `…` after it.
    var repeats: Bool { self == .symbol }

    /// The option this one only goes with (`--fee-coin` names the coin of `--fee`); the usage
    /// writes it inside that one's brackets.
    var within: CommandFlag? {
        switch self {
        case .feeCoin: return .fee
        case .feePrice: return .feeCoin
        default: return nil
        }
    }
}

/// One form of a command, as `--help` lists it and a wrong operand count prints it: its
/// operands, the options it reads, and what it does. A command's forms are written once, in its
/// own type (`Command.usage`); the overview is made from them (`HelpCommand`).
struct Usage {
    /// The operands as they read (`"COIN AMOUNT"`, `"[FILE.csv]"`, `""`).
    var operands: String
    /// Options this form needs.
    var required: [CommandFlag] = []
    /// Options this form may take.
    var optional: [CommandFlag] = []
    /// What it does: one line or a few, for the column right of the form.
    var summary: String

    /// `COIN AMOUNT --price P [--fee F [--fee-coin ID [--fee-price P]]] [--at TIME] [--note TEXT]`:
    /// an optional flag that goes with the one before it (`within`) sits inside its brackets.
    var form: String {
        var optionalText = ""
        var open = 0
        for (index, flag) in optional.enumerated() {
            let nested = index > 0 && flag.within == optional[index - 1]
            if !nested {
                optionalText += String(repeating: "]", count: open)
                open = 0
            }
            optionalText += (optionalText.isEmpty ? "" : " ") + "[" + flag.rawValue
            open += 1
            if flag.repeats {
                optionalText += String(repeating: "]", count: open) + "…"
                open = 0
            }
        }
        optionalText += String(repeating: "]", count: open)
        return ([operands] + required.map(\.rawValue) + [optionalText]).filter { !$0.isEmpty }.joined(separator: " ")
    }
}
