// The import targets of the libFuzzer harness (SPEC §18): one per exchange format, the input as
// the file's text through cf_engine_import with that format named. Oracles, each an abort:
//   - no crash, and every output and error is JSON (checkAndFree);
//   - every CF_INVALID_ARGUMENT names its line (details.line >= 1), except the refusals of a
//     whole file, which carry what they are about instead (reason unknown_format with the
//     header's cells, unknown_symbols with the symbols), and input that is not UTF-8;
//   - nothing is written on a refusal (nothing is committed to the ledger's file, see
//     FuzzLedger.swift), and a dry run never writes.
import CFuzz
import Coinfolio
import Foundation

/// The format an import target names ("import_kraken" → "kraken").
func importFormat(of target: Target) -> String? {
    target.rawValue.hasPrefix("import_") ? String(target.rawValue.dropFirst("import_".count)) : nil
}

/// One import target: the input imported into the ledger engine, every other input as a dry run.
func fuzzImport(_ input: UnsafePointer<CChar>, format: String) {
    let handle = freshLedgerEngine()
    let before = ledgerVersion()
    let dryRun = counts.inputs % 2 == 0
    let options = #"{"format":"\#(format)","dry_run":\#(dryRun),"symbols":{"BOND":"barnbridge","1INCH":"1inch"}}"#
    var out: UnsafeMutablePointer<CChar>?
    var error: UnsafeMutablePointer<CChar>?
    let status = cf_engine_import(handle, options, input, &out, &error)
    checkAndFree(out, isError: false)
    if status == 0 {
        counts.accepted += 1
        if dryRun { expectNoWrite(since: before, "a dry run", input) }
    } else if let error {
        var jsonError = json_error_t()
        if status == 1, String(validatingCString: input) != nil, let value = json_loads(error, 0, &jsonError) {
            let details = json_object_get(value, "details")
            let line = json_number_value(json_object_get(details, "line"))
            let reason = json_string_value(json_object_get(details, "reason")).map { String(cString: $0) }
            json_decref(value)
            if line < 1, reason != "unknown_format", reason != "unknown_symbols" {
                fatal("an import refusal without details.line: \(String(cString: error).prefix(300))")
            }
        }
        expectNoWrite(since: before, "a refused import", input)
    }
    checkAndFree(error, isError: true)
}
