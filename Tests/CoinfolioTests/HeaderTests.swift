import Foundation
import XCTest

@_spi(ABI) @testable import Coinfolio

/// The facts include/coinfolio.h states and the Swift core repeats: the status codes (number and
/// `"code"` name), the `details.reason` values, the ABI version, and the prose about the
/// database backends and the currency table. The header is the reference; these fail when Swift
/// differs.
final class HeaderTests: XCTestCase {
    /// The header's text.
    private func header() throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent("include/coinfolio.h"), encoding: .utf8)
    }

    /// `#define CF_NAME N /**< "code" …` lines of the header: (macro, number, code name).
    private func headerStatuses() throws -> [(macro: String, status: Int32, name: String)] {
        let pattern = try NSRegularExpression(pattern: #"#define\s+(CF_[A-Z_]+)\s+(-?[0-9]+)\s*/\*\*<\s*"([a-z_]+)""#)
        let text = try header()
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let macro = Range(match.range(at: 1), in: text), let number = Range(match.range(at: 2), in: text),
                let name = Range(match.range(at: 3), in: text), let status = Int32(text[number])
            else { return nil }
            return (String(text[macro]), status, String(text[name]))
        }
    }

    func testStatusCodesAreTheHeaders() throws {
        let declared = try headerStatuses()
        XCTAssertGreaterThanOrEqual(declared.count, 11, "CF_OK … CF_INTERNAL at least: the header's status list did not parse")
        XCTAssertEqual(declared.first?.macro, "CF_OK")
        XCTAssertEqual(declared.first?.status, 0)
        for (macro, status, name) in declared {
            XCTAssertEqual(
                CoinfolioError.Code(rawValue: status).name, name,
                "\(macro) is \(status) \"\(name)\" in include/coinfolio.h: CoinfolioError.Code needs `static let` \(status) and \"\(name)\" in Code.names"
            )
        }
        let swift = CoinfolioError.Code.names.map { "\($0.key.rawValue) \($0.value)" }
        XCTAssertEqual(
            swift, declared.map { "\($0.status) \($0.name)" }, "CoinfolioError.Code.names, in status order, is the header's CF_* list")
    }

    func testNamedStatusesAreTheHeaders() throws {
        let byMacro = Dictionary(uniqueKeysWithValues: try headerStatuses().map { ($0.macro, $0.status) })
        let swift: [String: CoinfolioError.Code] = [
            "CF_OK": .ok, "CF_INVALID_ARGUMENT": .invalidArgument, "CF_NOT_FOUND": .notFound, "CF_NETWORK": .network,
            "CF_HTTP": .http, "CF_RATE_LIMITED": .rateLimited, "CF_UNAUTHORIZED": .unauthorized, "CF_DECODE": .decode,
            "CF_STORE": .store, "CF_NO_DATA": .noData, "CF_INTERNAL": .internalError,
        ]
        for (macro, code) in swift {
            XCTAssertEqual(code.rawValue, byMacro[macro], "CoinfolioError.Code for \(macro)")
        }
        XCTAssertEqual(CoinfolioError.Code.notFound.name, "not_found")
        XCTAssertEqual(CoinfolioError.Code(rawValue: 99).name, "internal")
    }

    func testABIVersionIsTheHeaders() throws {
        let text = try header()
        let match = try XCTUnwrap(text.range(of: #"#define\s+CF_ABI_VERSION\s+[0-9]+"#, options: .regularExpression))
        let number = try XCTUnwrap(Int32(text[match].split(whereSeparator: \.isWhitespace).last ?? ""))
        XCTAssertEqual(Coinfolio.abiVersion, number, "Coinfolio.abiVersion is CF_ABI_VERSION of include/coinfolio.h")
        XCTAssertEqual(Coinfolio.abiVersion, 1)
    }

    /// `#define CF_REASON_NAME "value" /**< when … */` lines of the header, in order.
    private func headerReasons() throws -> [(macro: String, value: String, when: String)] {
        let pattern = try NSRegularExpression(pattern: #"#define\s+(CF_REASON_[A-Z0-9_]+)\s+"([a-z0-9_]+)"\s*/\*\*<\s*(.*?)\s*\*/"#)
        let text = try header()
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let macro = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text),
                let when = Range(match.range(at: 3), in: text)
            else { return nil }
            return (String(text[macro]), String(text[value]), String(text[when]))
        }
    }

    func testReasonsAreTheHeaders() throws {
        let declared = try headerReasons()
        XCTAssertEqual(
            CoinfolioError.Reason.allCases.map(\.rawValue), declared.map(\.value),
            "CoinfolioError.Reason, in order, is the header's CF_REASON_* list: add each new value to both")
        let statuses = Set(try headerStatuses().map(\.macro))
        for (macro, value, when) in declared {
            XCTAssertEqual(macro, "CF_REASON_" + value.uppercased(), "the macro of \"\(value)\" is named after it")
            let named = when.components(separatedBy: ":").first ?? ""
            let said = named.split(whereSeparator: { !$0.isLetter && $0 != "_" }).map(String.init).filter { $0.hasPrefix("CF_") }
            XCTAssertFalse(said.isEmpty, "\(macro) says with which status it comes, first: \(when)")
            for status in said { XCTAssertTrue(statuses.contains(status), "\(macro) names \(status), which is no status") }
        }
    }

    func testReasonsTheLibraryGivesAreListed() throws {
        let malformed = try XCTUnwrap(tryError { _ = try CoinGeckoBody.global(Data("[1,]".utf8)) })
        XCTAssertEqual(malformed.reason, .malformedJSON)
        let deep = try XCTUnwrap(tryError { _ = try CoinGeckoBody.global(Data(String(repeating: "[", count: 600).utf8)) })
        XCTAssertEqual(deep.reason, .tooDeep)
        XCTAssertEqual(DecodeDeadline.error.reason, .deadline)
        let comma = try XCTUnwrap(tryError { try CoinID.validateHeldAsListable("a,b") })
        XCTAssertEqual(comma.reason, .comma)
        XCTAssertEqual(comma.details["reason"], .string("comma"))
        XCTAssertNil(CoinfolioError(.store, "no reason").reason)
    }

    private func tryError(_ body: () throws -> Void) -> CoinfolioError? {
        do {
            try body()
            return nil
        } catch {
            return error as? CoinfolioError
        }
    }

    /// The header's prose said "SQLite" where PostgreSQL works too. Every sentence naming SQLite
    /// names PostgreSQL as well, unless it is about something only SQLite has.
    func testHeaderProseNamesBothBackends() throws {
        let sqliteOnly = ["SQLite URI", "SQLite:", "SQLITE_BUSY", "sqlite_code"]
        let comments = try header().components(separatedBy: "/**").dropFirst().map { $0.components(separatedBy: "*/")[0] }
        for comment in comments {
            let prose = comment.replacingOccurrences(of: "\n *", with: " ").replacingOccurrences(of: "\n", with: " ")
            for sentence in prose.components(separatedBy: ". ") where sentence.contains("SQLite") {
                if sqliteOnly.contains(where: { sentence.contains($0) }) { continue }
                XCTAssertTrue(
                    sentence.contains("PostgreSQL"),
                    "include/coinfolio.h says SQLite alone where the store may be PostgreSQL too: \"\(sentence)\"")
            }
        }
    }

    /// The Formatting section of the header lists the currencies by kind and fraction digits: each
    /// listed code has that rule in `CurrencyTable`, and every fiat code whose minor unit is
    /// neither 0 nor 2 (the classes the header lists whole) is listed.
    func testHeaderCurrencyProseIsTheTable() throws {
        let text = try header()
        let start = try XCTUnwrap(text.range(of: "One currency table"))
        let end = try XCTUnwrap(text.range(of: "@{", range: start.upperBound..<text.endIndex))
        let prose = String(text[start.lowerBound..<end.lowerBound]).replacingOccurrences(of: "\n *", with: " ")
        /// The lower-case codes in the part of `prose` after `marker` up to `stop`.
        func codes(after marker: String, upTo stop: String) throws -> [String] {
            let from = try XCTUnwrap(prose.range(of: marker), "the header's currency prose has \"\(marker)\"")
            let to = try XCTUnwrap(prose.range(of: stop, range: from.upperBound..<prose.endIndex), "\"\(stop)\" after \"\(marker)\"")
            return prose[from.upperBound..<to.lowerBound].split(whereSeparator: { !$0.isLetter }).map(String.init)
                .filter {
                    $0.count >= 3 && $0 == $0.lowercased() && !["and", "the", "for", "other", "digit", "codes", "rest"].contains($0)
                }
        }
        func fiat(_ digits: Int) -> Set<String> {
            Set(CurrencyTable.entries.filter { $0.kind == .fiat(minorUnit: digits) }.map(\.code))
        }
        let zero = try codes(after: "0 for ", upTo: "other 0-digit")
        XCTAssertFalse(zero.isEmpty)
        for code in zero { XCTAssertTrue(fiat(0).contains(code), "the header lists \(code) with 0 digits; the table does not") }
        XCTAssertEqual(Set(try codes(after: "3 for ", upTo: "2 for")), fiat(3), "every 3-digit fiat code is listed")
        XCTAssertEqual(Set(try codes(after: "4 for ", upTo: "3 for")), fiat(4), "every 4-digit fiat code is listed")
        let crypto = Set(CurrencyTable.entries.filter { $0.kind == .crypto }.map(\.code))
        let metal = Set(CurrencyTable.entries.filter { $0.kind == .metal }.map(\.code))
        XCTAssertEqual(Set(try codes(after: "crypto (", upTo: ")")), crypto, "the header's crypto list is the table's")
        XCTAssertEqual(Set(try codes(after: "metal (", upTo: ")")), metal, "the header's metal list is the table's")
    }
}
