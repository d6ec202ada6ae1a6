// libFuzzer targets for every JSON-taking entry point of Coinfolio and its formatters.
//
// Built by Tests/fuzz/run.sh (`make fuzz`) with `swiftc -sanitize=fuzzer,address` together with
// the core and the ABI thunks. COINFOLIO_FUZZ_TARGET picks the entry point. Oracles, each an
// abort (so libFuzzer saves the input):
//   - input that jansson (an independent strict parser) rejects never gets CF_OK;
//   - every output and every error is JSON that jansson accepts, errors with status/code/message;
//   - the ledger's CSV import (not JSON) never crashes, and every CF_INVALID_ARGUMENT it returns
//     names the line (details.line >= 1) unless the input is not UTF-8 at all; nothing lands on error;
//   - the ledger targets (FuzzLedger.swift): a refused transaction, trade, move or import and a
//     dry run commit nothing to the ledger's file, an accepted transaction, trade or move commits,
//     and queries (ledger_query) never write;
//   - formatters never return text with "nan" or "inf" in it, nor more than 1000 bytes (1.8e308 in full is about 420);
//   - chart_svg: an SVG drawn from the input (as the chart, then as the options) is one UTF-8
//     document with one `<svg>` element, and input jansson rejects never gets CF_OK either way;
//   - the exchange imports (import_coinbase, …; FuzzImport.swift): no crash, every refusal with
//     its line (but a whole file's), nothing written on a refusal or in a dry run;
//   - price_input: the input as a price_at query, a set_price setting, a range request and
//     fill_prices options (the fill run too); input jansson rejects never gets CF_OK, and a refused set_price changes
//     no price (a probe price_at answers as before);
//   - snapshot_open: an engine opened on a SQLite file whose saved snapshot's compact coins are the
//     input (bytes, NULs included) never crashes, answers every query with JSON, and, when it
//     keeps the snapshot, lists each coin id once.
// A leading UTF-8 byte order mark is accepted on purpose (SPEC: bodies may carry one), so the
// oracle strips one before asking jansson.
import CFuzz
import CSQLite
import Coinfolio
import Foundation

enum Target: String, CaseIterable {
    case decodeMarkets = "decode_markets", decodeGlobal = "decode_global", decodeCoinDetail = "decode_coin_detail"
    case engineLoad = "engine_load", engineOpen = "engine_open", clientOpen = "client_open"
    case engineQuery = "engine_query", marketsRequest = "markets_request", format
    case ledgerAdd = "ledger_add", ledgerCSV = "ledger_csv", ledgerQuery = "ledger_query"
    case snapshotOpen = "snapshot_open"
    case decodeMarketChart = "decode_market_chart", chartSVG = "chart_svg"
    case importCoinbase = "import_coinbase", importBinance = "import_binance", importKraken = "import_kraken"
    case importCoinTracking = "import_cointracking", importKoinly = "import_koinly"
    case priceInput = "price_input"
    case ledgerGroup = "ledger_group"
}

let target: Target = {
    let name = ProcessInfo.processInfo.environment["COINFOLIO_FUZZ_TARGET"] ?? ""
    guard let target = Target(rawValue: name) else {
        let names = Target.allCases.map(\.rawValue).joined(separator: " ")
        FileHandle.standardError.write(Data("set COINFOLIO_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

struct Counts {
    var inputs = 0
    var strictInvalid = 0
    var accepted = 0
}
nonisolated(unsafe) var counts = Counts()

/// An engine in memory with the committed markets fixture, for the query and load targets.
nonisolated(unsafe) let engine: OpaquePointer? = {
    var handle: OpaquePointer?
    var error: UnsafeMutablePointer<CChar>?
    guard cf_engine_open(#"{"database":":memory:"}"#, &handle, &error) == 0 else { fatal("cannot open an engine") }
    let fixtures = ProcessInfo.processInfo.environment["COINFOLIO_FUZZ_FIXTURES"] ?? "Tests/fixtures/coingecko"
    if let markets = try? String(contentsOfFile: fixtures + "/markets.json", encoding: .utf8) {
        _ = cf_engine_load(handle, markets, nil, &error)
        cf_string_free(error)
    }
    return handle
}()

/// An engine on a private `:memory:` database whose network is a closed port (a price_at that
/// would fetch fails at once with CF_NETWORK); it holds a manual bitcoin point on 2024-03-01
/// (12.5 usd, `probeSetting`, set again after any accepted call) that a refused set_price must
/// leave as it is.
nonisolated(unsafe) let priceEngine: OpaquePointer? = {
    var handle: OpaquePointer?
    var error: UnsafeMutablePointer<CChar>?
    let configuration = #"{"database":":memory:","api":{"base_url":"http://127.0.0.1:9/api/v3","max_retries":0,"timeout_ms":1000}}"#
    guard cf_engine_open(configuration, &handle, &error) == 0 else { fatal("cannot open the price engine") }
    return handle
}()

/// The probe's manual point.
let probeSetting = #"{"coin_id":"bitcoin","timestamp":"2024-03-01T00:00:00Z","price":"12.5"}"#

/// What `probePrice()` answered after the probe's point was last set, while no call since was
/// accepted (every refused one left it as it was, as checked); nil: set the point again first.
nonisolated(unsafe) var probeAnswer: String?

/// The probe every refused set_price must leave unchanged: bitcoin's price on 2024-03-01.
func probePrice() -> String {
    var out: UnsafeMutablePointer<CChar>?
    var error: UnsafeMutablePointer<CChar>?
    guard cf_engine_price_at(priceEngine, #"{"coin_id":"bitcoin","timestamp":"2024-03-01T12:00:00Z"}"#, &out, &error) == 0, let out
    else { fatal("the probe price_at failed") }
    defer { cf_string_free(out) }
    return String(cString: out)
}

/// The price_input target: the input as a price_at query, a set_price setting, a range request
/// and fill_prices options. Returns set_price's status (the others are checked here).
func fuzzPriceInput(_ input: UnsafePointer<CChar>, valid: Bool) -> Int32 {
    var out: UnsafeMutablePointer<CChar>?
    var error: UnsafeMutablePointer<CChar>?
    let queried = cf_engine_price_at(priceEngine, input, &out, &error)
    if !valid && queried == 0 { fatal("a price_at query that is not strict JSON got CF_OK: \(String(cString: input).prefix(300))") }
    checkAndFree(out, isError: false)
    checkAndFree(error, isError: true)
    out = nil
    error = nil
    let text = String(validatingCString: input)
    if let text, (try? MarketChartRangeRequest(json: text)) != nil, !valid {
        fatal("a range request that is not strict JSON was read: \(text.prefix(300))")
    }
    if let text, (try? FillOptions(json: text)) != nil, !valid {
        fatal("fill options that are not strict JSON were read: \(text.prefix(300))")
    }
    let filled = cf_engine_fill_prices(priceEngine, input, &out, &error)
    if !valid && filled == 0 { fatal("fill options that are not strict JSON got CF_OK: \(String(cString: input).prefix(300))") }
    checkAndFree(out, isError: false)
    checkAndFree(error, isError: true)
    out = nil
    error = nil
    // An accepted call (this input's or an earlier one's) may have moved or removed the probe's
    // point: it is set again, and its answer read, first.
    if queried == 0 || filled == 0 { probeAnswer = nil }
    if probeAnswer == nil {
        var reset: UnsafeMutablePointer<CChar>?
        guard cf_engine_set_price(priceEngine, probeSetting, &reset) == 0 else { fatal("cannot set the probe's point") }
        probeAnswer = probePrice()
    }
    let status = cf_engine_set_price(priceEngine, input, &error)
    if status == 0 {
        probeAnswer = nil
    } else if probePrice() != probeAnswer {
        fatal("a refused set_price changed a price: \(String(cString: input).prefix(300).debugDescription)")
    }
    checkAndFree(error, isError: true)
    error = nil
    return status
}

/// One group call (`cf_engine_add_trade` or `cf_engine_move`) with the input: its answer and error
/// are checked and freed; a refusal must write nothing to the ledger (no portfolio's rows change).
func fuzzGroup(
    _ handle: OpaquePointer?, _ input: UnsafePointer<CChar>,
    _ call: (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32,
    _ name: String
) -> Int32 {
    let before = ledgerVersion()
    var out: UnsafeMutablePointer<CChar>?
    var error: UnsafeMutablePointer<CChar>?
    let status = call(handle, input, &out, &error)
    checkAndFree(out, isError: false)
    checkAndFree(error, isError: true)
    if status != 0 { expectNoWrite(since: before, "a refused \(name)", input) } else { expectWrite(since: before, "an accepted \(name)") }
    return status
}

/// The CSV target: imports the input; a refusal names its line and leaves the ledger as it was.
func fuzzCSV(_ input: UnsafePointer<CChar>) -> Int32 {
    let handle = freshLedgerEngine()
    let before = ledgerVersion()
    var out: UnsafeMutablePointer<CChar>?
    var error: UnsafeMutablePointer<CChar>?
    let status = cf_engine_import_csv(handle, input, &out, &error)
    checkAndFree(out, isError: false)
    if status == 0 {
        counts.accepted += 1
    } else if let error {
        var jsonError = json_error_t()
        if status == 1, String(validatingCString: input) != nil, let value = json_loads(error, 0, &jsonError) {
            let line = json_number_value(json_object_get(json_object_get(value, "details"), "line"))
            json_decref(value)
            if line < 1 { fatal("a CSV refusal without details.line: \(String(cString: error).prefix(300))") }
        }
        expectNoWrite(since: before, "a refused CSV import", input)
    }
    checkAndFree(error, isError: true)
    return 0
}

func fatal(_ message: String) -> Never {
    FileHandle.standardError.write(Data("coinfolio-fuzz (\(target.rawValue)): \(message)\n".utf8))
    abort()
}

/// jansson's verdict on the bytes (as strict as RFC 8259, with NUL escapes allowed).
func strictlyValid(_ bytes: UnsafePointer<CChar>, _ length: Int) -> Bool {
    var start = bytes
    var count = length
    if count >= 3, UInt8(bitPattern: bytes[0]) == 0xEF, UInt8(bitPattern: bytes[1]) == 0xBB, UInt8(bitPattern: bytes[2]) == 0xBF {
        start += 3
        count -= 3
    }
    var error = json_error_t()
    let flags = Int(JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL)
    guard let value = json_loadb(start, count, flags, &error) else {
        // jansson's own limit, not RFC 8259's: a \u0000 escape inside an object member name.
        return isNULInKey(error)
    }
    json_decref(value)
    return true
}

/// Whether jansson refused only because a member name holds a \u0000 escape (valid JSON).
func isNULInKey(_ error: json_error_t) -> Bool {
    let text = withUnsafeBytes(of: error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return text.hasPrefix("NUL byte in object key")
}

/// Checks an output or error string and frees it.
func checkAndFree(_ text: UnsafeMutablePointer<CChar>?, isError: Bool) {
    guard let text else { return }
    defer { cf_string_free(text) }
    var error = json_error_t()
    guard let value = json_loads(text, Int(JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL), &error) else {
        if isNULInKey(error) { return }  // valid JSON jansson cannot hold (a \u0000 in a member name)
        fatal("the library wrote \(isError ? "an error" : "output") that is not JSON: \(String(cString: text).prefix(300))")
    }
    defer { json_decref(value) }
    if isError {
        guard json_integer_value(json_object_get(value, "status")) > 0 || json_real_value(json_object_get(value, "status")) > 0,
            json_string_value(json_object_get(value, "code")) != nil, json_string_value(json_object_get(value, "message")) != nil
        else { fatal("an error without status, code and message: \(String(cString: text).prefix(300))") }
    }
}

/// Checks an SVG document cf_chart_svg wrote (UTF-8, the XML declaration, one `<svg …>…</svg>`
/// element) and frees it.
func checkSVG(_ text: UnsafeMutablePointer<CChar>?) {
    guard let text else { return }
    defer { cf_string_free(text) }
    guard let svg = String(validatingCString: text), svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
        svg.components(separatedBy: "<svg ").count == 2, svg.hasSuffix("</svg>\n") || svg.hasSuffix("</svg>")
    else { fatal("cf_chart_svg wrote something that is not an SVG document: \(String(cString: text).prefix(300))") }
}

func formatOracle(_ text: UnsafeMutablePointer<CChar>?, code: String) {
    guard let text else { return }
    defer { cf_string_free(text) }
    let string = String(cString: text)
    // The currency code is printed as given (upper-cased): only the rest is the number.
    var lower = string.lowercased()
    if !code.isEmpty { lower = lower.replacingOccurrences(of: code.lowercased(), with: "") }
    if lower.contains("nan") || lower.contains("inf") || string.utf8.count > 1000 {
        fatal("a formatter wrote \"\(string.prefix(80))\"")
    }
}

/// libFuzzer's entry: one input to the target COINFOLIO_FUZZ_TARGET names, checked by the oracles.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    counts.inputs += 1
    if target == .format {
        fuzzFormat(bytes)
        return 0
    }
    if target == .snapshotOpen {
        fuzzSnapshotOpen(bytes)
        return 0
    }
    if target == .ledgerCSV {
        let length = bytes.firstIndex(of: 0) ?? size
        var text = [CChar](repeating: 0, count: length + 1)
        for index in 0..<length { text[index] = CChar(bitPattern: bytes[index]) }
        return text.withUnsafeBufferPointer { buffer in buffer.baseAddress.map(fuzzCSV) ?? 0 }
    }
    if let format = importFormat(of: target) {
        let length = bytes.firstIndex(of: 0) ?? size
        var text = [CChar](repeating: 0, count: length + 1)
        for index in 0..<length { text[index] = CChar(bitPattern: bytes[index]) }
        text.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { fuzzImport($0, format: format) } }
        return 0
    }
    // The entry points take C strings: the input up to its first NUL.
    let length = bytes.firstIndex(of: 0) ?? size
    var text = [CChar](repeating: 0, count: length + 1)
    for index in 0..<length { text[index] = CChar(bitPattern: bytes[index]) }
    return text.withUnsafeBufferPointer { buffer -> Int32 in
        guard let input = buffer.baseAddress else { return 0 }
        let valid = strictlyValid(input, length)
        var status: Int32 = 0
        var out: UnsafeMutablePointer<CChar>?
        var error: UnsafeMutablePointer<CChar>?
        switch target {
        case .decodeMarkets: status = cf_decode_markets(input, &out, &error)
        case .decodeGlobal: status = cf_decode_global(input, &out, &error)
        case .decodeCoinDetail: status = cf_decode_coin_detail(input, &out, &error)
        case .engineLoad:
            status = cf_engine_load(engine, input, nil, &error)
            if status != 0 {
                checkAndFree(error, isError: true)
                error = nil
            }
            // The same bytes as a /global body.
            let globalStatus = cf_engine_load(engine, #"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin"}]"#, input, &error)
            if !valid && globalStatus == 0 {
                fatal("a /global body that is not strict JSON was loaded: \(String(cString: input).prefix(300))")
            }
        case .engineOpen:
            // The JSON entry point itself; a store is opened only in memory (never a fuzzed path).
            // (The thunk refuses bad UTF-8 before this; String(cString:) would repair it.)
            let configuration = String(validatingCString: input).flatMap { try? EngineConfiguration(json: $0) }
            status = configuration == nil ? 1 : 0
            if let configuration, configuration.database == ":memory:" {
                var handle: OpaquePointer?
                status = cf_engine_open(input, &handle, &error)
                cf_engine_close(handle)
            }
        case .clientOpen:
            var handle: OpaquePointer?
            status = cf_client_open(input, &handle, &error)
            cf_client_close(handle)
        case .engineQuery:
            status = cf_engine_coins(engine, input, &out, &error)
            checkAndFree(out, isError: false)
            checkAndFree(error, isError: true)
            out = nil
            error = nil
            let portfolioStatus = cf_engine_portfolio(engine, input, &out, &error)
            if !valid && portfolioStatus == 0 {
                fatal("a portfolio query that is not strict JSON got CF_OK: \(String(cString: input).prefix(300))")
            }
        case .marketsRequest:
            status = String(validatingCString: input).flatMap { try? MarketsRequest(json: $0) } == nil ? 1 : 0
        case .ledgerAdd:
            let handle = freshLedgerEngine()
            let before = ledgerVersion()
            status = cf_engine_add_transaction(handle, input, &out, &error)
            if status != 0 {
                expectNoWrite(since: before, "a refused transaction", input)
            } else {
                expectWrite(since: before, "an added transaction")
            }
        case .ledgerQuery:
            let handle = freshLedgerEngine()
            let before = ledgerVersion()
            defer { expectNoWrite(since: before, "a query", input) }
            status = cf_engine_transactions(handle, input, &out, &error)
            checkAndFree(out, isError: false)
            checkAndFree(error, isError: true)
            out = nil
            error = nil
            let pnlStatus = cf_engine_pnl(handle, input, &out, &error)
            if !valid && pnlStatus == 0 {
                fatal("a pnl query that is not strict JSON got CF_OK: \(String(cString: input).prefix(300).debugDescription)")
            }
            // The reports of SPEC §19 read the same kind of options.
            for (name, report) in [("realized", cf_engine_realized), ("performance", cf_engine_performance)] {
                checkAndFree(out, isError: false)
                checkAndFree(error, isError: true)
                out = nil
                error = nil
                if report(handle, input, &out, &error) == 0, !valid {
                    fatal("\(name) options that are not strict JSON got CF_OK: \(String(cString: input).prefix(300).debugDescription)")
                }
                // "format":"csv" answers CSV text with its header, not JSON.
                if let text = out, String(cString: text).hasPrefix("description,acquired,disposed,proceeds,cost,gain,term\r\n") {
                    cf_string_free(text)
                    out = nil
                }
            }
        case .ledgerGroup:
            // The input as a trade, then as a move (SPEC §16): a refused group writes nothing.
            let handle = freshLedgerEngine()
            status = fuzzGroup(handle, input, cf_engine_add_trade, "trade")
            let moveStatus = fuzzGroup(handle, input, cf_engine_move, "move")
            if !valid && moveStatus == 0 {
                fatal("a move that is not strict JSON got CF_OK: \(String(cString: input).prefix(300).debugDescription)")
            }
        case .decodeMarketChart: status = cf_decode_market_chart(input, &out, &error)
        case .chartSVG:
            // The input as the chart to draw, then as the options of a fixed chart.
            status = cf_chart_svg(input, nil, &out, &error)
            checkSVG(out)
            out = nil
            checkAndFree(error, isError: true)
            error = nil
            let chart = #"{"vs_currency":"eur","points":[[1700000000000,1.5],[1700003600000,null],[1700007200000,2,true]]}"#
            let optionsStatus = cf_chart_svg(chart, input, &out, &error)
            checkSVG(out)
            out = nil
            if !valid && optionsStatus == 0 {
                fatal("chart options that are not strict JSON got CF_OK: \(String(cString: input).prefix(300).debugDescription)")
            }
        case .priceInput:
            status = fuzzPriceInput(input, valid: valid)
        case .format, .ledgerCSV, .snapshotOpen, .importCoinbase, .importBinance, .importKraken, .importCoinTracking, .importKoinly:
            break
        }
        checkAndFree(out, isError: false)
        checkAndFree(error, isError: true)
        if status == 0 { counts.accepted += 1 }
        if !valid {
            counts.strictInvalid += 1
            if status == 0 { fatal("input that is not strict JSON got CF_OK: \(String(cString: input).prefix(300).debugDescription)") }
        }
        return 0
    }
}

func fuzzFormat(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count >= 10 else { return }
    var bits: UInt64 = 0
    for index in 0..<8 { bits = bits << 8 | UInt64(bytes[index]) }
    let value = Double(bitPattern: bits)
    let minimum = Int32(bytes[8] % 12)
    let maximum = Int32(bytes[9] % 12)
    let rest = bytes[10...]
    let length = rest.firstIndex(of: 0).map { $0 - 10 } ?? rest.count
    var code = [CChar](repeating: 0, count: length + 1)
    for index in 0..<length { code[index] = CChar(bitPattern: bytes[10 + index]) }
    code.withUnsafeBufferPointer { buffer in
        let currency = length == 0 ? nil : buffer.baseAddress
        let codeText = buffer.baseAddress.flatMap { String(validatingCString: $0) } ?? ""
        formatOracle(cf_format_currency(value, minimum, maximum, currency), code: codeText)
        formatOracle(cf_format_price(value, currency), code: codeText)
        formatOracle(cf_format_number(value), code: codeText)
        formatOracle(cf_format_percent(value), code: codeText)
        formatOracle(cf_format_abbreviated(value), code: codeText)
    }
}

/// The SQLite file of the snapshot_open target: an engine loaded the committed markets fixture
/// into it (sparkline rows included) and holds bitcoin and tether; each input replaces the saved
/// snapshot's `coins` blob.
let snapshotFile: String = {
    let path = scratchFolder.appendingPathComponent("snapshot.sqlite").path
    let configuration = #"{"database":"\#(path)","api":{"base_url":"http://127.0.0.1:9/api/v3","max_retries":0}}"#
    var handle: OpaquePointer?
    var error: UnsafeMutablePointer<CChar>?
    guard cf_engine_open(configuration, &handle, &error) == 0 else { fatal("cannot open the snapshot engine") }
    let fixtures = ProcessInfo.processInfo.environment["COINFOLIO_FUZZ_FIXTURES"] ?? "Tests/fixtures/coingecko"
    guard let markets = try? String(contentsOfFile: fixtures + "/markets.json", encoding: .utf8),
        cf_engine_load(handle, markets, nil, &error) == 0,
        cf_engine_set_holding(handle, "bitcoin", 0.5, &error) == 0, cf_engine_set_holding(handle, "tether", 10, &error) == 0
    else { fatal("cannot seed the snapshot engine") }
    cf_engine_close(handle)
    return path
}()

/// One query of an engine: (engine, out_json, out_error) -> status.
typealias SnapshotQuery = (
    OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> Int32

/// The snapshot_open target: the input as the saved coins, then an engine opened on the file
/// and asked every query that reads them.
func fuzzSnapshotOpen(_ bytes: UnsafeBufferPointer<UInt8>) {
    var database: OpaquePointer?
    guard sqlite3_open(snapshotFile, &database) == SQLITE_OK else { fatal("cannot open the snapshot file") }
    var statement: OpaquePointer?
    sqlite3_prepare_v2(database, "UPDATE snapshot SET coins = ?1", -1, &statement, nil)
    // An empty input is a zero-length blob, not NULL (the column is NOT NULL).
    if let base = bytes.baseAddress, bytes.count > 0 {
        sqlite3_bind_blob(statement, 1, UnsafeRawPointer(base), Int32(bytes.count), nil)
    } else {
        sqlite3_bind_zeroblob(statement, 1, 0)
    }
    guard sqlite3_step(statement) == SQLITE_DONE else { fatal("cannot write the snapshot blob") }
    sqlite3_finalize(statement)
    sqlite3_close(database)

    let configuration = #"{"database":"\#(snapshotFile)","api":{"base_url":"http://127.0.0.1:9/api/v3","max_retries":0}}"#
    var handle: OpaquePointer?
    var out: UnsafeMutablePointer<CChar>?
    var error: UnsafeMutablePointer<CChar>?
    guard cf_engine_open(configuration, &handle, &error) == 0 else { fatal("the engine did not open on a damaged snapshot") }
    defer { cf_engine_close(handle) }
    let status = cf_engine_coins(handle, #"{"sparkline":true}"#, &out, &error)
    if status == 0, let out {
        // A kept snapshot lists each coin once (every save merges rows by id).
        var jsonError = json_error_t()
        if let value = json_loads(out, Int(JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL), &jsonError) {
            var ids = Set<String>()
            let coins = json_object_get(value, "coins")
            for index in 0..<json_array_size(coins) {
                let id = json_string_value(json_object_get(json_array_get(coins, index), "id")).map { String(cString: $0) } ?? ""
                if !ids.insert(id).inserted { fatal("a restored snapshot lists \(id.debugDescription) twice") }
            }
            json_decref(value)
        }
        counts.accepted += 1
    }
    checkAndFree(out, isError: false)
    checkAndFree(error, isError: true)
    let queries: [SnapshotQuery] = [
        { cf_engine_coins($0, #"{"sort":"price","search":"e","sparkline":false}"#, $1, $2) },
        { cf_engine_portfolio($0, nil, $1, $2) },
        { cf_engine_statistics($0, $1, $2) },
        { cf_engine_pnl($0, nil, $1, $2) },
        { cf_engine_portfolio_history($0, nil, $1, $2) },
        { cf_engine_coin_statistics($0, "bitcoin", $1, $2) },
    ]
    for query in queries {
        out = nil
        error = nil
        _ = query(handle, &out, &error)
        checkAndFree(out, isError: false)
        checkAndFree(error, isError: true)
    }
}

/// Prints the counts when libFuzzer ends the run.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    _ = target
    if target == .engineLoad || target == .engineQuery { _ = engine }
    if target == .snapshotOpen { _ = snapshotFile }
    if target == .priceInput { _ = priceEngine }
    atexit {
        let line =
            target == .format
            ? "coinfolio-fuzz format: \(counts.inputs) inputs, 5 formatters each, every output checked\n"
            : target == .snapshotOpen
                ? "coinfolio-fuzz snapshot_open: \(counts.inputs) blobs, \(counts.accepted) kept as a snapshot, every answer JSON\n"
                : target == .ledgerCSV || importFormat(of: target) != nil
                    ? "coinfolio-fuzz \(target.rawValue): \(counts.inputs) inputs, \(counts.accepted) imported with CF_OK, every refusal with its line\n"
                    : "coinfolio-fuzz \(target.rawValue): \(counts.inputs) inputs, \(counts.strictInvalid) not strict JSON (all refused), \(counts.accepted) accepted with CF_OK\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
    return 0
}
