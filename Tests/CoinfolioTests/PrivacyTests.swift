import Foundation
import XCTest

@testable import Coinfolio

/// Issue 19: database files Coinfolio creates are owner-only (0600) whatever the umask, their
/// `-wal` and `-shm` follow, and an existing file keeps its owner's mode.
final class PrivacyTests: XCTestCase {
    private var savedUmask: mode_t = 0

    override func setUp() {
        // The usual umask of a new account; restored after each test.
        savedUmask = umask(0o022)
    }

    override func tearDown() {
        umask(savedUmask)
    }

    private func mode(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    func testStoreCreatesItsFileWalAndShmOwnerOnly() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("portfolio.sqlite").path
        let store = try PortfolioStore(path: path)
        try store.setHolding(coinID: "bitcoin", amount: 0.5)
        XCTAssertEqual(mode(path), 0o600)
        XCTAssertEqual(mode(path + "-wal"), 0o600)
        XCTAssertEqual(mode(path + "-shm"), 0o600)
        store.close()
    }

    func testEngineCreatesItsDatabaseOwnerOnly() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("engine.sqlite").path
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: path))
        try engine.load(marketsBody: Repository.fixture("markets.json"), globalBody: nil)
        try engine.setHolding(coinID: "bitcoin", amount: 1)
        XCTAssertEqual(mode(path), 0o600)
        XCTAssertEqual(mode(path + "-wal"), 0o600)
        XCTAssertEqual(mode(path + "-shm"), 0o600)
    }

    func testAnSQLiteURIIsRefusedNotOpenedWithTheUmasksMode() throws {
        // Found by break3: SQLite (built with SQLITE_USE_URI) opened "file:<path>" as <path>,
        // created 0644 under this umask, and "file::memory:" as a database nobody reads back.
        let folder = try temporaryDirectory(self)
        let path = folder.appendingPathComponent("secret.sqlite").path
        for database in ["file:\(path)", "file:\(path)?mode=rwc", "file::memory:", "file::memory:?cache=shared"] {
            XCTAssertThrowsError(try PortfolioStore(path: database), database) { error in
                XCTAssertEqual((error as? CoinfolioError)?.code, .invalidArgument)
                XCTAssertEqual((error as? CoinfolioError)?.details["reason"], .string("sqlite_uri"))
            }
            XCTAssertThrowsError(try PortfolioEngine(configuration: EngineConfiguration(database: database)), database)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        // A file whose name starts with "file:" is a path like any other.
        let named = folder.appendingPathComponent("file:named.sqlite").path
        let store = try PortfolioStore(path: named)
        try store.setHolding(coinID: "bitcoin", amount: 0.5)
        XCTAssertEqual(mode(named), 0o600)
        store.close()
    }

    func testAnExistingFileKeepsItsMode() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("shared.sqlite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        let store = try PortfolioStore(path: path)
        try store.setHolding(coinID: "bitcoin", amount: 0.5)
        XCTAssertEqual(mode(path), 0o640)
        XCTAssertEqual(mode(path + "-wal"), 0o640)
        store.close()
    }

    func testOwnerOnlyEvenUnderAUmaskThatDropsTheOwnerWriteBit() throws {
        umask(0o277)
        let path = try temporaryDirectory(self).appendingPathComponent("odd.sqlite").path
        let store = try PortfolioStore(path: path)
        try store.setHolding(coinID: "bitcoin", amount: 0.5)
        XCTAssertEqual(mode(path), 0o600)
        store.close()
    }

    // MARK: - Issue 31 finding 8: a symbolic link at the database path

    func testADanglingSymbolicLinkHasItsTargetCreatedOwnerOnly() throws {
        let folder = try temporaryDirectory(self)
        let target = folder.appendingPathComponent("elsewhere/real.sqlite").path
        try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("elsewhere").path, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("portfolio.sqlite").path
        XCTAssertEqual(symlink("elsewhere/real.sqlite", link), 0)  // relative, resolved from the link's folder
        let chained = folder.appendingPathComponent("chained.sqlite").path
        XCTAssertEqual(symlink(link, chained), 0)  // a link to the link
        XCTAssertNil(mode(target), "the link dangles")
        let store = try PortfolioStore(path: chained)
        try store.setHolding(coinID: "bitcoin", amount: 0.5)
        XCTAssertEqual(mode(target), 0o600, "created through the links, owner-only, not 0644")
        XCTAssertEqual(mode(target + "-wal"), 0o600)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "elsewhere/real.sqlite", "the link stays")
        store.close()
        let again = try PortfolioStore(path: link)
        XCTAssertEqual(try again.holdings().map(\.coinID), ["bitcoin"], "the same file through either link")
        again.close()
    }

    func testALinkToAnExistingFileKeepsItsMode() throws {
        let folder = try temporaryDirectory(self)
        let target = folder.appendingPathComponent("shared.sqlite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o640]))
        let link = folder.appendingPathComponent("portfolio.sqlite").path
        XCTAssertEqual(symlink(target, link), 0)
        let store = try PortfolioStore(path: link)
        try store.setHolding(coinID: "bitcoin", amount: 0.5)
        XCTAssertEqual(mode(target), 0o640, "its owner chose that mode")
        store.close()
    }
}
