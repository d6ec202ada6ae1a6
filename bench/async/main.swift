// coinfolio-async-bench: what the async API's hop costs (SPEC §21). An awaited query (its work on
// a Coinfolio worker thread, the task suspended meanwhile) against the same call made
// synchronously on the calling thread, in interleaved rounds; wall time per call, since the
// awaited call's work runs on another thread. Prints table rows for BENCHMARKS.md.
//
//     coinfolio-async-bench MARKETS.json   (bench/build/markets-15k.json, made by generate.py)
import Coinfolio
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: coinfolio-async-bench MARKETS.json\n".utf8))
    exit(2)
}
let markets = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let engine = try PortfolioEngine(configuration: EngineConfiguration(database: ":memory:"))
let loaded = try engine.load(marketsBody: markets, globalBody: nil)
let ids = try engine.coins(CoinQuery(limit: 10, sparkline: false)).coins.map(\.id)
for id in ids { try engine.setHolding(coinID: id, amount: 1.5) }

/// The median of `values`.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Seconds per call of `calls` calls of `body`.
func perCall(_ calls: Int, _ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<calls { try await body() }
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(calls)
}

/// One row: the awaited and the blocking form of one query, alternating over `rounds` rounds.
func row(_ name: String, calls: Int, rounds: Int = 31, note: String, awaited: () async throws -> Void, blocking: () throws -> Void)
    async throws -> String
{
    var ours: [Double] = []
    var anchor: [Double] = []
    _ = try await perCall(calls, awaited)  // warm: the worker thread, the caches
    _ = try await perCall(calls) { try blocking() }
    for round in 0..<rounds {
        if round % 2 == 0 {
            ours.append(try await perCall(calls, awaited))
            anchor.append(try await perCall(calls) { try blocking() })
        } else {
            anchor.append(try await perCall(calls) { try blocking() })
            ours.append(try await perCall(calls, awaited))
        }
    }
    let (o, a) = (median(ours), median(anchor))
    return String(
        format:
            "| async: awaited %@ | %.3f ms | the same call made synchronously | %.3f ms | %.3g× | %@; wall time per call, the hop to a worker thread and back included (difference %.1f µs) |",
        name, o * 1e3, a * 1e3, o / a, note, (o - a) * 1e6)
}

/// The rows, measured in a task of the cooperative pool (top-level code runs on the main actor).
func rows() async throws -> [String] {
    let search = CoinQuery(search: "eth", limit: 50, sparkline: false)
    var rows: [String] = []
    rows.append(
        try await row(
            "`engine.coins` (\(loaded.coins) coins, search \"eth\", limit 50, no sparkline)", calls: 50, note: "target ≤ 1.5×",
            awaited: { _ = try await engine.coins(search) }, blocking: { _ = try engine.coins(search) }))
    let portfolio = PortfolioQuery(sparkline: false)
    rows.append(
        try await row(
            "`engine.portfolio` (\(loaded.coins) coins, 10 holdings, no sparkline)", calls: 200,
            note: "no target: a query of microseconds shows the hop's fixed cost",
            awaited: { _ = try await engine.portfolio(portfolio) }, blocking: { _ = try engine.portfolio(portfolio) }))
    return rows
}
let measured = try await Task.detached { try await rows() }.value
for line in measured { print(line) }
