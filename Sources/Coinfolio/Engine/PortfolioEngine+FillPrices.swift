import Foundation
import Synchronization

/// One `fill_prices` at a time per engine: two at once would ask CoinGecko for the same ranges.
final class FillGate: Sendable {
    let lock = Mutex(())
}

/// `fill_prices` (SPEC §17): pending prices filled from stored points, then from as few range
/// requests as the rows need.
extension PortfolioEngine {
    /// Fills the owner's pending prices: rows stored without a price (`price_source` "pending":
    /// buys, sells, income and fee rows without one, trades without a value, prices given in
    /// another currency not converted yet).
    ///
    /// Each row takes the price `priceAt` would give its coin at its time in its portfolio's
    /// currency — the owner's manual point of that UTC day, a stored CoinGecko point of that day,
    /// the snapshot within an hour — with `price_source` "coingecko" (or "manual") and `price_at`
    /// the point's time. A trade's two legs take one value: the received coin's price × its
    /// amount, else the sent coin's (SPEC §16). A price given in another currency is converted
    /// with the coin's prices in both currencies (`PriceConversion`; its source stays "user").
    /// What the stored points cannot price is asked of CoinGecko in at most one
    /// `/coins/{id}/market_chart/range` request per coin, currency and 365 days of its rows'
    /// times (`FillPlanner`), never one per row, in coin order, at most `maxRequests` of them;
    /// each request's points are stored for every owner. A sent coin is asked for only when the
    /// received coin of a trade had no price. Progress is reported as phase `prices` (requests
    /// sent of those planned).
    ///
    /// A 429 (or a Retry-After still running from an earlier one, `sent` false) stops the
    /// requests: the rows they were for are listed with reason "rate_limited" and the call still
    /// succeeds with what it filled; a later fill before the wait ends sends nothing. Rows no
    /// request can price are listed too: "history_limit" (older than the public and demo plans'
    /// 365 days, or CoinGecko's 10012), "unknown_coin" (404), "no_point" (no point on that day, a
    /// future time included), "max_requests" (left by the bound). A pending price stays unknown in
    /// every report, never 0.
    /// - Parameter options: the portfolio (nil: every portfolio of the owner) and the bound.
    /// - Returns: rows filled, requests sent, rows still pending with why.
    /// - Throws: `.notFound` for an unknown portfolio (other than "main"); `.invalidArgument`
    ///   (`details.reason` "reentrant") from a progress handler of this fill; a network, HTTP,
    ///   key or decode failure of a request as the client reports it, after writing the rows
    ///   filled before it; `.store`; `CancellationError` when the async call is cancelled (the
    ///   points of requests that finished stay stored; no row is filled). May block on the network.
    public func fillPrices(_ options: FillOptions = FillOptions()) throws -> PriceFill {
        try WorkInProgress.refuseNested(fillGate, "fill_prices")
        return try fillGate.lock.withLock { _ in try WorkInProgress.doing(fillGate) { try fillHoldingLock(options) } }
    }

    /// `fillPrices` from `{"portfolio","max_requests"}` (nil: every default).
    /// - Throws: as `fillPrices`, and `.invalidArgument` for malformed JSON or a bad field.
    public func fillPrices(json: String?) throws -> PriceFill {
        try fillPrices(FillOptions(json: json))
    }

    private func fillHoldingLock(_ options: FillOptions) throws -> PriceFill {
        if let portfolio = options.portfolio { _ = try currency(ofPortfolio: portfolio) }
        let rows = try store.pendingPrices(portfolio: options.portfolio)
        var currencies: [String: String] = [:]
        let jobs = try PriceFillJob.jobs(rows) { row in
            if let known = currencies[row.portfolio] { return known }
            let code = try currency(ofPortfolio: row.portfolio)
            currencies[row.portfolio] = code
            return code
        }
        var book = try priceBook(for: jobs, rows)
        let requestsBefore = client.requestCounts[.marketChartRange] ?? 0
        var run = PriceFillRun(maxRequests: options.maxRequests)
        var failure: Error?
        var priced = jobs.map { resolve($0, rows, book) }
        // Round 1: every job's first price; round 2: the sent coin of trades whose received coin had none.
        for round in 0..<2 where failure == nil {
            var needs: [PriceFillJob.Need] = []
            var owners: [[Int]] = []  // jobs waiting on each need
            var slots: [PriceFillJob.Need: Int] = [:]
            for (index, job) in jobs.enumerated() where priced[index] == nil {
                for need in job.needs(round: round, rows, gaps: run.gaps[index] ?? []) where !book.hasPoint(need.key, at: need.time) {
                    if let slot = slots[need] {
                        owners[slot].append(index)
                    } else {
                        slots[need] = needs.count
                        needs.append(need)
                        owners.append([index])
                    }
                }
            }
            guard !needs.isEmpty else { continue }
            failure = run.send(needs.map(\.planned), owners: owners, plan: configuration.api.plan, now: Self.nowMilliseconds()) {
                request, done, total in
                progress.report(.prices, done: done, total: total)
                return try fetchPoints(request)
            } stored: { request, points in
                book.add(PriceBook.Key(coinID: request.coinID, vsCurrency: request.vsCurrency), points)
            }
            for index in jobs.indices where priced[index] == nil { priced[index] = resolve(jobs[index], rows, book) }
        }
        if run.planned > 0 { progress.report(.prices, done: run.sent, total: run.sent) }
        var filled: [Transaction] = []
        var missing: [PriceFill.Missing] = []
        for (index, job) in jobs.enumerated() {
            if let rowsPriced = priced[index] {
                filled += rowsPriced
            } else {
                let gap = run.gaps[index]?.last ?? .noPoint
                for row in job.rows {
                    guard let id = rows[row].id else { continue }
                    missing.append(
                        PriceFill.Missing(transactionID: id, coinID: rows[row].coinID, timestamp: rows[row].timestamp, reason: gap))
                }
            }
        }
        // A cancelled async fill stops its requests (the points each finished one stored stay,
        // whole) and leaves every pending row as it was.
        if failure is CancellationError { throw CancellationError() }
        try WorkCancellation.check()
        let written = try store.fillPendingPrices(filled)
        if written > 0 { ledgerChanged(options.portfolio) }
        if let failure { throw failure }
        return PriceFill(
            filled: written, requests: (client.requestCounts[.marketChartRange] ?? 0) - requestsBefore,
            missing: missing.sorted { $0.transactionID < $1.transactionID })
    }

    /// The stored and manual points of every coin and currency the jobs may ask for, over the
    /// days their rows span: two queries per coin and currency, none per row.
    private func priceBook(for jobs: [PriceFillJob], _ rows: [Transaction]) throws -> PriceBook {
        var spans: [PriceBook.Key: (from: Int64, to: Int64)] = [:]
        for job in jobs {
            for key in job.keys(rows) {
                let time = rows[job.row].timestamp
                let (start, end) = (UTCDay.start(of: time), UTCDay.end(of: time))
                spans[key] = spans[key].map { (min($0.from, start), max($0.to, end)) } ?? (start, end)
            }
        }
        var book = PriceBook()
        for (key, span) in spans {
            book.set(
                key, stored: try store.pricePoints(coinID: key.coinID, vsCurrency: key.vsCurrency, from: span.from, to: span.to - 1),
                manual: try store.manualPricePoints(coinID: key.coinID, vsCurrency: key.vsCurrency, from: span.from, before: span.to))
        }
        return book
    }

    /// The job's rows priced from the book (and the snapshot within an hour), or nil.
    private func resolve(_ job: PriceFillJob, _ rows: [Transaction], _ book: PriceBook) -> [Transaction]? {
        let lookup = StoredPrices { [self] coinID, vsCurrency, time in
            book.price(PriceBook.Key(coinID: coinID, vsCurrency: vsCurrency), at: time)
                ?? snapshotPrice(coinID: coinID, vsCurrency: vsCurrency, time: time)?.ledgerPrice
        }
        return job.priced(rows, lookup)
    }
}
