/// `help` (also `-h`, `--help`): the usage text, made from each command's own `usage` and the
/// shared options (`Options.optionsUsage`), so the overview cannot disagree with the commands.
/// `help COMMAND` (also `COMMAND --help`): that command's forms and the shared options.
struct HelpCommand: Command {
    static let name = "help"
    static let operandCount: ClosedRange<Int>? = 0...1
    static let usage = [
        Usage(operands: "", summary: "this help (also -h, --help)"),
        Usage(operands: "COMMAND", summary: "the usage of one command (also COMMAND --help)"),
    ]

    func run(_ cli: CLI) throws {
        guard let name = cli.options.operands.first else { return say(Self.text) }
        guard let command = commands.first(where: { $0.name == name && $0 != HelpCommand.self }) else {
            fail("unknown command \"\(name)\" (see coinfolio-cli --help)", code: 2)
        }
        say(Self.text(of: [command]))
    }

    /// The whole usage text.
    static var text: String { text(of: commands.filter { $0 != HelpCommand.self }) }

    /// The usage text of `listed`: their forms, then the shared options.
    static func text(of listed: [any Command.Type]) -> String {
        var lines = ["usage: coinfolio-cli [options] <command> [arguments]", "", "commands:"]
        let column = 26
        for command in listed {
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
