import Coinfolio
import Foundation
import Synchronization

/// What every command shares: the parsed options, the terminal, and the steps several commands
/// take (opening the engine, refreshing, printing coin tables).
struct CLI {
    let options: Options
    let terminal: Terminal

    /// Checks the operand count of `command`; exits with status 2 and its usage line otherwise.
    func expectOperands(_ count: ClosedRange<Int>, _ shape: String) {
        guard count.contains(options.operands.count) else {
            fail(shape.isEmpty ? "\(options.command) takes no arguments" : "usage: coinfolio-cli \(options.command) \(shape)", code: 2)
        }
    }

    /// Engines opened by the command, kept until the process exits: freeing a 15,000-coin
    /// snapshot value by value costs more than a whole `--offline home` answer, and exit returns
    /// the memory at once. `closeEngines()` closes their databases.
    let opened = OpenedEngines()

    /// The engine, with the database's folder created first.
    func openEngine() throws -> PortfolioEngine {
        let configuration = try options.engineConfiguration()
        if let file = configuration.databaseFilePath {
            // Owner-only (0700) for a folder made here; an existing one keeps its mode. A setting
            // that names no file (an unsupported URL) makes no folder: opening refuses it.
            try PrivateFiles.createFolder(URL(fileURLWithPath: file).deletingLastPathComponent().path)
        }
        let engine = try PortfolioEngine(configuration: configuration)
        if ProgressBar.isEnabled { engine.setProgressHandler { ProgressBar.draw($0) } }
        opened.keep(engine)
        return engine
    }

    /// Closes the databases of the engines the command opened (they stay allocated until exit).
    func closeEngines() { opened.closeAll() }

    /// Refreshes unless offline; on failure says so and goes on with the saved snapshot, if any.
    func refreshOrExplain(_ engine: PortfolioEngine) {
        guard !options.offline else { return }
        do {
            defer { if ProgressBar.isEnabled { ProgressBar.clear() } }  // before any message
            try engine.refresh()
        } catch let error as CoinfolioError {
            warn("refresh failed: \(error.message)")
        } catch {
            warn("refresh failed: \(error)")
        }
    }

    /// `--vs-currency CODE ` for a currency other than usd, to repeat in suggested commands.
    var currencyFlag: String {
        let code = vs().code
        return code == "usd" ? "" : "--vs-currency \(code) "
    }

    /// What to say when there is no snapshot in the chosen currency: names it and how to get data.
    func noDataHelp() -> String {
        "no \(vs().code) market data yet: run `coinfolio-cli \(currencyFlag)home` with network access, or "
            + "`coinfolio-cli \(currencyFlag)load MARKETS.json [GLOBAL.json]` with saved CoinGecko bodies"
    }

    /// " (1 holding without a price)", " (2 holdings without a price)"; empty when all are priced.
    static func unpricedNote(_ count: Int) -> String {
        count == 0 ? "" : " (\(count) holding\(count == 1 ? "" : "s") without a price)"
    }

    /// What `coinfolio-cli` says of an id CoinGecko does not know.
    static func unknownCoin(_ id: String) -> String {
        "unknown coin \"\(id)\": use its CoinGecko id (for example bitcoin, not btc)"
    }

    /// Runs `body`, a request about coin `id`. An id with upper-case letters or surrounding spaces
    /// (which no CoinGecko id has) is refused first with the corrected id, without a request; a
    /// 404 is told as an unknown coin when CoinGecko's coin list confirms it does not know the id
    /// (a 404 for any other reason, such as a wrong `--base-url`, is reported as it came).
    func aboutCoin<T>(_ engine: PortfolioEngine, _ id: String, _ body: () throws -> T) throws -> T {
        try CoinID.validateHolding(id)
        do {
            return try body()
        } catch let error as CoinfolioError where error.code == .notFound {
            if (try? engine.coinExists(id: id)) == false { fail(CLI.unknownCoin(id), code: 1) }
            throw error
        }
    }

    func ageLine(asOf: Date?, stale: Bool) -> String {
        guard let asOf else { return terminal.dim("no market data yet") }
        let stamp = asOf.formatted(Date.ISO8601FormatStyle())
        return stale ? terminal.paint("stale as of \(stamp)", "33") : terminal.dim("as of \(stamp)")
    }

    /// The quote currency of the options (usd when it does not parse; the engine refuses it first).
    func vs() -> VsCurrency { (try? VsCurrency(options.vsCurrency)) ?? .usd }

    func coinRows(_ coins: [Coin]) -> String {
        let rows = coins.map { coin -> [String] in
            [
                coin.marketCapRank.map(String.init) ?? Terminal.unknownCell, Terminal.printable(coin.symbol.uppercased()),
                Terminal.printable(coin.name.isEmpty ? coin.id : coin.name),  // a row needs only its id
                coin.currentPrice.map { NumberFormat.price($0, vsCurrency: vs()) } ?? NumberFormat.notAvailable,
                terminal.changeCell(coin.priceChangePercentage24h), Terminal.sparkline(coin.sparklineIn7d),
            ]
        }
        return Terminal.table(["#", "SYMBOL", "NAME", "PRICE", "24H", "7D"], rows, right: [0, 3, 4])
    }

    /// "Title: value +1.23%", one line each; `notes` adds text after a statistic's change.
    func statisticsBlock(_ statistics: [Statistic], notes: [String: String] = [:]) -> String {
        statistics.map {
            // Title and value may be outside text: a detail's hashing_algorithm, genesis date …
            let line = "\(terminal.bold(Terminal.printable($0.title))): \(Terminal.printable($0.value))"
            return "\(line) \(terminal.change($0.percentageChange)) \(notes[$0.title] ?? "")".trimmingCharacters(in: .whitespaces)
        }
        .joined(separator: "\n")
    }

    /// "(1 of 2 coins)" when the portfolio's 24 h change leaves some priced coins out; "" otherwise.
    func coverageNote(_ change: PortfolioChange) -> String {
        change.isPartial ? "(\(change.coinsWithChange) of \(change.pricedCoins) coins)" : ""
    }
}

/// The engines a command opened (see `CLI.opened`).
final class OpenedEngines: Sendable {
    private let engines = Mutex<[PortfolioEngine]>([])

    func keep(_ engine: PortfolioEngine) { engines.withLock { $0.append(engine) } }

    func closeAll() { engines.withLock { $0.forEach { $0.close() } } }
}

extension CLI {
    /// `fail(message, code:)` for a library error the command words itself; with `--json` the
    /// error's own JSON (status, code, message, details: the C ABI's out_error) goes to stdout first.
    func failReporting(_ error: CoinfolioError, _ message: String, code: Int32) -> Never {
        if options.json { sayJSON(error.json) }
        fail(message, code: code)
    }
}

/// Prints `message` to stderr as coinfolio-cli's and exits with `code`. The message may quote
/// outside text (CoinGecko's error message, a CSV cell, a path): it goes through
/// `Terminal.printable`.
func fail(_ message: String, code: Int32) -> Never {
    _ = writePendingOutput()  // what was said before the failure, then the message
    warn(message)
    exit(code)
}

/// Prints `message` to stderr as coinfolio-cli's (through `Terminal.printable`; its line breaks
/// kept, as an import's list of unknown symbols has one a symbol), and goes on.
func warn(_ message: String) {
    // A standard error that cannot be written (`2>/dev/full`) loses the message; the exit status
    // still says it (FileHandle's `write(_:)` ended the process on a failed write).
    try? FileHandle.standardError.write(contentsOf: Data("coinfolio-cli: \(Terminal.printable(message, multiline: true))\n".utf8))
}

/// Writes `bytes` to standard output after what `say` buffered; a failed write (a full disk, a
/// closed pipe) exits with status 1 saying why, instead of ending the process with a trap.
func writeOutput(_ bytes: Data) {
    flushOutput()
    do {
        try FileHandle.standardOutput.write(contentsOf: bytes)
    } catch {
        fail("cannot write the output: \(describe(error))", code: 1)
    }
}

/// Standard output as `say` fills it: written in blocks of 64 KB (each line on a terminal)
/// through `write(contentsOf:)`, which reports a failed write. `print` lost a failed write
/// silently: `pnl > /dev/full` exited 0 with the answer gone.
private let pendingOutput = Mutex(Data())

/// Writes what `say` buffered; exits with status 1 when it cannot be written (the answer was
/// lost: a command must not report success then).
func flushOutput() {
    if let reason = writePendingOutput() { fail("cannot write the output: \(reason)", code: 1) }
}

/// Writes what `say` buffered; the reason when that failed (what was not written is dropped).
private func writePendingOutput() -> String? {
    pendingOutput.withLock { pending in
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll(keepingCapacity: true) }
        do {
            try FileHandle.standardOutput.write(contentsOf: pending)
            return nil
        } catch {
            return describe(error)
        }
    }
}

private let outputIsTerminal = isatty(STDOUT_FILENO) == 1

/// A system error as its reason ("No space left on device"), not Foundation's debug dump.
func describe(_ error: any Error) -> String {
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain, let code = Int32(exactly: error.code) { return String(cString: strerror(code)) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
        let code = Int32(exactly: underlying.code)
    {
        return String(cString: strerror(code))
    }
    return error.localizedDescription
}

/// Prints one line of output. `text` is the CLI's own, with any outside text in it already made
/// printable (or it is `sayJSON`'s).
func say(_ text: String) {
    let full = pendingOutput.withLock { pending in
        pending.append(contentsOf: text.utf8)
        pending.append(0x0A)
        return outputIsTerminal || pending.count >= 1 << 16
    }
    if full { flushOutput() }
}

/// Prints a JSON answer: its control characters as JSON escapes (`Terminal.printable`), so the
/// text is the same JSON value and safe on a terminal.
func sayJSON(_ json: String) { say(Terminal.printable(json)) }

/// A decimal number as people type it (`0.5`, `1e-9`, `-5`); nil for anything else, including
/// the hexadecimal and "nan"/"inf" forms `Double(_:)` would accept.
func decimalNumber(_ text: String) -> Double? {
    let pattern = #/[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?/#
    guard text.wholeMatch(of: pattern) != nil else { return nil }
    return Double(text)
}

/// An amount as typed: 0.5, 2, 1e-08 → "0.00000001".
func amountText(_ amount: Double) -> String {
    // Formatted as dollars, then without the dollar's prefix (which the currency table owns).
    NumberFormat.currency(amount, minimumFractionDigits: 0, maximumFractionDigits: 12, vsCurrency: .usd).replacingOccurrences(
        of: VsCurrency.usd.prefix, with: "")
}

/// The most `read(_:)` takes from a pipe or device (a regular file is read whole): 512 MB.
let readLimit = 512 << 20

/// The bytes of the file at `path` (a regular file, or a pipe such as `/dev/stdin` read to its
/// end, up to `readLimit`); exits with status 1, saying why, when it cannot be read.
func read(_ path: String) throws -> Data {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        fail("cannot read \(path): no such file", code: 1)
    }
    if isFolder.boolValue { fail("cannot read \(path): it is a folder, not a file", code: 1) }
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    if attributes?[.type] as? FileAttributeType == .typeRegular {
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            fail("cannot read \(path): \(error.localizedDescription)", code: 1)
        }
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
        fail("cannot read \(path): it cannot be opened for reading", code: 1)
    }
    defer { try? handle.close() }
    var data = Data()
    while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        data.append(chunk)
        if data.count > readLimit { fail("cannot read \(path): longer than \(readLimit >> 20) MB", code: 1) }
    }
    return data
}
