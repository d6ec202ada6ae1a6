/// `help` (also `-h`, `--help`): the usage text, made from each command's own `usage` and the
/// shared options (`Options.optionsUsage`), so the overview cannot disagree with the commands.
struct HelpCommand: Command {
    static let name = "help"
    static let operandCount: ClosedRange<Int>? = nil
    static let usage = [Usage(operands: "", summary: "this help (also -h, --help)")]

    func run(_ cli: CLI) throws {
        say(Self.text)
    }

    /// The whole usage text.
    static var text: String {
        var lines = ["usage: coinfolio-cli [options] <command> [arguments]", "", "commands:"]
        let column = 26
        for command in commands where command != HelpCommand.self {
            for usage in command.usage {
                let form = "  " + [command.name, usage.form].filter { !$0.isEmpty }.joined(separator: " ")
                let summary = usage.summary.split(separator: "\n", omittingEmptySubsequences: false)
                if form.count < column - 1 {
                    lines.append(form.padding(toLength: column, withPad: " ", startingAt: 0) + summary[0])
                } else {
                    lines.append(form)
                    lines.append(String(repeating: " ", count: column) + summary[0])
                }
                lines += summary.dropFirst().map { String(repeating: " ", count: column) + $0 }
            }
        }
        return (lines + ["", Options.optionsUsage]).joined(separator: "\n")
    }
}
