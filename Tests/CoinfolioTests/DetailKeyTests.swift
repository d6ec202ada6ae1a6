import Foundation
import XCTest

@_spi(ABI) @testable import Coinfolio

/// `CoinfolioError.DetailKey` is the one list of an error's detail keys: the header's
/// `CF_DETAIL_*` macros are the same keys in the same order, each saying what it holds, and no
/// code in `Sources/` names a detail by a string literal.
final class DetailKeyTests: XCTestCase {
    /// `#define CF_DETAIL_NAME "key" /**< what … */` lines of include/coinfolio.h, in order.
    private func headerDetailKeys() throws -> [(macro: String, key: String, holds: String)] {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("include/coinfolio.h"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"#define\s+(CF_DETAIL_[A-Z0-9_]+)\s+"([a-z0-9_]+)"\s*/\*\*<\s*(.*?)\s*\*/"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let macro = Range(match.range(at: 1), in: text), let key = Range(match.range(at: 2), in: text),
                let holds = Range(match.range(at: 3), in: text)
            else { return nil }
            return (String(text[macro]), String(text[key]), String(text[holds]))
        }
    }

    func testDetailKeysAreTheHeaders() throws {
        let declared = try headerDetailKeys()
        XCTAssertEqual(
            CoinfolioError.DetailKey.allCases.map(\.rawValue), declared.map(\.key),
            "CoinfolioError.DetailKey, in order, is the header's CF_DETAIL_* list: add each new key to both")
        for (macro, key, holds) in declared {
            XCTAssertEqual(macro, "CF_DETAIL_" + key.uppercased(), "the macro of \"\(key)\" is named after it")
            XCTAssertFalse(holds.isEmpty, "\(macro) says what it holds")
        }
    }

    /// Writers and readers in Sources/ (Coinfolio, CoinfolioABI, the CLI) take detail keys only as
    /// `DetailKey`: no `details["…"]`, `details: ["…": …]` or `forKey: "…"` outside comments.
    func testSourcesNameDetailsOnlyThroughDetailKey() throws {
        let sources = Repository.root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let pattern = try NSRegularExpression(pattern: #"details\s*\[\s*"|details:\s*\[\s*"|[Dd]etails.*forKey:\s*""#)
        var checked = 0
        for case let url as URL in files where url.pathExtension == "swift" {
            let code = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            let hits = pattern.matches(in: code, range: NSRange(code.startIndex..., in: code))
            XCTAssertTrue(hits.isEmpty, "\(url.lastPathComponent) names a detail by a string: use CoinfolioError.DetailKey")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100, "Sources/ was not found")
    }

    /// Every key the library writes in these errors is a DetailKey (their JSON keys are listed).
    func testKeysTheLibraryWritesAreListed() throws {
        let listed = Set(CoinfolioError.DetailKey.allCases.map(\.rawValue))
        let errors = [
            ErrorClassifier.classify(status: 429, headers: ["retry-after": "3"], body: Data(#"{"error_code":429}"#.utf8)),
            LedgerCSVRows.error(line: 2, column: "amount", "bad", reason: .decimalComma),
        ]
        for error in errors.compactMap({ $0 }) {
            XCTAssertFalse(error.details.isEmpty)
            XCTAssertTrue(Set(error.details.keys).isSubset(of: listed), "\(error.details.keys) are listed")
        }
        var error = CoinfolioError(.notFound, "no portfolio", details: [.portfolio: .string("main")])
        error.details[.coinID] = .string("bitcoin")
        XCTAssertEqual(error.details, ["portfolio": .string("main"), "coin_id": .string("bitcoin")])
        XCTAssertEqual(error.details[.coinID], .string("bitcoin"))
    }
}
