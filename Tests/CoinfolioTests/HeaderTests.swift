import Foundation
import XCTest

@_spi(ABI) @testable import Coinfolio

/// The facts include/coinfolio.h states and the Swift core repeats: the status codes (number and
/// `"code"` name) and the ABI version. The header is the reference; these fail when Swift differs.
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
}
