/// `help` (also `-h`, `--help`): the usage text.
struct HelpCommand: Command {
    static let name = "help"
    static let operands: (count: ClosedRange<Int>, shape: String)? = nil

    func run(_ cli: CLI) throws {
        say(Options.usage)
    }
}
