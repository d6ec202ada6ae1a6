import Coinfolio
import Foundation

/// The command line: a command, its operands, and the options every command shares.
struct Options {
    var command = "home"
    var operands: [String] = []
    var database: String
    var owner: String?
    /// `--refresh-max-age S`: a refresh answers with the shared snapshot when it is younger (SPEC §20).
    var refreshMaxAge: Double = 0
    var baseURL: String?
    var plan: String?
    var apiKey: String?
    var vsCurrency = "usd"
    var json = false
    var offline = false
    var limit = 20
    var portfolio = Transaction.defaultPortfolio
    /// Whether `--portfolio` was given (`fill-prices` fills every portfolio without it).
    var portfolioGiven = false
    /// `--all` of `export`: every portfolio's transactions.
    var allPortfolios = false
    /// `--max-requests N` of `fill-prices`.
    var maxRequests: Int?
    var price: String?
    var fee: String?
    var at: String?
    var note: String?
    var method = "fifo"
    /// Trades, fees in coins, moves and income (SPEC §16).
    var value: String?
    var feeCoin: String?
    var feePrice: String?
    var from: String?
    var to: String?
    var received: String?
    var incomeType: String?
    /// `--days N|max` of `chart`.
    var days: String?
    /// `--svg FILE` of `chart` and `portfolio --history`.
    var svg: String?
    /// `--history` of `portfolio`.
    var history = false
    /// Returns and taxes (SPEC §19): `--range` and `--benchmark` of `performance`; `--year`,
    /// `--tax-free-after` and `--csv` of `realized`.
    var range: String?
    var benchmark: String?
    var year: Int?
    var taxFreeAfter: Int?
    var csv = false
    /// `--format F` of `import` (nil: detected).
    var format: ImportFormat?
    /// `--dry-run` of `import`.
    var dryRun = false
    /// `--symbol SYMBOL=ID` of `import`, each given.
    var symbols: [String: String] = [:]
    /// The command options given (`--price`, `--dry-run`…: `CommandFlag`s), in order: a command
    /// refuses those it does not read (main.swift), so `sell … --dry-run` never writes the sale.
    var commandFlags: [String] = []

    /// The options part of the usage text (`HelpCommand.text` puts the commands before it).
    static let optionsUsage = """
        options:
          --db PATH               database (env COINFOLIO_DB; default $XDG_DATA_HOME/coinfolio/portfolio.sqlite
                                  or ~/.local/share/coinfolio/portfolio.sqlite), or postgresql://user@host/db
          --owner NAME            whose rows to use in a shared database (env COINFOLIO_OWNER; default "default")
          --refresh-max-age S     refresh only when the snapshot saved in the database (by anyone) is S seconds
                                  old or more (default 0: always)
          --base-url URL          CoinGecko API root (env COINFOLIO_BASE_URL)
          --plan public|demo|pro  CoinGecko plan of the key
          --api-key-file PATH     read the CoinGecko API key from the first line of PATH (chmod 600 it)
          --api-key KEY           CoinGecko API key (env COINFOLIO_API_KEY). Prefer the variable or
                                  --api-key-file: a key on the command line shows in every user's
                                  process list (ps) and stays in your shell history
          --vs-currency CODE      quote currency (default usd)
          --limit N               coins listed by home and search (default 20)
          --offline               answer from the saved snapshot, without network
          --portfolio NAME        the ledger portfolio the ledger commands read and write (default main;
                                  fill-prices without it: every portfolio)
          --at TIME               when a transaction happened, or the time of price and set-price: RFC 3339
                                  (2024-03-01T12:30:00Z, an offset, or a date alone = 00:00 UTC); default
                                  now; never the local time zone
          --svg FILE              also write the chart as an SVG file
          --json                  machine output (the library's JSON shapes)
          -h, --help              this help; after a command (import --help), that command's usage
        an option's value may also be attached: --price=5 is --price 5
        """

    struct UsageError: Error { var message: String }

    /// The options that take no value (every other option takes one).
    static let switches: Set<String> = ["--csv", "--history", "--dry-run", "--all", "--json", "--offline", "--help"]

    /// `--name=value` as `--name value` (getopt_long's attached form; the value keeps any `=`,
    /// as in `--symbol=BOND=barnbridge`), before a `--` only. The argument after an option that
    /// takes a value is that value, as written (`--note --a=b` is the note "--a=b"). A switch
    /// with a value, and `--=…` (no name), are refused.
    static func detachingValues(_ arguments: [String]) throws -> [String] {
        var detached: [String] = []
        var valueNext = false
        for (index, argument) in arguments.enumerated() {
            if valueNext {
                detached.append(argument)
                valueNext = false
                continue
            }
            if argument == "--" {
                detached += arguments[index...]
                break
            }
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
                detached.append(argument)
                valueNext = argument.hasPrefix("--") && !switches.contains(argument)
                continue
            }
            let name = String(argument[..<equals])
            if name == "--" { throw UsageError(message: "unknown option \(argument)") }
            if switches.contains(name) { throw UsageError(message: "\(name) takes no value, not \"\(argument)\"") }
            detached += [name, String(argument[argument.index(after: equals)...])]
        }
        return detached
    }

    init(arguments given: [String], environment: [String: String]) throws {
        let arguments = try Options.detachingValues(given)
        database = environment["COINFOLIO_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? Options.defaultDatabase(environment)
        owner = environment["COINFOLIO_OWNER"].flatMap { $0.isEmpty ? nil : $0 }
        baseURL = environment["COINFOLIO_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        apiKey = environment["COINFOLIO_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        var positional: [String] = []
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(name) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if CommandFlag.allCases.contains(where: { $0.option == argument }) { commandFlags.append(argument) }
            switch argument {
            case "--db": database = try value(argument)
            case "--owner": owner = try value(argument)
            case "--refresh-max-age":
                guard let seconds = Double(try value(argument)), seconds.isFinite, seconds >= 0 else {
                    throw UsageError(message: "--refresh-max-age needs a number of seconds, 0 or more")
                }
                refreshMaxAge = seconds
            case "--base-url": baseURL = try value(argument)
            case "--plan": plan = try value(argument)
            case "--api-key": apiKey = try value(argument)
            case "--api-key-file":
                let (key, warning) = try PrivateFiles.readKeyFile(try value(argument))
                if let warning { warn(warning) }
                apiKey = key
            case "--vs-currency": vsCurrency = try value(argument)
            case "--limit":
                let text = try value(argument)
                guard let number = Int(text), number > 0 else {
                    throw UsageError(message: "--limit needs a whole number above 0, not \"\(text)\"")
                }
                limit = number
            case "--portfolio":
                portfolio = try value(argument)
                portfolioGiven = true
            case "--max-requests":
                let text = try value(argument)
                guard let number = Int(text), (0...FillOptions.largestMaxRequests).contains(number) else {
                    throw UsageError(
                        message: "--max-requests needs a whole number from 0 to \(FillOptions.largestMaxRequests), not \"\(text)\"")
                }
                maxRequests = number
            case "--price": price = try value(argument)
            case "--fee": fee = try value(argument)
            case "--at": at = try value(argument)
            case "--note": note = try value(argument)
            case "--value": self.value = try value(argument)
            case "--fee-coin": feeCoin = try value(argument)
            case "--fee-price": feePrice = try value(argument)
            case "--from": from = try value(argument)
            case "--to": to = try value(argument)
            case "--received": received = try value(argument)
            case "--type": incomeType = try value(argument)
            case "--method":
                method = try value(argument)
                guard CostBasisMethod(rawValue: method) != nil else {
                    throw UsageError(message: "--method must be fifo, lifo, hifo, lofo, average or uk, not \"\(method)\"")
                }
            case "--range": range = try value(argument)
            case "--benchmark": benchmark = try value(argument)
            case "--year", "--tax-free-after":
                let text = try value(argument)
                guard let number = Int(text), number >= 0 else {
                    throw UsageError(message: "\(argument) needs a whole number of 0 or more, not \"\(text)\"")
                }
                if argument == "--year" { year = number } else { taxFreeAfter = number }
            case "--csv": csv = true
            case "--days":
                let text = try value(argument)
                guard text == "max" || (Int(text).map { (1...36_500).contains($0) } ?? false) else {
                    throw UsageError(message: "--days needs a whole number from 1 to 36500 or max, not \"\(text)\"")
                }
                days = text
            case "--svg": svg = try value(argument)
            case "--history": history = true
            case "--format":
                let text = try value(argument)
                guard text == "auto" || ImportFormat(rawValue: text) != nil else {
                    throw UsageError(
                        message: "--format must be auto, coinfolio, coinbase, binance, kraken, cointracking or koinly, not \"\(text)\"")
                }
                format = ImportFormat(rawValue: text)
            case "--dry-run": dryRun = true
            case "--all": allPortfolios = true
            case "--symbol":
                let text = try value(argument)
                let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw UsageError(message: "--symbol needs SYMBOL=ID (BOND=barnbridge), not \"\(text)\"")
                }
                // One ticker named twice as two coins is refused, as any other option given twice.
                if let earlier = symbols[String(parts[0])], earlier != String(parts[1]) {
                    throw UsageError(message: "--symbol \(parts[0]) is given twice (\(earlier), \(parts[1]))")
                }
                symbols[String(parts[0])] = String(parts[1])
            case "--json": json = true
            case "--offline": offline = true
            // `import --help` is `help import`: the command's own usage.
            case "-h", "--help": positional = ["help"] + positional.prefix(1); index = arguments.count; continue
            case "--": positional += arguments[(index + 1)...]; index = arguments.count; continue
            default:
                if argument.hasPrefix("--") { throw UsageError(message: "unknown option \(argument)") }
                positional.append(argument)
            }
            index += 1
        }
        if let first = positional.first {
            command = first
            operands = Array(positional.dropFirst())
        }
    }

    static func defaultDatabase(_ environment: [String: String]) -> String {
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/share")
        return base + "/coinfolio/portfolio.sqlite"
    }

    /// The engine configuration these options describe.
    func engineConfiguration() throws -> EngineConfiguration {
        let planValue = ClientConfiguration.Plan(rawValue: (plan ?? (apiKey == nil ? "public" : "demo")).lowercased())
        guard let planValue else { throw UsageError(message: "--plan must be public, demo or pro") }
        let api = try ClientConfiguration(baseURL: baseURL, plan: planValue, apiKey: planValue == .public ? nil : apiKey)
        return EngineConfiguration(
            database: database, owner: owner ?? "default", vsCurrency: try VsCurrency(vsCurrency), api: api, refreshMaxAge: refreshMaxAge)
    }
}
