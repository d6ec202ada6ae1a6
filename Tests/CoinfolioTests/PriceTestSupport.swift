import Foundation
import XCTest

@testable import Coinfolio

/// What the price suites share (SPEC §17): the loopback server, a database of the test's own and
/// an engine over both. Price points are shared by every owner of a database, so in the
/// PostgreSQL pass each test gets a database of its own (a new owner would still see another
/// test's points).
class PriceServerTestCase: XCTestCase {
    var server: TestServer?
    let minute: Int64 = 60_000
    let hour: Int64 = 3_600_000
    let day: Int64 = 86_400_000

    override func tearDown() {
        server?.stop()
        server = nil
    }

    /// A database no other test's price points reach.
    func database() throws -> TestDatabase {
        guard TestDatabase.isPostgres else { return try TestDatabase.fresh(self) }
        return TestDatabase(location: try TestDatabase.emptyPostgresDatabase(self), owner: "test-\(UUID().uuidString)")
    }

    /// An engine on `database` (a new one when nil) talking to this test's loopback server.
    func engine(_ database: TestDatabase? = nil, plan: ClientConfiguration.Plan = .public) throws -> PortfolioEngine {
        let server = try self.server ?? TestServer()
        self.server = server
        let database = try database ?? self.database()
        return try PortfolioEngine(
            configuration: EngineConfiguration(
                database: database.location, owner: database.owner,
                api: try ClientConfiguration(
                    baseURL: server.baseURL, plan: plan, apiKey: plan == .public ? nil : "test-key-123456", timeout: 5, maxRetries: 0)))
    }

    /// 00:00 UTC `days` days before today, in ms. Today is read once per test (XCTest makes an
    /// instance per test): a test running across a UTC midnight would otherwise write its rows
    /// counting from one day and compute what it expects counting from the next.
    func dayStart(_ days: Int64) -> Int64 {
        today - days * day
    }

    /// 00:00 UTC of the day this test first asked for a `dayStart`, in ms.
    private lazy var today: Int64 = PortfolioEngine.nowMilliseconds() / day * day

    /// The range requests the server answered since the test began.
    func rangeRequests() throws -> Int { try server?.counts()["market_chart_range"] ?? 0 }
}
