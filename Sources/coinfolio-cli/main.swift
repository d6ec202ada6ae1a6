// coinfolio-cli: a terminal crypto tracker on the Coinfolio Swift API. One type per command
// (Commands/), sharing the options (Options.swift) and the steps in CLI.swift.
import Coinfolio
import Foundation

LoopbackProxyExemption.apply()  // first: before any thread reads the environment
// Arguments are read as UTF-8: Swift's `CommandLine.arguments` replaces bytes that are not with
// U+FFFD, so owners `alice\xfe` and `alice\xff` were one owner and a coin id or note was stored
// changed. Such an argument is refused, as a file with such bytes is.
for index in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) != nil else {
        fail("argument \(index) is not valid UTF-8 (see coinfolio-cli --help)", code: 2)
    }
}
// The same for the variables the CLI reads (COINFOLIO_OWNER, COINFOLIO_DB, …).
var variable = environ
while let entry = variable.pointee {
    if strncmp(entry, "COINFOLIO_", 10) == 0, String(validatingCString: entry) == nil {
        let name = String(decoding: UnsafeRawBufferPointer(start: entry, count: strcspn(entry, "=")), as: UTF8.self)
        fail("the environment variable \(name) is not valid UTF-8", code: 2)
    }
    variable += 1
}
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
    flushOutput()
} catch let error as CoinfolioError {
    // With --json the error's own JSON goes to stdout too (status, code, message, details: as
    // the C ABI's out_error), so a script reads the reason instead of parsing the message.
    cli.failReporting(error, error.message, code: error.code == .invalidArgument ? 2 : 1)
} catch let error as Options.UsageError {
    fail(error.message, code: 2)
} catch {
    fail(describe(error), code: 1)
}
