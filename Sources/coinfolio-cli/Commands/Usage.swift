/// An option a command reads beyond the shared ones, as usage lines show it (the raw value).
enum CommandFlag: String, CaseIterable {
    case price = "--price P"
    case fee = "--fee F"
    case at = "--at TIME"
    case note = "--note TEXT"
    case method = "--method fifo|lifo|average"
    case days = "--days N|max"
    case svg = "--svg FILE"
    case history = "--history"

    /// The option's name on the command line (`--price`).
    var option: String { String(rawValue.prefix { $0 != " " }) }
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

    /// `COIN AMOUNT --price P [--fee F] [--at TIME] [--note TEXT]`.
    var form: String {
        ([operands] + required.map(\.rawValue) + optional.map { "[\($0.rawValue)]" }).filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
