// coinfolio-cli: a terminal crypto tracker on the Coinfolio Swift API. One type per command
// (Commands/), sharing the options (Options.swift) and the steps in CLI.swift.
import Coinfolio
import Foundation

LoopbackProxyExemption.apply()  // first: before any thread reads the environment
let environment = ProcessInfo.processInfo.environment
let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch let error as Options.UsageError {
    fail("\(error.message) (see coinfolio-cli --help)", code: 2)
}
let cli = CLI(options: options, terminal: Terminal(environment: environment))

guard let command = commands.first(where: { $0.name == options.command }) else {
    fail("unknown command \"\(options.command)\" (see coinfolio-cli --help)", code: 2)
}

// An option the command does not read is refused, never ignored: `sell … --dry-run` wrote the
// sale, `pnl --year 2024` showed every year.
// An option given twice (but --symbol) is refused too: `--price 5 --price 6` recorded 6. An
// option of another form (`portfolio --svg` without --history) names the option it goes with.
if command.name != HelpCommand.name {
    let read = Set(command.usage.flatMap { $0.required + $0.optional }.map(\.option))
    if let stray = options.commandFlags.first(where: { !read.contains($0) }) {
        fail("\(command.name) does not take \(stray) (see coinfolio-cli --help)", code: 2)
    }
    let given = Set(options.commandFlags)
    let repeating = Set(CommandFlag.allCases.filter(\.repeats).map(\.option))
    if let twice = options.commandFlags.enumerated().first(where: { index, flag in
        !repeating.contains(flag) && options.commandFlags[..<index].contains(flag)
    }) {
        fail("\(twice.element) is given twice (see coinfolio-cli --help)", code: 2)
    }
    let fits = command.usage.filter { Set(($0.required + $0.optional).map(\.option)).isSuperset(of: given) }
    if command.usage.count > 1, let form = fits.first, !fits.contains(where: { $0.required.allSatisfy { given.contains($0.option) } }),
        let flag = options.commandFlags.first
    {
        let missing = form.required.map(\.option).filter { !given.contains($0) }
        fail("\(command.name) takes \(flag) only with \(missing.joined(separator: " ")) (see coinfolio-cli --help)", code: 2)
    }
}

do {
    if let count = command.operandCount { cli.expectOperands(count, command.usage.first?.form ?? "") }
    try command.init().run(cli)
    cli.closeEngines()
} catch let error as CoinfolioError {
    // With --json the error's own JSON goes to stdout too (status, code, message, details: as
    // the C ABI's out_error), so a script reads the reason instead of parsing the message.
    cli.failReporting(error, error.message, code: error.code == .invalidArgument ? 2 : 1)
} catch let error as Options.UsageError {
    fail(error.message, code: 2)
} catch {
    fail("\(error)", code: 1)
}
