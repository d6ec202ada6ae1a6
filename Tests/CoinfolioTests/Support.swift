import Foundation
import Synchronization
import XCTest

@testable import Coinfolio

/// Paths of the repository, found from this file's location.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/fixtures/coingecko")
    /// The recorded CoinGecko corpus beside the checkout (`../shared/fixtures/coingecko`).
    static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/coingecko")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// The body for one id of `details.json`.
    static func detailBody(_ id: String) throws -> Data {
        let all = try JSONSerialization.jsonObject(with: fixture("details.json")) as? [String: Any]
        return try JSONSerialization.data(withJSONObject: XCTUnwrap(all?[id]))
    }
}

/// A fresh temporary folder, removed at the end of the test.
func temporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("coinfolio-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Asserts that `body` throws a CoinfolioError with `code`, and returns it.
@discardableResult
func assertThrows<T>(_ code: CoinfolioError.Code, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T)
    -> CoinfolioError?
{
    do {
        _ = try body()
        XCTFail("expected \(code.name), nothing thrown", file: file, line: line)
    } catch let error as CoinfolioError {
        XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
        return error
    } catch {
        XCTFail("expected CoinfolioError \(code.name), got \(error)", file: file, line: line)
    }
    return nil
}

/// The loopback CoinGecko server of Tests/server (see PROTOCOL.md), one per test.
final class TestServer {
    let process = Process()
    let port: Int
    private let stdinPipe = Pipe()

    var baseURL: String { "http://127.0.0.1:\(port)/api/v3" }

    init() throws {
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Repository.root.appendingPathComponent("Tests/server/coingecko_server.py").path,
            "--port", "0", "--fixtures", Repository.fixtures.path, "--exit-on-stdin-eof",
        ]
        process.standardOutput = stdout
        process.standardInput = stdinPipe
        try process.run()
        var line = Data()
        let handle = stdout.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let value = text.split(separator: "=").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            process.terminate()
            throw CoinfolioError(.internalError, "test server did not print its port: \(text)")
        }
        port = value
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    @discardableResult
    func control(_ path: String, _ body: [String: Any]? = nil) throws -> Any {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/__control/\(path)")))
        request.httpMethod = body == nil && (path == "log" || path == "counts") ? "GET" : "POST"
        if let body { request.httpBody = try JSONSerialization.data(withJSONObject: body) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Data?
        URLSession.shared.dataTask(with: request) { data, _, _ in
            result = data; done.signal()
        }.resume()
        done.wait()
        return try JSONSerialization.jsonObject(with: XCTUnwrap(result))
    }

    func fault(_ fields: [String: Any]) throws { try control("fault", fields) }
    /// Stamps answers with the current time (`last_updated`, `updated_at`), as the live API's are.
    func live() throws { try control("live", ["live": true]) }
    func route(_ fields: [String: Any]) throws { try control("route", fields) }

    /// Logged requests: path, query (decoded), headers (lower-case names).
    func log() throws -> [[String: Any]] {
        let object = try control("log") as? [String: Any]
        return object?["requests"] as? [[String: Any]] ?? []
    }

    /// Requests since the last reset by endpoint (`market_chart_range`, `markets`, …; PROTOCOL.md).
    func counts() throws -> [String: Int] {
        let object = try control("counts") as? [String: Any]
        return object?["counts"] as? [String: Int] ?? [:]
    }

    func requests(to path: String) throws -> [[String: Any]] {
        try log().filter { ($0["path"] as? String) == path }
    }

    func configuration(_ extra: (inout ClientConfiguration) throws -> Void = { _ in }) throws -> ClientConfiguration {
        var configuration = try ClientConfiguration(baseURL: baseURL, timeout: 5, maxRetries: 0)
        try extra(&configuration)
        return configuration
    }
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test case with its own loopback CoinGecko server, started before each test and stopped
/// after it, and clients of it.
class LoopbackServerTestCase: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// A client of the server (5 s timeout, no retries unless `change` says otherwise).
    func client(_ change: (inout ClientConfiguration) throws -> Void = { _ in }) throws -> CoinGeckoClient {
        CoinGeckoClient(configuration: try server.configuration(change))
    }
}

/// Where one store or engine test keeps its rows. The store and engine suites run twice: on
/// SQLite (a fresh file in a temporary folder), and with `COINFOLIO_TEST_BACKEND=postgres` on the
/// test cluster's database (`COINFOLIO_TEST_POSTGRES_URL`, started by `make test`), where each
/// test has an owner of its own so that tests never see each other's rows.
struct TestDatabase {
    /// The `database` setting: a SQLite path or a PostgreSQL URL.
    let location: String
    /// The owner of the test's rows.
    let owner: String

    /// Whether this run is the PostgreSQL pass.
    static var isPostgres: Bool { ProcessInfo.processInfo.environment["COINFOLIO_TEST_BACKEND"] == "postgres" }

    /// Whether `COINFOLIO_TEST_POSTGRES_URL` leads through pgbouncer (transaction pooling) rather
    /// than to the server: the second PostgreSQL pass (SPEC §20).
    static var throughPgbouncer: Bool { ProcessInfo.processInfo.environment["COINFOLIO_TEST_THROUGH_PGBOUNCER"] == "1" }

    /// What refuses a wrong password: the server, or pgbouncer, which checks it first.
    static var passwordRefused: String { throughPgbouncer ? "SASL authentication failed" : "password authentication failed" }
    /// The whole refusal (after "FATAL: ").
    static var passwordRefusedFully: String {
        throughPgbouncer ? "SASL authentication failed" : "password authentication failed for user \"coinfolio\""
    }

    /// The test cluster's URL. The PostgreSQL pass fails (never skips) without one.
    static func postgresURL() throws -> String {
        #if !PostgreSQL
            throw XCTSkip("built without the PostgreSQL trait (SQLite only)")
        #endif
        guard let url = ProcessInfo.processInfo.environment["COINFOLIO_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw CoinfolioError(.internalError, "COINFOLIO_TEST_POSTGRES_URL is not set: run the suites through make test")
        }
        return url
    }

    /// A new, empty database on the test cluster (for migrations and first opens), dropped when
    /// `test` ends; `encoding` creates it with that server encoding (collation C).
    static func emptyPostgresDatabase(_ test: XCTestCase, encoding: String? = nil) throws -> String {
        #if !PostgreSQL
            throw XCTSkip("built without the PostgreSQL trait (SQLite only)")
        #else
            let server = try postgresURL()
            let name = "cf_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_").lowercased())"
            let admin = try PostgresConnection(url: server)
            let options = encoding.map { " ENCODING '\($0)' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0" } ?? ""
            try admin.execute("CREATE DATABASE \(name)\(options)")
            admin.close()
            test.addTeardownBlock {
                if let admin = try? PostgresConnection(url: server) {
                    try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                    admin.close()
                }
            }
            let base = try XCTUnwrap(server.range(of: "/", options: .backwards))
            return server[..<base.upperBound] + name
        #endif
    }

    /// The test cluster's processes: the postmaster (first line of `postmaster.pid`) and its children.
    static func clusterProcesses() throws -> [pid_t] {
        guard let folder = ProcessInfo.processInfo.environment["COINFOLIO_TEST_POSTGRES_DIR"] else {
            throw CoinfolioError(.internalError, "COINFOLIO_TEST_POSTGRES_DIR is not set: run the suites through make test")
        }
        let pidFile = try String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8)
        let postmaster = try XCTUnwrap(pidFile.split(separator: "\n").first.flatMap { pid_t($0) })
        var processes = [postmaster]
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (comm)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == postmaster { processes.append(pid) }
        }
        return processes
    }

    /// A database no other test uses: a new SQLite file, or a new owner on the PostgreSQL server.
    /// Market data is one per database, shared by every owner, and a refresh asks for every
    /// owner's held coins (SPEC §20): on the server the database is emptied when a test asks
    /// for its first one (`emptyDatabase`), so that a test counting requests or expecting no
    /// snapshot never sees an earlier test's rows (the suites run one test at a time).
    static func fresh(_ test: XCTestCase, name: String = "store.sqlite") throws -> TestDatabase {
        let owner = "test-\(UUID().uuidString)"
        if isPostgres {
            let url = try postgresURL()
            let first = emptiedFor.withLock { emptied in
                defer { emptied = ObjectIdentifier(test) }
                return emptied != ObjectIdentifier(test)
            }
            if first { try emptyDatabase(url) }
            return TestDatabase(location: url, owner: owner)
        }
        return TestDatabase(location: try temporaryDirectory(test).appendingPathComponent(name).path, owner: owner)
    }

    /// The test that last emptied the server's database.
    private static let emptiedFor = Mutex<ObjectIdentifier?>(nil)

    /// Deletes every row of every owner and all market data of the PostgreSQL database at `url`
    /// (its schema made first when it has none; its version kept).
    static func emptyDatabase(_ url: String) throws {
        let store = try PortfolioStore(path: url)
        defer { store.close() }
        try store.reading { database in
            let tables = try database.statement(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'coinfolio_schema'")
            var names: [String] = []
            while try tables.next() { names.append(tables.text(0) ?? "") }
            try database.execute(names.map { "DELETE FROM \($0);" }.joined())
        }
    }

    /// The same database seen by another owner.
    func other(owner: String) -> TestDatabase { TestDatabase(location: location, owner: owner) }

    /// A store of this database and owner.
    func store() throws -> PortfolioStore { try PortfolioStore(path: location, owner: owner) }

    /// An engine on this database and owner whose CoinGecko is a closed port (nothing it does
    /// may send a request: a ledger's calls never do).
    func offlineEngine() throws -> PortfolioEngine {
        try PortfolioEngine(
            configuration: EngineConfiguration(
                database: location, owner: owner, api: try ClientConfiguration(baseURL: "http://127.0.0.1:9", timeout: 1, maxRetries: 0)))
    }
}

/// `count` one- or two-byte mutations (a byte replaced, removed or inserted, from JSON's own
/// characters and a few hostile bytes) of a small `/coins/markets` body that uses every kind of
/// value: the differential tests' inputs.
func mutatedMarketsBodies(_ count: Int) -> [[UInt8]] {
    let seed = Array(
        (#"[{"id":"a","symbol":"b","name":"\u00e9","current_price":-1.5e-3,"roi":{"times":0},"x":[true,false,null,{}],"#
            + #""sparkline_in_7d":{"price":[10.25,0,-3,1E+2,null]}},42]"#).utf8)
    let alphabet = Array(#"[]{}",:.-+eE0123456789 tfnulrs\x"#.utf8) + [0x09, 0x00, 0xC3, 0xFF]
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in
        var body = seed
        for _ in 0..<Int.random(in: 1...2, using: &generator) {
            let at = Int.random(in: 0..<body.count, using: &generator)
            let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: body[at] = byte
            case 1: body.remove(at: at)
            default: body.insert(byte, at: at)
            }
        }
        return body
    }
}

/// A seeded generator (SplitMix64, Steele, Lea and Flood 2014), so a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
