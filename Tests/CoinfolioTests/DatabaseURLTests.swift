import Foundation
import XCTest

@testable import Coinfolio

/// What a `database` setting holding `://` may be (issue 31, break-it finding 1): a password
/// with unencoded `@ / ? % # :` or non-ASCII letters never appears in any message or detail, nor
/// anything between the scheme's `//` and the host; a string that is no supported URL
/// (`postgresql+psycopg2://…`, `jdbc:postgresql://…`, a space before the scheme) is
/// `.invalidArgument` with `details.reason` "unsupported_url", never a SQLite path. The URLs
/// are the test cluster's with another password, so every one reaches libpq or the server.
final class DatabaseURLTests: XCTestCase {
    /// Passwords holding each delimiter at the start, the middle and the end, and non-ASCII letters.
    static let passwords = [
        "S3cret@Pa55?w0rd", "?start/slash@end", "Zebra#Quokka", "Zebra%Quokka", "Zebra:Quokka", "Zebra/Quokka",
        "Zebra?Quokka", "@ZebraQuokka", "ZebraQuokka@", "/ZebraQuokka", "ZebraQuokka/", "%ZebraQuokka", "ZebraQuokka%",
        "#ZebraQuokka", ":ZebraQuokka", "ZebraQuokka:", "Zébra€Quökka", "Пароль@Zebra/Quokka", "Z@e/b?r%a#Q:uökka",
    ]

    /// The pieces of `password` a reader could recognise: itself, and each run of 4 or more
    /// letters or digits in it.
    static func pieces(_ password: String) -> [String] {
        [password] + password.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter { $0.count >= 4 }
    }

    /// Fails when `error`'s message or a string detail holds a piece of `password` or the URL's
    /// user part (`coinfolio:` right after the `//`).
    static func assertNothingOf(
        _ password: String, in error: CoinfolioError?, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error else { return XCTFail("no error for \(password)", file: file, line: line) }
        var texts = [error.message]
        for (_, detail) in error.details { if case .string(let text) = detail { texts.append(text) } }
        for text in texts {
            for piece in pieces(password) { XCTAssertFalse(text.contains(piece), "\(piece) in \(text)", file: file, line: line) }
            XCTAssertFalse(text.contains("//coinfolio"), text, file: file, line: line)
        }
    }

    /// The test cluster's URL with `password` in place of its own, written as is.
    private func url(withPassword password: String, scheme: String = "postgresql://") throws -> String {
        let server = try TestDatabase.postgresURL()
        let at = try XCTUnwrap(server.lastIndex(of: "@"))
        return "\(scheme)coinfolio:\(password)\(server[at...])"
    }

    func testAPasswordWithAnyDelimiterOrLetterNeverAppears() throws {
        for password in Self.passwords {
            let url = try url(withPassword: password)
            let store = assertThrows(.store) { try PortfolioStore(path: url) }
            Self.assertNothingOf(password, in: store)
            XCTAssertTrue(store?.message.contains("postgresql://…@127.0.0.1") ?? false, store?.message ?? "")
            let engine = assertThrows(.store) { try PortfolioEngine(configuration: EngineConfiguration(database: url)) }
            Self.assertNothingOf(password, in: engine)
            XCTAssertFalse(PostgresURL.redactedURL(url).contains("coinfolio:"), PostgresURL.redactedURL(url))
        }
    }

    func testAnUnsupportedURLIsRefusedNeverTakenForAPath() throws {
        let folder = try temporaryDirectory(self)
        let before = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
        defer { FileManager.default.changeCurrentDirectoryPath(before) }
        for scheme in ["postgresql+psycopg2://", "jdbc:postgresql://", " postgresql://", "postgresql ://", "mysql://", "sqlite://"] {
            for password in ["Zebra-7781", "S3cret@Pa55?w0rd", "Zébra/Quökka#"] {
                let url = try url(withPassword: password, scheme: scheme)
                for error in [
                    assertThrows(.invalidArgument) { try PortfolioStore(path: url) },
                    assertThrows(.invalidArgument) { try PortfolioEngine(configuration: EngineConfiguration(database: url)) },
                    assertThrows(.invalidArgument) { try StoreConfiguration(json: #"{"database":"\#(url)"}"#).open() },
                ] {
                    XCTAssertEqual(error?.details["reason"], .string("unsupported_url"), url)
                    XCTAssertEqual(error?.details["field"], .string("database"), url)
                    XCTAssertTrue(error?.message.hasPrefix("database \"\(scheme)…@127.0.0.1") ?? false, error?.message ?? "")
                    Self.assertNothingOf(password, in: error)
                }
                XCTAssertNil(EngineConfiguration(database: url).databaseFilePath, url)
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing was created")
        XCTAssertEqual(EngineConfiguration(database: "portfolio.sqlite").databaseFilePath, "portfolio.sqlite")
        XCTAssertNil(EngineConfiguration(database: ":memory:").databaseFilePath)
        XCTAssertNil(EngineConfiguration(database: "POSTGRES://u@h/db").databaseFilePath)
        XCTAssertNil(EngineConfiguration(database: "file:portfolio.sqlite").databaseFilePath)
    }

    /// The one redaction rule (`SecretRedaction`) applies to a password as to a key: written with
    /// escapes or not, in any letter case, cut short.
    func testOneRedactionRuleForKeysAndPasswords() {
        XCTAssertEqual(SecretRedaction.redacting(["Z%41ebraQQ"], in: "value: \"ZAebraQQ\""), "value: \"[redacted]\"")
        XCTAssertEqual(SecretRedaction.redacting(["Zebra-Quokka"], in: "x zebra-quo y"), "x [redacted] y")
        XCTAssertEqual(SecretRedaction.redacting(["pw"], in: "the pw is"), "the [redacted] is")
        XCTAssertEqual(redacting("CG-abcdefgh", in: "key CG-ABCDEF…"), "key [redacted]…")
    }
}

extension StoreConfiguration {
    /// The store this configuration names.
    fileprivate func open() throws -> PortfolioStore { try PortfolioStore(configuration: self) }
}
