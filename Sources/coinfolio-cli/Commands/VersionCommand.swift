import Coinfolio

/// `version`: the library's version.
struct VersionCommand: Command {
    static let name = "version"
    static let operandCount: ClosedRange<Int>? = 0...0
    static let usage = [
        Usage(operands: "", summary: "print the version")
    ]

    func run(_ cli: CLI) throws {
        say(cli.options.json ? #"{"version":"\#(Coinfolio.version)"}"# : "coinfolio-cli \(Coinfolio.version)")
    }
}
