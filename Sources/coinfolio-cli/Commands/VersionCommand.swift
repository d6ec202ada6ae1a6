import Coinfolio

/// `version`: the library's version.
struct VersionCommand: Command {
    static let name = "version"
    static let operands: (count: ClosedRange<Int>, shape: String)? = (0...0, "")

    func run(_ cli: CLI) throws {
        say(cli.options.json ? #"{"version":"\#(Coinfolio.version)"}"# : "coinfolio-cli \(Coinfolio.version)")
    }
}
